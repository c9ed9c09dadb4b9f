// A pane's emulator that puts its xterm away (src/model/resting-emulator.ts) against a plain
// Emulator fed the same bytes: after each rest, everything a reader can get (every source's text,
// styled; the cells drawn; the rows by cell; a search; the cursor; the modes: mouse tracking and
// encoding, bracketed paste, application keys, cursor shape and visibility; the alternate screen;
// the shell's marks and a command's output) is the same, and the emulator was really put away.
import { expect, test } from "bun:test";
import { Emulator } from "../src/model/emulator";
import type { PaneEmulator } from "../src/model/pane-emulator";
import { emulatorCount, RestingEmulator } from "../src/model/resting-emulator";
import { waitFor } from "./harness";

/** A short rest, so each step's rest comes quickly. */
const REST = 40;
const enc = new TextEncoder();

function everything(s: PaneEmulator): string {
  const cells: unknown[][] = [];
  s.render({ set: (...a) => void cells.push(a) }, 0, 0, s.cols, s.rows);
  return JSON.stringify({
    reads: (["visible", "recent", "recent-unwrapped"] as const).map((source) => s.readPane({ source, styled: true })),
    rows: s.cellRows(0, s.baseY + s.rows),
    cells,
    find: s.find("red", { x: 0, line: 0 }, true),
    cursor: [s.cursorX, s.cursorY, s.baseY, s.normalCursorX, s.alt],
    modes: s.modes,
    shell: [s.shell.seen, s.shell.state, s.shell.prompts, s.shell.command, s.shell.promptReadiness(false)],
  });
}

test("an emulator put away and made again is the one that never was, step after step", async () => {
  const o = { cols: 60, rows: 12, scrollback: 1000 };
  // Counted over the process: other files' emulators may share it (one worker runs them all).
  const before = { ...emulatorCount };
  const resting = new RestingEmulator(o, REST);
  const plain = new Emulator(o);
  const outputs: string[][] = [[], []];
  resting.shell.onFinished = (d) => outputs[0]!.push(d.output().text);
  plain.shell.onFinished = (d) => outputs[1]!.push(d.output().text);
  const both = (f: (e: PaneEmulator) => void) => () => {
    f(resting);
    f(plain);
  };
  const steps: [string, string | (() => void)][] = [
    ["history", Array.from({ length: 150 }, (_, i) => `line ${i} \x1b[31mred\x1b[0m \x1b[4:3m\x1b[58;5;9mcurly\x1b[0m \x1b]8;;https://example.invalid/${i}\x07link\x1b]8;;\x07 漢字 e\u0301 ${"x".repeat(i % 70)}\r\n`).join("")],
    ["a prompt", "\x1b]133;A\x07$ \x1b]133;B\x07"],
    ["a command", "echo hi\r\n\x1b]133;C\x07hi\r\n\x1b]133;D;0\x07\x1b]133;A\x07$ \x1b]133;B\x07"],
    ["modes", "\x1b[?1000h\x1b[?1006h\x1b[?2004h\x1b[?1h\x1b=\x1b[3;9r\x1b[?6h\x1b[5;5H\x1b(0lqk\x1b[4 q\x1b]0;title\x07\x1b[?25l\x1b[1;4:3;38:2::1:2:3mpen"],
    ["output after modes", "abc\r\n\x1b[44mdef\x1b[K\r\n"],
    ["the alternate screen", "\x1b[?1049h\x1b[H\x1b[2Jvim screen\x1b[7;3Hhere\x1b7\x1b[1;1H\x1b[>1u"],
    ["output on it", "more\x1b8X"],
    // (xterm leaves the alternate screen's rows wider than the screen when it narrows.)
    ["narrower on it", both((e) => e.resize(40, 12))],
    ["wider again", both((e) => e.resize(60, 12))],
    ["back", "\x1b[?1049l\x1b[?6l\x1b[r\x1b(Bback\x1b[?25h\x1b[0m\r\n"],
  ];
  for (const [what, bytes] of steps) {
    if (typeof bytes === "function") bytes();
    else {
      resting.parse!(enc.encode(bytes));
      plain.parse(enc.encode(bytes));
    }
    // Nothing says when it rests (its own timer): waited for, then the assertion names the step.
    await waitFor(`the emulator to rest after ${what}`, () => resting.resting, 5000, 10).catch(() => undefined);
    expect([what, resting.resting]).toEqual([what, true]);
    expect(emulatorCount.resting).toBe(before.resting + 1);
    expect([what, everything(resting)]).toEqual([what, everything(plain)]);
  }
  expect(outputs[0]!.map((t) => t.trim())).toEqual(["hi"]);
  expect(outputs[0]).toEqual(outputs[1]);
  resting.resize(40, 10);
  plain.resize(40, 10);
  expect(everything(resting)).toEqual(everything(plain));
  // A wait's mark keeps the emulator: it is not put away while one is held.
  const mark = resting.markCursor();
  // Its rest delay has passed once an emulator fed after it, with no mark, has rested.
  const control = new RestingEmulator(o, REST);
  control.parse!(enc.encode("x"));
  await waitFor("an emulator with no mark to rest", () => control.resting, 5000, 10);
  control.dispose();
  expect(resting.resting).toBe(false);
  resting.unmark(mark);
  resting.dispose();
  plain.dispose();
  expect(emulatorCount).toEqual(before);
});
