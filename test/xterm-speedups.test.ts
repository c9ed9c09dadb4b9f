// The faster BufferLine.copyFrom (src/model/xterm-speedups.ts) is installed on this xterm, and a
// history full of everything a line can hold (wide and combining characters, colours, underline
// styles and colours, hyperlinks, wrapped lines) reads back the same with it as with xterm's own.
import { afterAll, expect, test } from "bun:test";
import { Terminal } from "@xterm/headless";
import { installScrollShortcut, installXtermSpeedups, uninstallXtermSpeedups, xtermSpeedupsInstalled } from "../src/model/xterm-speedups";

afterAll(() => {
  installXtermSpeedups(new Terminal({ cols: 10, rows: 2, allowProposedApi: true }));
});

/** Output that scrolls a small history over many times, with every kind of cell content. */
function sample(): string {
  let s = "";
  for (let i = 0; i < 400; i++) {
    s += `\x1b[3${i % 8}m${i} e\u0301 \u{1F600} 漢字 \x1b[4:3m\x1b[58;5;${i % 256}mcurly\x1b[59m\x1b[24m`;
    s += `\x1b]8;;https://example.invalid/${i}\x07link\x1b]8;;\x07\x1b[0m`;
    if (i % 7 === 0) s += "x".repeat(45); // wraps
    s += "\r\n";
  }
  return s;
}

async function history(): Promise<string[]> {
  const term = new Terminal({ cols: 40, rows: 10, scrollback: 50, allowProposedApi: true });
  await new Promise<void>((r) => term.write(sample(), r));
  const b = term.buffer.active;
  const out: string[] = [];
  const cell = b.getNullCell();
  for (let y = 0; y < b.length; y++) {
    const line = b.getLine(y)!;
    let attrs = "";
    for (let x = 0; x < term.cols; x++) {
      line.getCell(x, cell);
      attrs += `${cell.getChars()}|${cell.getWidth()}|${cell.getFgColor()}|${cell.isUnderline()}|${(cell as unknown as { extended?: { underlineStyle?: number; underlineColor?: number; urlId?: number } }).extended?.underlineStyle ?? ""}|${(cell as unknown as { extended?: { underlineColor?: number } }).extended?.underlineColor ?? ""};`;
    }
    out.push(`${line.isWrapped}:${line.translateToString(false)}:${attrs}`);
  }
  term.dispose();
  return out;
}

test("installed on this xterm", () => {
  uninstallXtermSpeedups();
  expect(installXtermSpeedups(new Terminal({ cols: 10, rows: 2, allowProposedApi: true }))).toBe(true);
  expect(xtermSpeedupsInstalled()).toBe(true);
});

test("a scrolled-over history reads the same as with xterm's own copyFrom", async () => {
  uninstallXtermSpeedups();
  const theirs = await history();
  installXtermSpeedups(new Terminal({ cols: 10, rows: 2, allowProposedApi: true }));
  const ours = await history();
  expect(ours.length).toBe(60); // scrollback 50 + 10 rows: the history is full and recycling
  expect(ours).toEqual(theirs);
  expect(ours.some((l) => l.includes("漢字"))).toBe(true);
});

/** Everything a scroll leaves behind: the screen and history, where the view is, and the rows
 * each write reported for repainting (what ws reads again). */
async function scrolled(shortcut: boolean, region: boolean): Promise<{ rows: string[]; ydisp: number; refreshed: string[]; installed: boolean }> {
  const term = new Terminal({ cols: 20, rows: 6, scrollback: 30, allowProposedApi: true });
  const installed = shortcut && installScrollShortcut(term);
  const core = (term as unknown as { _core: { _inputHandler: { onRequestRefreshRows(f: (e?: { start: number; end: number }) => void): void } } })._core;
  const refreshed: string[] = [];
  core._inputHandler.onRequestRefreshRows((e) => refreshed.push(e ? `${e.start}-${e.end}` : "all"));
  const writes = [region ? "\x1b[2;5r\x1b[5;1H" : "", ...Array.from({ length: 60 }, (_, i) => `line ${i}\r\n`), "\x1b[r", "tail"];
  for (const w of writes) await new Promise<void>((r) => term.write(w, r));
  const b = term.buffer.active;
  const rows: string[] = [];
  for (let y = 0; y < b.length; y++) rows.push(b.getLine(y)!.translateToString(true));
  const out = { rows, ydisp: b.viewportY, refreshed, installed };
  term.dispose();
  return out;
}

test("the scroll shortcut is installed on this xterm", () => {
  expect(installScrollShortcut(new Terminal({ cols: 10, rows: 2, allowProposedApi: true }))).toBe(true);
});

test("with the scroll shortcut, scrolling leaves the same screen, history and repaint ranges", async () => {
  for (const region of [false, true]) {
    const theirs = await scrolled(false, region);
    const ours = await scrolled(true, region);
    expect(ours.installed).toBe(true);
    expect(ours).toEqual({ ...theirs, installed: true });
    expect(ours.rows.some((r) => r === "line 59")).toBe(true);
    // Scrolling marked rows to repaint: something beyond the cursor's own row each write.
    expect(new Set(ours.refreshed).size).toBeGreaterThan(1);
  }
});

test("a listener on the terminal's onScroll still hears every scroll with the shortcut", async () => {
  const term = new Terminal({ cols: 20, rows: 4, scrollback: 10, allowProposedApi: true });
  expect(installScrollShortcut(term)).toBe(true);
  const heard: number[] = [];
  term.onScroll((y) => heard.push(y));
  await new Promise<void>((r) => term.write(Array.from({ length: 8 }, (_, i) => `${i}\r\n`).join(""), r));
  // 8 lines on a 4-row screen: the first 3 fill it, the other 5 each scroll it by one.
  expect(heard).toEqual([1, 2, 3, 4, 5]);
  term.dispose();
});
