// What ws asks of the user's terminal, and focus reports to panes:
// `ws attach` in a real PTY that answers no query turns modifyOtherKeys on and undoes it on detach
// (test/keys-query.integration.test.ts has the terminals that answer); the
// frames follow the focused pane's any-motion mouse (?1003) and application keypad, so hover
// reaches a pane that asked; focus in/out reach panes as the focus moves between them. Programs
// in panes are raw readers (test/fixtures/key-reader.ts) that record exactly what they got.
import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { useServer, waitFor, wsArgv } from "./harness";
import { RawAttach } from "./raw-attach";

const s = useServer();

const READER = join(import.meta.dir, "fixtures", "key-reader.ts");
const hex = (bytes: string) => [...Buffer.from(bytes, "latin1")].map((b) => b.toString(16).padStart(2, "0") + " ").join("");
let readers = 0;
const logFile = () => join(s.root, `modes-${++readers}.log`);
const got = (log: string) => readFileSync(log, "latin1");

/** A new tab running the reader with `setup`. */
async function readerTab(setup: string) {
  const log = logFile();
  const pane = Number((await s.ok(["tab", "new", "--cwd", s.root, "--", process.execPath, READER, log, setup])).trim());
  await s.waitScreen(pane, "READY");
  return { pane, log };
}

const focus = async (pane: number) => expect((await s.request({ v: 5, type: "pane_focus", pane })).type).toBe("ok");
const attachLine = { v: 6, type: "attach", cols: 100, rows: 30 };

describe("the user's terminal", () => {
  test("ws attach turns modifyOtherKeys 2 on in a terminal that answers no query, and undoes it on detach", async () => {
    let screen = "";
    const dec = new TextDecoder();
    const proc = Bun.spawn([...wsArgv(), "attach"], {
      env: s.env,
      terminal: { cols: 100, rows: 30, data: (_t, d) => void (screen += dec.decode(d, { stream: true })) },
    });
    try {
      await waitFor("the status line", () => screen.includes("[main]"));
      const enter = screen.indexOf("\x1b[?1049h");
      expect(enter).toBeGreaterThanOrEqual(0);
      // Asked after the alternate screen is entered; no answer, so modifyOtherKeys, not kitty.
      expect(screen.indexOf("\x1b[?u\x1b[c")).toBeGreaterThan(enter);
      await waitFor("modifyOtherKeys", () => screen.includes("\x1b[>4;2m"));
      expect(screen).not.toContain("\x1b[>1u");
      proc.terminal!.write("\x00d"); // C-Space d: detach
      expect(await proc.exited).toBe(0);
      const leave = screen.lastIndexOf("\x1b[?1049l");
      expect(leave).toBeGreaterThan(enter);
      const tail = screen.slice(screen.lastIndexOf("\x1b[?1004l") - 40, leave);
      expect(tail).not.toContain("\x1b[<u"); // nothing pushed, nothing popped
      expect(tail).toContain("\x1b[>4m");
      expect(tail).toContain("\x1b[?1003l");
      expect(tail).toContain("\x1b>");
    } finally {
      proc.kill();
    }
  }, 30_000);

  test("any-motion mouse and the application keypad follow the focused pane; hover reaches a pane that asked for ?1003", async () => {
    const hover = await readerTab("\x1b[?1003h\x1b[?1006h\x1b=");
    const plain = await readerTab("");
    await focus(plain.pane);
    const c = await RawAttach.open(s.sock, attachLine);
    try {
      await c.firstFrame();
      await waitFor("a frame of the plain reader", () => c.output.includes("READY"));
      expect(c.output).not.toContain("\x1b[?1003h");
      const mark = c.output.length;
      await focus(hover.pane);
      await waitFor("?1003 on the user's terminal", () => c.output.slice(mark).includes("\x1b[?1003h"));
      expect(c.output.slice(mark)).toContain("\x1b=");
      // Motion with no button, over the pane: the program gets an SGR any-motion report.
      c.send({ Mouse: { kind: "Moved", column: 10, row: 8, modifiers: "" } });
      await waitFor("the hover report", () => /1b 5b 3c 33 35 3b [0-9a-f ]+4d $/.test(got(hover.log)));
      const mark2 = c.output.length;
      await focus(plain.pane);
      await waitFor("?1003 off again", () => c.output.slice(mark2).includes("\x1b[?1003l"));
      expect(c.output.slice(mark2)).toContain("\x1b>");
      // The plain pane, which did not ask, gets no motion.
      const before = got(plain.log);
      c.send({ Mouse: { kind: "Moved", column: 11, row: 8, modifiers: "" } });
      c.send({ Key: { code: { Char: "z" }, modifiers: "", kind: "Press", state: "" } });
      await waitFor("the key after the motion", () => got(plain.log).length > before.length);
      expect(got(plain.log).slice(before.length)).toBe(hex("z"));
    } finally {
      c.close();
    }
  }, 30_000);

  test("focus in/out reach panes that asked for ?1004 as the focus moves between them, and as the terminal's focus changes", async () => {
    const a = await readerTab("\x1b[?1004h");
    const logB = logFile();
    const b = (await s.request({ v: 1, type: "split", pane: a.pane, right: true, cwd: s.root, command: [process.execPath, READER, logB, "\x1b[?1004h"], focus: false })).pane as number;
    await s.waitScreen(b, "READY");
    await focus(a.pane);
    const c = await RawAttach.open(s.sock, attachLine);
    try {
      const IN = hex("\x1b[I"), OUT = hex("\x1b[O");
      // On attach the focused pane is told it has focus.
      await waitFor("focus-in for a", () => got(a.log) === IN);
      await focus(b);
      await waitFor("a told it lost focus, b that it has it", () => got(a.log) === IN + OUT && got(logB) === IN);
      c.send("FocusLost");
      await waitFor("b told the terminal lost focus", () => got(logB) === IN + OUT);
      // While the terminal has no focus, moving between panes tells nobody anything...
      await focus(a.pane);
      c.send("FocusGained");
      // ...and when it comes back, the pane focused now hears it.
      await waitFor("a told it has focus again", () => got(a.log) === IN + OUT + IN);
      // A key after it all: nothing else came before it.
      c.send({ Key: { code: { Char: "z" }, modifiers: "", kind: "Press", state: "" } });
      await waitFor("the key", () => got(a.log).endsWith(hex("z")));
      expect(got(a.log)).toBe(IN + OUT + IN + hex("z"));
      expect(got(logB)).toBe(IN + OUT);
    } finally {
      c.close();
    }
  }, 30_000);

  test("a focused pane that turns focus reports on is told nothing until the focus changes (as tmux: Emacs keeps its start-up message)", async () => {
    const shell = Number((await s.ok(["tab", "new", "--cwd", s.root, "--", "bash", "--norc", "--noprofile"])).trim());
    await focus(shell);
    const c = await RawAttach.open(s.sock, attachLine);
    try {
      await c.firstFrame();
      await s.waitScreen(shell, "$ ");
      const log = logFile();
      // The program asks for ?1004 once it runs, in the pane that already has the focus.
      await s.ok(["pane", "send", String(shell), "--enter", "--", `exec ${process.execPath} ${READER} ${log} "$(printf '\\033[?1004h')"`]);
      await s.waitScreen(shell, "READY");
      // A frame drawn after the program turned the reports on: the focus pass has seen the mode.
      await waitFor("a frame with READY", () => c.output.includes("READY"));
      c.send({ Key: { code: { Char: "z" }, modifiers: "", kind: "Press", state: "" } });
      await waitFor("the key", () => existsSync(log) && got(log).endsWith(hex("z")));
      expect(got(log)).toBe(hex("z")); // no focus-in before it
      c.send("FocusLost");
      await waitFor("focus-out once the terminal's focus changes", () => got(log) === hex("z\x1b[O"));
    } finally {
      c.close();
    }
  }, 30_000);
});
