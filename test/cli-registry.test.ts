// The CLI is generated from the registry: every flag maps to a field, every required field can be
// given, mistakes are refused with the nearest valid name (exit 2), and earlier fixes to it hold.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { MESSAGES, REGISTRY } from "../src/messages";
import { commandTable } from "../src/cli/index";
import { HANDLERS } from "../src/cli/handlers";
import { VIEWS } from "../src/cli/views";
import { buildCommandTable } from "../src/cli-table/table";
import { UsageError, findCommand, parseArgs } from "../src/cli-table/parse";
import { TestServer, waitFor } from "./harness";

const ESC = "\x1b";

describe("the command table", () => {
  test("the table baked into the CLI is the one the registry makes now", () => {
    expect(commandTable()).toEqual(buildCommandTable());
  });

  test("every CLI flag and argument of a message command maps to one of its fields, of the same type", () => {
    for (const c of commandTable().filter((c) => c.message)) {
      const entry = REGISTRY.get(c.message!)!;
      expect(entry).toBeDefined();
      for (const p of c.params) {
        // The CLI's own flags (--status-ok) are never sent.
        if (p.local) continue;
        const field = entry.fields[p.field];
        expect(field, `ws ${c.path} ${p.flag ?? p.field} → ${c.message}.${p.field}`).toBeDefined();
        // A `map` flag (--env NAME=VALUE) gives an object field of strings.
        if (p.value === undefined) expect(p.type === "map" ? field!.type === "object" && field!.keyValue === true : field!.type === p.type, `ws ${c.path} ${p.flag ?? p.field}`).toBe(true);
      }
      for (const f of [...Object.keys(c.fixed ?? {}), ...(c.rest ? [c.rest.field] : [])]) expect(entry.fields[f], `ws ${c.path}: ${f}`).toBeDefined();
    }
  });

  test("every required field of a message on the CLI can be given: positional, flag, rest, fixed or a CLI default", () => {
    for (const c of commandTable().filter((c) => c.message)) {
      const entry = REGISTRY.get(c.message!)!;
      const reachable = new Set([...c.params.map((p) => p.field), ...Object.keys(c.fixed ?? {}), ...(c.rest ? [c.rest.field] : [])]);
      for (const [name, f] of Object.entries(entry.fields)) if (f.required) expect(reachable.has(name), `ws ${c.path} can't give ${c.message}.${name}`).toBe(true);
    }
  });

  test("every message with a cli section is a command; every handler and view named exists", () => {
    for (const m of MESSAGES) for (const cli of [m.cli ?? []].flat()) expect(commandTable().some((c) => c.path === cli.path && c.message === m.type)).toBe(true);
    for (const c of commandTable()) {
      if (c.run) expect(HANDLERS[c.run], `handler ${c.run}`).toBeDefined();
      else expect(c.message, `ws ${c.path} neither sends nor runs`).toBeDefined();
      if (c.view) expect(VIEWS[c.view], `view ${c.view}`).toBeDefined();
    }
  });

  test("views and handlers are named in camelCase, so none reads as a message, reply or event (snake_case)", () => {
    for (const name of [...Object.keys(VIEWS), ...Object.keys(HANDLERS)]) expect(name, name).toMatch(/^[a-z][a-zA-Z0-9]*$/);
  });

  test("a mistyped flag of any command is refused, naming a flag that command has", () => {
    for (const c of commandTable().filter((c) => !c.ownArgs))
      for (const p of c.params.filter((p) => p.flag)) {
        const typo = `--${p.flag}${p.flag!.at(-1)}`;
        let err: unknown;
        try {
          parseArgs(c, [typo], { WS_PANE_ID: "1" });
        } catch (e) {
          err = e;
        }
        expect(err, `ws ${c.path} ${typo}`).toBeInstanceOf(UsageError);
        const m = /^unknown flag (\S+) for (.+) \(did you mean --(\S+)\?\)$/.exec((err as Error).message);
        expect(m, (err as Error).message).not.toBeNull();
        expect(c.params.some((q) => q.flag === m![3])).toBe(true);
      }
  });

  test("a mistyped command names the nearest one", () => {
    for (const c of commandTable()) {
      const words = c.path.split(" ");
      const typo = [...words.slice(0, -1), words.at(-1)!.slice(0, -1)];
      if (commandTable().some((o) => o.path === typo.join(" "))) continue; // pane grants less its s is pane grant
      // A command that is also its group's first word takes a word it can take as its own argument:
      // ws review not reviews the branch "not" (ws review TARGET), not a mistyped ws review note.
      const parent = commandTable().find((o) => o.path === words.slice(0, -1).join(" "));
      if (parent) {
        let found: ReturnType<typeof findCommand> | undefined;
        try {
          found = findCommand(commandTable(), typo);
        } catch (e) {
          expect((e as Error).message).toContain(`(did you mean ${c.path}?)`);
          continue;
        }
        expect(found, `ws ${typo.join(" ")}`).toEqual({ command: parent, rest: [typo.at(-1)!] });
        continue;
      }
      expect(() => findCommand(commandTable(), typo)).toThrow(`(did you mean ${c.path}?)`);
    }
  });

  test("arguments are typed: a pane id must be a number, extra words are refused", () => {
    const read = commandTable().find((c) => c.path === "pane read")!;
    expect(parseArgs(read, ["3", "--lines=5", "--styled"], {})).toMatchObject({ pane: 3, lines: 5, styled: true });
    expect(parseArgs(read, ["--scrollback"], { WS_PANE_ID: "7" })).toMatchObject({ pane: 7, source: "recent" });
    expect(() => parseArgs(read, ["x"], {})).toThrow("PANE for pane read is a whole number");
    expect(() => parseArgs(read, ["1", "2"], {})).toThrow('too many arguments for pane read: "2"');
    expect(() => parseArgs(read, ["1", "--lines"], {})).toThrow("--lines for pane read needs a value");
    const send = commandTable().find((c) => c.path === "pane send")!;
    // timeout 0: --wait-output's wait has no limit unless --timeout gives one (as ws wait).
    expect(parseArgs(send, ["2", "--", "--not-a-flag"], {})).toEqual({ pane: 2, text: "--not-a-flag", timeout: 0 });
    const split = commandTable().find((c) => c.path === "split")!;
    expect(parseArgs(split, ["--", "htop", "-d", "5"], { WS_PANE_ID: "4" }, () => "/here")).toEqual({ pane: 4, cwd: "/here", command: ["htop", "-d", "5"], focus: false });
    expect(parseArgs(split, ["2", "--below", "--size", "5"], {}, () => "/here")).toMatchObject({ pane: 2, right: false, size: 5 });
  });

  test("README's CLI table names every command and no flag that does not exist", () => {
    const readme = readFileSync(join(import.meta.dir, "../README.md"), "utf8");
    const section = readme.slice(readme.indexOf("## CLI"), readme.indexOf("\n## ", readme.indexOf("## CLI") + 1));
    // The first cell of each row (`\|` inside a cell is a literal bar).
    const rows = section.split("\n").filter((l) => l.startsWith("| `ws")).map((l) => l.split(/(?<!\\)\|/)[1]!);
    for (const c of commandTable()) {
      const [first, second] = c.path.split(" ");
      const row = rows.find((r) => r.includes(`ws ${first}`) && (second === undefined || new RegExp(`\\b${second}\\b`).test(r)));
      expect(row, `README's CLI table lacks ws ${c.path}`).toBeDefined();
    }
    const flags = new Set([...commandTable().flatMap((c) => c.params.map((p) => p.flag)), "json", "local", "help", "all-hosts"]);
    for (const r of rows) for (const [, f] of r.matchAll(/--([a-z][a-z-]*)/g)) expect(flags.has(f!), `README names --${f}`).toBe(true);
  });
});

describe("the CLI as a user runs it", () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await new TestServer().start();
  });
  afterAll(() => s.stop());

  test("ws split 1 --bellow: refused with one plain line, exit 2, nothing split", async () => {
    const before = (await s.list())[0]!.tabs[0]!.panes;
    const r = await s.run(["split", "1", "--bellow"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe("ws: unknown flag --bellow for split (did you mean --below?)\n");
    expect(r.stdout).toBe("");
    expect((await s.list())[0]!.tabs[0]!.panes).toEqual(before);
  });

  test("ws spilt: one line naming split, exit 2, no colour when piped", async () => {
    const r = await s.run(["spilt"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe("ws: unknown command spilt (did you mean split?)\n");
    expect(r.stdout).toBe("");
    const sub = await s.run(["pane", "raed", "1"]);
    expect(sub.code).toBe(2);
    expect(sub.stderr).toBe("ws: unknown command pane raed (did you mean pane read?)\n");
  });

  test("ws pane read 1 --lnes 5 is refused rather than printing the whole screen", async () => {
    const r = await s.run(["pane", "read", "1", "--lnes", "5"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe("ws: unknown flag --lnes for pane read (did you mean --lines?)\n");
    expect(r.stdout).toBe("");
  });

  test("help is plain text from the field descriptions, for every command and group", async () => {
    for (const args of [["--help"], ["split", "--help"], ["pane", "--help"], ["wait", "output", "-h"]]) {
      const r = await s.run(args);
      expect(r.code).toBe(0);
      expect(r.stdout).toContain("usage: ws");
      expect(r.stdout).not.toContain(ESC);
    }
    const split = (await s.run(["split", "--help"])).stdout;
    expect(split).toContain(REGISTRY.get("split")!.fields.size!.description);
    expect(split).toContain("--below");
  });

  test("ws report --help prints its help (the hook fast path is for reports only)", async () => {
    const r = await s.run(["report", "--help"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("usage: ws report [EVENT] [--agent AGENT]");
    // Through the CLI (here because of -L) a report still takes its arguments as the hook gives them.
    const codex = await s.run(["-L", "elsewhere", "report", "--agent", "codex", "--unknown", '{"type":"agent-turn-complete"}']);
    expect(codex.code).toBe(0);
    expect(codex.stderr).toBe("");
  });

  test("ws split -- CMD inside a pane splits that pane ($WS_PANE_ID)", async () => {
    const r = await s.run(["split", "--", "sh", "-c", "echo split-by-env; exec cat"], { env: { WS_PANE_ID: "1" } });
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    const pane = Number(r.stdout.trim());
    await s.waitScreen(pane, "split-by-env");
    const tab = (await s.list())[0]!.tabs.find((t: { panes: number[] }) => t.panes.includes(1));
    expect(tab!.panes).toContain(pane);
    await s.ok(["pane", "close", String(pane)]);
  });

  test("ws doctor --json prints JSON", async () => {
    const r = await s.run(["--json", "doctor"]);
    const j = JSON.parse(r.stdout);
    expect(j.type).toBe("doctor");
    expect(j.findings.some((f: { level: string; text: string }) => f.level === "ok" && /default\.sock: live/.test(f.text))).toBe(true);
    const again = await s.run(["doctor", "--json"]);
    expect(JSON.parse(again.stdout).type).toBe("doctor");
  });

  test("the no-server hint names the server chosen with -L", async () => {
    const r = await s.run(["-L", "elsewhere", "workspace", "list"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("Start one with `ws start -L elsewhere`");
  });
});

test("ws start -- CMD runs CMD in pane 1", async () => {
  const t = new TestServer({ name: "starter" });
  try {
    const r = await t.run(["start", "--", "sh", "-c", "echo started-$((1+2)); exec cat"]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    await t.waitScreen(1, "started-3");
    const pane = await waitFor("pane 1's command", async () => {
      const info = await t.v6({ type: "pane_info", pane: 1 });
      return info.argv?.[0] === "sh" ? info : undefined;
    });
    expect(pane.argv).toEqual(["sh", "-c", "echo started-$((1+2)); exec cat"]);
    // A server already runs: the command can't go into pane 1, so it is refused, not dropped.
    const again = await t.run(["start", "--", "true"]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain("already runs");
  } finally {
    await t.stop();
  }
}, 60_000); // four ws processes from source: seconds each on a loaded 2-core box
