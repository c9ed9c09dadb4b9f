// A pane's program asks its terminal's colours (OSC 10/11/12, OSC 4) to pick a light or dark
// theme. ws answers from the person's terminal, asked once at attach: here tmux 3.3a is that
// terminal (it answers OSC 10/11 from window-style, and XTVERSION), with
// ws attach reading it itself or the server driving it; a raw attach client's TERMINAL frame; and
// ws's defaults with nobody attached. The answers reach the asking pane only.
import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { waitFor } from "./harness";
import { RawAttach } from "./raw-attach";
import { attachCommand, PREFIX, serverWithTmux } from "./tmux-driver";
import { encodeFrame, FRAME_TERMINAL } from "../src/protocol/frames";
import { DEFAULT_COLOURS } from "../src/model/terminal-colours";

const { s, tmux } = serverWithTmux();
const ASKER = join(import.meta.dir, "fixtures", "ask-terminal.ts");
const QUERIES = ["\x1b]10;?\x1b\\", "\x1b]11;?\x07", "\x1b]12;?\x1b\\", "\x1b]4;1;?;200;?\x1b\\"];

/** A new pane that asks QUERIES (or `queries`); what it got back. */
async function ask(queries = QUERIES): Promise<string> {
  const file = join(s.root, `colours-${Math.random().toString(36).slice(2)}.json`);
  const first = (await s.v6({ type: "pane_list" })).panes[0]!.pane as number;
  const r = await s.request({ v: 1, type: "split", pane: first, cwd: s.root, command: [process.execPath, ASKER, file, JSON.stringify(queries)], focus: false });
  expect(r.type).not.toBe("error");
  await waitFor("the asker's answers", () => existsSync(file), 30000);
  await s.request({ v: 1, type: "pane_close", pane: r.pane });
  return JSON.parse(readFileSync(file, "utf8")).got;
}

const answers = (fg: string, bg: string, cursor: string, p1: string, p200: string) =>
  `\x1b]10;${fg}\x1b\\\x1b]11;${bg}\x1b\\\x1b]12;${cursor}\x1b\\\x1b]4;1;${p1}\x1b\\\x1b]4;200;${p200}\x1b\\`;
const DEFAULTS = answers(DEFAULT_COLOURS.fg, DEFAULT_COLOURS.bg, DEFAULT_COLOURS.cursor, DEFAULT_COLOURS.palette[1]!, DEFAULT_COLOURS.palette[200]!);
const version = async () => ((await s.v6({ type: "session_snapshot" })).client as { version?: string } | null)?.version;

describe("colour queries", () => {
  test("nobody attached: ws's defaults (light on black, xterm's palette)", async () => {
    expect(await ask()).toBe(DEFAULTS);
  }, 60_000);

  test("a program's own colours are what it hears back; OSC 110 and 104 give the terminal's again", async () => {
    expect(await ask(["\x1b]11;#fafafa\x1b\\\x1b]4;1;rgb:12/34/56\x1b\\", ...QUERIES, "\x1b]111\x1b\\\x1b]104;1\x1b\\\x1b]11;?\x1b\\\x1b]4;1;?\x1b\\"])).toBe(
      answers(DEFAULT_COLOURS.fg, "rgb:fafa/fafa/fafa", DEFAULT_COLOURS.cursor, "rgb:1212/3434/5656", DEFAULT_COLOURS.palette[200]!) +
        `\x1b]11;${DEFAULT_COLOURS.bg}\x1b\\\x1b]4;1;${DEFAULT_COLOURS.palette[1]}\x1b\\`,
    );
  }, 60_000);

  for (const [how, env] of [["the server driving it", ""], ["ws attach reading it (WS_ATTACH_DIRECT=0)", "WS_ATTACH_DIRECT=0 "]] as const) {
    test(`tmux 3.3a as the person's terminal, ${how}: its colours and its name; the defaults again after a detach`, async () => {
      const name = `c${env ? "relay" : "direct"}`;
      // tmux's colours first: ws asks once, at attach.
      await tmux.tmux("new-session", "-d", "-s", `${name}-setup`, "sleep 3600");
      await tmux.tmux("set-option", "-g", "window-style", "fg=#aabbcc,bg=#112233");
      // tmux 3.3a answers OSC 4 from pane-colours without the index (`OSC 4 ; rgb:…`): unreadable,
      // so ignored, and the palette stays ws's (a TERMINAL frame's palette is tested below).
      await tmux.tmux("set-option", "-g", "pane-colours[1]", "#cd1234");
      await tmux.tmux("new-session", "-d", "-s", name, "-x", "100", "-y", "30", `${env}${attachCommand()}`);
      await tmux.tmux("set-option", "-t", `=${name}:`, "status", "off");
      await tmux.waitFor(name, /\[main\] tab \d+\/\d+/);
      await waitFor("the terminal's report", async () => ((await version()) === "tmux 3.3a" ? true : undefined), 15_000);
      // tmux answers OSC 12 only for a cursor colour set in it: the cursor follows the foreground.
      const got = await ask();
      expect(got).toBe(answers("rgb:aaaa/bbbb/cccc", "rgb:1111/2222/3333", "rgb:aaaa/bbbb/cccc", DEFAULT_COLOURS.palette[1]!, DEFAULT_COLOURS.palette[200]!));
      // The answers went to the asking pane, not the person's screen nor the other pane.
      expect(await tmux.capture(name)).not.toContain("rgb:");
      await tmux.keys(name, PREFIX, "d");
      await tmux.waitFor(name, "[ws exited 0]");
      expect(await ask()).toBe(DEFAULTS);
    }, 90_000);
  }

  test("a client that reads its terminal itself sends a TERMINAL frame; a bad field is dropped, the rest kept", async () => {
    const c = await RawAttach.open(s.sock, { v: 1, type: "attach", cols: 100, rows: 30 });
    try {
      await c.firstFrame();
      c.write(encodeFrame(FRAME_TERMINAL, JSON.stringify({ fg: "#000000", bg: "rgb:ffff/ffff/ffff", cursor: "\x1b[2J", palette: { 200: "#123456" }, version: "Test(1)" })));
      await waitFor("the report", async () => ((await version()) === "Test(1)" ? true : undefined));
      expect(await ask()).toBe(answers("rgb:0000/0000/0000", "rgb:ffff/ffff/ffff", "rgb:0000/0000/0000", DEFAULT_COLOURS.palette[1]!, "rgb:1212/3434/5656"));
      expect(c.output).not.toContain("rgb:");
    } finally {
      c.close();
    }
  }, 60_000);
});
