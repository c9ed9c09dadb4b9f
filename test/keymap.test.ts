import { describe, expect, test } from "bun:test";
import { pal } from "../src/ui/grid";
import { mkdtempSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { defaultKeymap, UI_ACTIONS, describeKeymap } from "../src/ui/keymap";
import { applyKeysToml, loadKeymap } from "../src/ui/keymap-toml";
import { keyName, parseKeyName } from "../src/ui/keymap-names";
import { KEY_NAMES, parseKeyName as parseSendKey } from "../src/protocol/key-names";
import { CONTROL, formatMods } from "../src/protocol/events";
import { keysTomlPath } from "../src/keys-toml";
import { checkCommandLine } from "../src/ui/command-line";
import { InputParser } from "../src/protocol/input-parser";

const nameOf = (raw: string) => {
  const [ev] = new InputParser().feed(raw);
  if (typeof ev !== "object" || !("Key" in ev)) throw new Error(`not a key: ${JSON.stringify(ev)}`);
  return keyName(ev.Key);
};

describe("key names", () => {
  test("events from the parser get canonical names", () => {
    expect(nameOf("\x00")).toBe("C-Space");
    expect(nameOf("d")).toBe("d");
    expect(nameOf("%")).toBe("%");
    expect(nameOf("H")).toBe("H");
    expect(nameOf("\x1b[1;5D")).toBe("C-Left");
    expect(nameOf("\x1b[D")).toBe("Left");
    expect(nameOf("\x1bx")).toBe("M-x");
    expect(nameOf("\x1b[32;5u")).toBe("C-Space");
    expect(nameOf("\x1b[1;2A")).toBe("S-Up");
  });

  test("user-written names", () => {
    expect(parseKeyName("C-Space")).toBe("C-Space");
    expect(parseKeyName("ctrl+space")).toBe("C-Space");
    expect(parseKeyName("Ctrl-Left")).toBe("C-Left");
    expect(parseKeyName("M-x")).toBe("M-x");
    expect(parseKeyName("shift-a")).toBe("A");
    expect(parseKeyName("f5")).toBe("F5");
    expect(parseKeyName("-")).toBe("-");
    expect(parseKeyName("C-a")).toBe("C-a");
    expect(parseKeyName("NotAKey")).toBeNull();
  });

  test("keys.toml and pane_send_keys read key names by one grammar: every tmux name means the same key", () => {
    const names = [...KEY_NAMES.filter((k) => !k.startsWith("KP")), "a", "%", "é"];
    for (const name of names)
      for (const mods of ["", "C-", "M-", "S-", "C-M-", "m-s-"]) {
        const key = parseSendKey(mods + name);
        if (!key) throw new Error(`${mods}${name} is no key to pane_send_keys`);
        const event = { code: key.code, modifiers: formatMods(key.mods), kind: "Press" as const, state: "NONE" };
        expect(parseKeyName(mods + name)).toBe(keyName(event));
      }
    // keys.toml's own words are not tmux's: pane_send_keys types them as text.
    expect(parseKeyName("ctrl+esc")).toBe("C-Esc");
    expect(parseSendKey("ctrl+esc")).toBeUndefined();
    expect(parseSendKey("Esc")).toBeUndefined();
    expect(parseKeyName("super-F13")).toBe("D-F13");
    expect([parseKeyName("^a"), parseSendKey("^a")?.mods]).toEqual(["C-a", CONTROL]);
  });
});

describe("keymap", () => {
  test("defaults cover what a tmux user expects", () => {
    const km = defaultKeymap();
    const t = km.prefixTable;
    expect(km.prefix).toBe("C-Space");
    expect([t.get("d"), t.get("%"), t.get('"'), t.get("c"), t.get("z"), t.get("["), t.get("C-Space")]).toEqual([
      "detach", "split-right", "split-below", "new-tab", "zoom", "copy-mode", "send-prefix",
    ]);
    for (const cmd of t.values()) expect(UI_ACTIONS.some((c) => c.name === cmd)).toBe(true);
    expect(describeKeymap(km).find((l) => l.startsWith("detach"))).toContain("C-Space d");
  });

  test("keys.toml overrides, unbinds and a root table", () => {
    const { keymap, warnings } = applyKeysToml('prefix = "C-a"\n[keys]\n"v" = "split-right"\n"d" = "none"\n[root]\n"M-Left" = "focus-left"\n');
    expect(warnings).toEqual([]);
    expect(keymap.prefix).toBe("C-a");
    expect(keymap.prefixTable.get("v")).toBe("split-right");
    expect(keymap.prefixTable.has("d")).toBe(false);
    expect(keymap.root.get("M-Left")).toBe("focus-left");
  });

  test("a bad file names the line and the defaults still load", () => {
    const bad = applyKeysToml('[keys]\n"v" = "split-right"\n"x" = = "oops"\n', "/cfg/keys.toml");
    expect(bad.warnings.length).toBe(1);
    expect(bad.warnings[0]).toMatch(/^\/cfg\/keys\.toml:3: /);
    expect(bad.keymap.prefixTable.get("d")).toBe("detach");
    // The server checks a value that is no command name as a ws command line (src/ui/command-line.ts).
    const unknown = applyKeysToml('[keys]\n\n"v" = "explode"\n"Bogus Key" = "zoom"\n"e" = "layout select even-horizontal"\n"V" = "split --right --size 40%"\n', "keys.toml", checkCommandLine);
    expect(unknown.warnings[0]).toMatch(/keys\.toml:3: "explode" is not a command/);
    expect(unknown.warnings[1]).toMatch(/keys\.toml:4: "Bogus Key" is not a key name/);
    expect(unknown.keymap.prefixTable.get("z")).toBe("zoom");
    expect(unknown.keymap.prefixTable.get("e")).toBe("layout select even-horizontal");
    // The issue's own example: a size as a percentage.
    expect(unknown.keymap.prefixTable.get("V")).toBe("split --right --size 40%");
    expect(unknown.warnings.length).toBe(2);
  });

  test("a syntax error keeps every other setting: the prefix, the other keys, mouse", () => {
    const text = 'prefix = "C-a"\nmouse = false\n[keys]\n"v" = "split-right"\n"x" = = "oops"\n"V" = "zoom"\n';
    const r = applyKeysToml(text, "/cfg/keys.toml");
    expect(r.warnings).toHaveLength(1);
    expect(r.warnings[0]).toMatch(/^\/cfg\/keys\.toml:5: .*that line is skipped/);
    expect(r.keymap.prefix).toBe("C-a");
    expect(r.keymap.mouse).toBe(false);
    expect(r.keymap.prefixTable.get("v")).toBe("split-right");
    expect(r.keymap.prefixTable.get("V")).toBe("zoom");
  });

  test("a misspelt command or setting gets did you mean", () => {
    const r = applyKeysToml('histroy-limit = 5000\n[keys]\n"Z" = "zoomm"\n', "keys.toml", checkCommandLine);
    expect(r.warnings.find((w) => w.includes('"zoomm"'))).toContain('did you mean "zoom"?');
    expect(r.warnings.find((w) => w.includes("histroy-limit"))).toContain('did you mean "history-limit"?');
  });

  test("tmux's settings by tmux's names", () => {
    const r = applyKeysToml('mouse = "off"\nbase-index = 0\nmode-keys = "vi"\nhistory-limit = 50000\nescape-time = 10\nrenumber-windows = "on"\nstatus = "on"\n');
    expect(r.warnings).toEqual([]);
    expect(r.keymap).toMatchObject({ mouse: false, baseIndex: 0, modeKeys: "vi", historyLimit: 50000, escapeTime: 10, renumberWindows: true, statusLine: true });
    const off = applyKeysToml('status = "off"\nrenumber-windows = "off"\nstatus-style = "bg=colour235,fg=brightred"\n');
    expect(off.warnings).toEqual([]);
    expect(off.keymap).toMatchObject({ statusLine: false, renumberWindows: false, statusStyle: { bg: pal(235), fg: pal(9) } });
    const bad = applyKeysToml('base-index = 12\nhistory-limit = -1\nstatus = "sometimes"\nstatus-style = "bg=mauve"\n');
    expect(bad.warnings).toHaveLength(4);
  });

  test("quit and close-pane ask first by default; confirm = false / a list / nonsense", () => {
    expect([...defaultKeymap().confirm].sort()).toEqual(["close-pane", "close-tab", "quit"]);
    expect(describeKeymap(defaultKeymap()).find((l) => l.startsWith("quit"))).toContain("(asks y/n first)");
    expect(describeKeymap(defaultKeymap()).find((l) => l.startsWith("detach"))).not.toContain("asks");
    const off = applyKeysToml("confirm = false\n");
    expect(off.warnings).toEqual([]);
    expect(off.keymap.confirm.size).toBe(0);
    // Quit asks whatever keys.toml says; the rest follow confirm.
    expect(describeKeymap(off.keymap).find((l) => l.startsWith("quit"))).toContain("asks");
    expect(describeKeymap(off.keymap).find((l) => l.startsWith("close-pane"))).not.toContain("asks");
    const some = applyKeysToml('confirm = ["quit"]\n');
    expect([...some.keymap.confirm]).toEqual(["quit"]);
    const bad = applyKeysToml('prefix = "C-a"\nconfirm = ["zoom"]\n');
    expect(bad.warnings).toEqual(['keys.toml:2: confirm must be true, false or a list of "quit", "close-pane", "close-tab" (not "zoom"); keeping the default']);
    expect([...bad.keymap.confirm].sort()).toEqual(["close-pane", "close-tab", "quit"]);
    expect(applyKeysToml('confirm = "no"\n').warnings[0]).toMatch(/^keys\.toml:1: confirm must be true, false or a list/);
  });

  test("file location follows XDG_CONFIG_HOME, else ~/.config", () => {
    const dir = mkdtempSync(join(tmpdir(), "ws-keys-"));
    expect(keysTomlPath({ HOME: "/h" })).toBe("/h/.config/ws/keys.toml");
    expect(keysTomlPath({ XDG_CONFIG_HOME: dir, HOME: "/h" })).toBe(join(dir, "ws/keys.toml"));
    mkdirSync(join(dir, "ws"));
    writeFileSync(join(dir, "ws/keys.toml"), '[keys]\n"v" = "split-right"\n');
    expect(loadKeymap({ XDG_CONFIG_HOME: dir }).keymap.prefixTable.get("v")).toBe("split-right");
    expect(loadKeymap({ XDG_CONFIG_HOME: join(dir, "none") }).warnings).toEqual([]);
  });
});

test("keys.toml and pane_send_keys read one table of key names: every tmux name is a keymap key", async () => {
  const { KEY_NAMES } = await import("../src/protocol/key-names");
  for (const name of KEY_NAMES.filter((n) => !n.startsWith("KP"))) expect({ name, parsed: parseKeyName(name) !== null }).toEqual({ name, parsed: true });
  expect(parseKeyName("IC")).toBe("Insert");
  expect(parseKeyName("C-PPage")).toBe("C-PageUp");
  expect(parseKeyName("ctrl+esc")).toBe("C-Esc");
  expect(parseKeyName("return")).toBe("Enter");
  expect(parseKeyName("Nope")).toBeNull();
});

test("the README's keys.toml example is safe to copy: it reads without a problem, every key that asks still asks, and detach keeps its key", () => {
  const readme = readFileSync(join(import.meta.dir, "../README.md"), "utf8");
  const section = readme.slice(readme.indexOf("## Configuration"));
  // The indented block after "binds keys to command names:".
  const block = /binds keys to command names:\n\n((?: {4}.*\n|\n)+)/.exec(section)![1]!.replace(/^ {4}/gm, "");
  expect(block).toContain("[keys]");
  expect(block).not.toMatch(/^\s*confirm\s*=/m);
  const { keymap, warnings } = applyKeysToml(block);
  expect(warnings).toEqual([]);
  expect([...keymap.confirm].sort()).toEqual([...defaultKeymap().confirm].sort());
  expect(describeKeymap(keymap).find((l) => l.startsWith("detach"))).toMatch(/prefix|C-a d/);
  expect([...keymap.prefixTable].some(([, c]) => c === "detach")).toBe(true);
});
