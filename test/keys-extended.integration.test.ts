// Modified keys reach the program in a pane (the keypad's too): `ws attach` in a
// real terminal (tmux 3.3a with extended keys, which reports S-Enter as CSI 13;2u only to a program
// that asked for modifyOtherKeys, as ws attach now does), keys sent with send-keys, and a raw reader
// in the ws pane (test/fixtures/key-reader.ts) recording exactly what it got, for a program that
// asked for nothing (tmux's extended forms), for kitty flags and for modifyOtherKeys 2.
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { waitFor, wsArgv } from "./harness";
import { serverWithTmux } from "./tmux-driver";

const { s, tmux } = serverWithTmux();

const READER = join(import.meta.dir, "fixtures", "key-reader.ts");
const hex = (bytes: string) => [...Buffer.from(bytes, "latin1")].map((b) => b.toString(16).padStart(2, "0") + " ").join("");

let readers = 0;
/** A new tab (focused) running the reader with `setup`; its log. */
async function reader(setup: string): Promise<{ pane: number; log: string; got: () => string }> {
  const log = join(s.root, `keys-${++readers}.log`);
  const pane = Number((await s.ok(["tab", "new", "--cwd", s.root, "--", process.execPath, READER, log, setup])).trim());
  await s.waitScreen(pane, "READY");
  return { pane, log, got: () => readFileSync(log, "latin1") };
}

/** Send tmux key names (or -H bytes) to window `name` and wait until the reader's log holds `want`. */
async function expectKeys(name: string, r: { got: () => string }, keys: string[], want: string) {
  const before = r.got().length;
  await tmux.keys(name, ...keys);
  const expected = hex(want);
  try {
    await waitFor(`the reader to get ${JSON.stringify(want)}`, () => r.got().length - before >= expected.length, 10_000);
  } catch {}
  expect(r.got().slice(before)).toBe(expected);
}

let attached = 0;
async function attach(pane: number, env = ""): Promise<string> {
  const name = `k${++attached}`;
  // Extended keys "on": tmux sends CSI u forms only to a program that asked (CSI > 4 ; n m).
  await tmux.tmux("new-session", "-d", "-s", name, "-x", "120", "-y", "40", `${env}${wsArgv().join(" ")} attach; echo "[ws exited $?]"; sleep 3600`, ";", "set", "-g", "extended-keys", "on");
  await tmux.tmux("set-option", "-t", `=${name}:`, "status", "off");
  await tmux.waitFor(name, /\[main\] tab \d+\/\d+/);
  expect((await s.request({ v: 5, type: "pane_focus", pane })).type).toBe("ok");
  // The status line naming the pane: the frame that shows it focused (with the modes it asked of
  // the terminal) has reached tmux. "READY" alone may be an earlier reader's screen.
  await tmux.waitFor(name, new RegExp(`\\] tab \\d+/\\d+ +pane ${pane}\\b`));
  await tmux.waitFor(name, "READY");
  return name;
}

describe("modified keys through ws attach in tmux", () => {
  test("a program that asked for nothing gets tmux's extended forms (S-Enter is CSI 13;2u, not Enter)", async () => {
    const r = await reader("");
    const name = await attach(r.pane);
    await expectKeys(name, r, ["S-Enter"], "\x1b[13;2u");
    await expectKeys(name, r, ["C-Enter"], "\x1b[13;5u");
    await expectKeys(name, r, ["C-Tab"], "\x1b[9;5u");
    await expectKeys(name, r, ["BTab"], "\x1b[Z");
    await expectKeys(name, r, ["Enter"], "\r");
    await expectKeys(name, r, ["M-Escape"], "\x1b\x1b");
    // Item 4: two Escs in one burst are two keys; ESC ESC [ A is Esc then Up, as tmux reads it.
    await expectKeys(name, r, ["Escape", "Escape"], "\x1b\x1b");
    await expectKeys(name, r, ["-H", "1b", "1b", "5b", "41"], "\x1b\x1b[A");
    // Item 7: the keypad's SS3 forms are keys, not dropped: a program not in keypad mode gets '-'.
    await expectKeys(name, r, ["-H", "1b", "4f", "6d"], "-");
    await tmux.keys(name, "C-Space", "d");
    await tmux.waitFor(name, "[ws exited 0]");
  }, 60_000);

  test("kitty flags: S-Enter, C-Enter, C-Tab, S-Tab as CSI u, and Escape Escape as two CSI 27 u", async () => {
    const r = await reader("\x1b[>1u");
    const name = await attach(r.pane);
    await expectKeys(name, r, ["S-Enter"], "\x1b[13;2u");
    await expectKeys(name, r, ["C-Enter"], "\x1b[13;5u");
    await expectKeys(name, r, ["C-Tab"], "\x1b[9;5u");
    await expectKeys(name, r, ["BTab"], "\x1b[9;2u");
    await expectKeys(name, r, ["Escape", "Escape"], "\x1b[27u\x1b[27u");
    await expectKeys(name, r, ["-H", "1b", "1b", "5b", "41"], "\x1b[27u\x1b[A");
    await tmux.keys(name, "C-Space", "d");
    await tmux.waitFor(name, "[ws exited 0]");
  }, 60_000);

  test("the application keypad: the user's terminal is put in it while the focused pane is, so KP keys stay keypad keys", async () => {
    const r = await reader("\x1b=");
    const name = await attach(r.pane);
    // tmux sends its pane's keypad keys as ESC O … only when that pane (ws attach) asked with ESC =.
    await expectKeys(name, r, ["KP5"], "\x1bOu");
    await expectKeys(name, r, ["KP-"], "\x1bOm");
    await expectKeys(name, r, ["KPEnter"], "\x1bOM");
    const plain = await reader("");
    expect((await s.request({ v: 5, type: "pane_focus", pane: plain.pane })).type).toBe("ok");
    await tmux.waitFor(name, new RegExp(`\\] tab \\d+/\\d+ +pane ${plain.pane}\\b`));
    await expectKeys(name, plain, ["KP5"], "5");
    await tmux.keys(name, "C-Space", "d");
    await tmux.waitFor(name, "[ws exited 0]");
  }, 60_000);

  test("Ctrl+\\ and Ctrl+] as the plain bytes FS and GS (a terminal without extended keys) reach each mode as those keys", async () => {
    const legacy = await reader("");
    const mok = await reader("\x1b[>4;2m");
    const kitty = await reader("\x1b[>1u");
    const name = await attach(kitty.pane);
    await expectKeys(name, kitty, ["-H", "1c"], "\x1b[92;5u");
    await expectKeys(name, kitty, ["-H", "1d"], "\x1b[93;5u");
    for (const [r, fs, gs] of [[mok, "\x1b[27;5;92~", "\x1b[27;5;93~"], [legacy, "\x1c", "\x1d"]] as const) {
      expect((await s.request({ v: 5, type: "pane_focus", pane: r.pane })).type).toBe("ok");
      await tmux.waitFor(name, new RegExp(`\\] tab \\d+/\\d+ +pane ${r.pane}\\b`));
      await expectKeys(name, r, ["-H", "1c"], fs);
      await expectKeys(name, r, ["-H", "1d"], gs);
    }
    await tmux.keys(name, "C-Space", "d");
    await tmux.waitFor(name, "[ws exited 0]");
  }, 60_000);

  test("modifyOtherKeys 2, with the client pumping its terminal (WS_ATTACH_DIRECT=0): CSI 27 ; m ; k ~", async () => {
    const r = await reader("\x1b[>4;2m");
    const name = await attach(r.pane, "WS_ATTACH_DIRECT=0 ");
    await expectKeys(name, r, ["S-Enter"], "\x1b[27;2;13~");
    await expectKeys(name, r, ["C-Enter"], "\x1b[27;5;13~");
    await expectKeys(name, r, ["C-Tab"], "\x1b[27;5;9~");
    await expectKeys(name, r, ["M-x"], "\x1b[27;3;120~");
    await expectKeys(name, r, ["Escape", "Escape"], "\x1b\x1b");
    await tmux.keys(name, "C-Space", "d");
    await tmux.waitFor(name, "[ws exited 0]");
  }, 60_000);
});
