// The compact history store (src/model/history-store.ts) fed by the rows taken off the top of
// xterm's buffer (history-capture.ts): what it hands back is what xterm would have kept, cell for cell and style
// for style; at a new width its lines wrap as xterm's reflow wraps them; it keeps no more than its
// limit; and a line costs what its text costs, a fraction of xterm's ~3 KB per 100-column row.
// A pane (its Emulator) with its history in the store reads exactly as one without.
import { expect, test } from "bun:test";
import { heapStats } from "bun:jsc";
import { Terminal, type IBufferCell, type IBufferLine } from "@xterm/headless";
import { HistoryStore } from "../src/model/history-store";
import { takeTopRows, xtermHistoryRows } from "../src/model/history-capture";
import { installXtermSpeedups } from "../src/model/xterm-speedups";
import { Emulator } from "../src/model/emulator";
import { RowCells } from "../src/model/emulator-protocol";
import { HISTORY_MARGIN } from "../src/model/history-view";

/** Terminals whose history past a margin goes to a store after each write: the store and margin. */
const stores = new WeakMap<Terminal, { store: HistoryStore; margin: number }>();

const write = async (t: Terminal, s: string) => {
  await new Promise<void>((r) => t.write(s, r));
  const c = stores.get(t);
  if (c) takeTopRows(t, xtermHistoryRows(t) - c.margin, (row) => c.store.append(row));
};

/** A terminal whose own history is `margin` rows once written to, the rest moved into a store. */
function captured(cols: number, rows: number, margin: number, limit = 1_000_000): { term: Terminal; store: HistoryStore } {
  // (Room for one write's rows: each write's are moved out after it.)
  const term = new Terminal({ cols, rows, scrollback: 50_000, allowProposedApi: true });
  installXtermSpeedups(term);
  const store = new HistoryStore({ limit });
  stores.set(term, { store, margin });
  return { term, store };
}

/** Everything a line can hold: colours, wide and combining characters, an emoji, underline
 * styles and colours, hyperlinks, explicit trailing spaces, gaps, lines that wrap (some early,
 * where a wide character does not fit). */
function sample(lines: number): string {
  let s = "";
  for (let i = 0; i < lines; i++) {
    s += `\x1b[3${i % 8}m${i}\x1b[0m ${"x".repeat(i % 150)} 漢字 e\u0301 \u{1F600} \x1b[4:3m\x1b[58;5;${i % 256}mcurly\x1b[59m\x1b[24m`;
    s += `\x1b]8;;https://example.invalid/${i}\x07link\x1b]8;;\x07\x1b[0m`;
    if (i % 5 === 0) s += "\x1b[44m   \x1b[0m  "; // a coloured blank, then plain trailing spaces
    if (i % 9 === 0) s += "\x1b[3Ca"; // a gap of empty cells
    s += "\r\n";
  }
  return s;
}

/** A row's cells as everything a reader can see of them. */
function cellsOf(line: IBufferLine, cols: number, toText = false): string {
  const out: string[] = [];
  let cell: IBufferCell | undefined;
  // (toText: up to the last character; xterm's reflow leaves stale blanks after it.)
  let end = cols;
  if (toText) while (end > 0 && !line.getCell(end - 1)?.getChars()) end--;
  for (let x = 0; x < end; x++) {
    cell = line.getCell(x, cell);
    if (!cell) break;
    const c = cell as unknown as { fg: number; bg: number; extended?: { _ext: number; _urlId: number } };
    const ext = c.bg & 0x10000000 ? `${c.extended?._ext}/${c.extended?._urlId}` : "";
    out.push(`${JSON.stringify(cell.getChars())}:${cell.getWidth()}:${c.fg}:${c.bg}:${ext}`);
  }
  return `${line.isWrapped ? "W " : ""}${out.join(" ")}`;
}

/** The store's rows at `width` then the terminal's own, as one sequence. */
function rowsOf(term: Terminal, store: HistoryStore, width: number): IBufferLine[] {
  const out: IBufferLine[] = [];
  const n = store.rowCount(width);
  for (let y = 0; y < n; y++) out.push(store.getLine(term, y, width)!);
  const b = term.buffer.normal;
  for (let y = 0; y < b.length; y++) out.push(b.getLine(y)!);
  return out;
}

test("captured history reads back cell for cell, styles and links included, as xterm kept it", async () => {
  const cols = 100;
  const ref = new Terminal({ cols, rows: 8, scrollback: 100_000, allowProposedApi: true });
  const { term, store } = captured(cols, 8, 12);
  const text = sample(400);
  await write(ref, text);
  await write(term, text);
  expect(store.lineCount).toBeGreaterThan(300);
  const want: string[] = [];
  const b = ref.buffer.normal;
  for (let y = 0; y < b.length; y++) want.push(cellsOf(b.getLine(y)!, cols));
  const got = rowsOf(term, store, cols).map((l) => cellsOf(l, cols));
  expect(got.length).toBe(want.length);
  expect(got).toEqual(want);
  // And as text, trimmed or not.
  const wantText = Array.from({ length: b.length }, (_, y) => b.getLine(y)!.translateToString(true));
  expect(rowsOf(term, store, cols).map((l) => l.translateToString(true))).toEqual(wantText);
});

test("lines read back exactly as they went in, whatever batches they came in and whatever the limit dropped", async () => {
  const cols = 80;
  // A mix in every batch: plain lines, Latin-1 ones, wide and combining characters, styles,
  // links, and lines that wrap (some early, at a wide character), so texts of one byte and two
  // bytes a character, lines with and without styles, and runs with and without extended
  // attributes sit side by side (and a chunk of short runs takes long ones).
  const line = (i: number) => {
    switch (i % 5) {
      case 0:
        return `plain ${i}`;
      case 1:
        return `caf\u00e9 \u00f1 ${i} ${"\u00e0".repeat(i % 30)}`;
      case 2:
        // (Links and underline colours only from line 500: chunks before hold plain colours alone.)
        if (i < 500) return `\x1b[3${i % 8};4${(i + 1) % 8}m${i}\x1b[0m 漢字 e\u0301 \u{1F600} \x1b[1;7mbold\x1b[0m`;
        return `\x1b[3${i % 8};4${(i + 1) % 8}m${i}\x1b[0m 漢字 e\u0301 \u{1F600} \x1b]8;;https://example.invalid/${i}\x07link\x1b]8;;\x07 \x1b[4:3m\x1b[58;5;${i % 256}mcurly\x1b[0m`;
      case 3:
        return `${"w".repeat(79)}漢${i}${"\x1b[1m".repeat(i % 2)}${"v".repeat(i % 170)}\x1b[0m`;
      default:
        return "";
    }
  };
  for (const limit of [1_000_000, 700]) {
    const ref = new Terminal({ cols, rows: 6, scrollback: 100_000, allowProposedApi: true });
    const { term, store } = captured(cols, 6, 6, limit);
    let i = 0;
    let batch = 0;
    for (const n of [1, 3, 50, 127, 128, 129, 2, 300, 64, 64, 1, 200]) {
      let s = "";
      for (let k = 0; k < n; k++) s += `${line(i++)}\r\n`;
      await write(ref, s);
      await write(term, s);
      // Packed after some batches (as the server does after each), left pending after others.
      if (batch++ % 3 !== 1) store.compact();
    }
    if (limit < 1_000_000) expect(store.capturedRows).toBeLessThanOrEqual(limit);
    // The store's rows are the reference's rows just above the terminal's own.
    const n = store.rowCount(cols);
    expect(n).toBeGreaterThan(limit < 1_000_000 ? 600 : 1000);
    const b = ref.buffer.normal;
    const offset = b.length - term.buffer.normal.length - n;
    const want = Array.from({ length: n }, (_, y) => cellsOf(b.getLine(offset + y)!, cols));
    const got = Array.from({ length: n }, (_, y) => cellsOf(store.getLine(term, y, cols)!, cols));
    expect(got).toEqual(want);
    const wantText = Array.from({ length: n }, (_, y) => b.getLine(offset + y)!.translateToString(true));
    expect(got.length).toBe(wantText.length);
    expect(Array.from({ length: n }, (_, y) => store.getLine(term, y, cols)!.translateToString(true))).toEqual(wantText);
    ref.dispose();
    term.dispose();
  }
});

test("history lines re-wrap at a new width as xterm's reflow wraps them", async () => {
  const ref = new Terminal({ cols: 100, rows: 6, scrollback: 100_000, allowProposedApi: true });
  const { term, store } = captured(100, 6, 6);
  const text = sample(300);
  await write(ref, text);
  await write(term, text);
  for (const width of [60, 37, 140]) {
    ref.resize(width, 6);
    const b = ref.buffer.normal;
    // The store's rows are the oldest of the reflowed history, row for row (up to its last line,
    // whose rest is still in xterm's buffer).
    let n = store.rowCount(width);
    while (n > 0 && store.getLine(term, n - 1, width)!.isWrapped) n--;
    n--;
    expect(n).toBeGreaterThan(200);
    const want = Array.from({ length: n }, (_, y) => cellsOf(b.getLine(y)!, width, true));
    const got = Array.from({ length: n }, (_, y) => cellsOf(store.getLine(term, y, width)!, width, true));
    expect(got).toEqual(want);
    ref.resize(100, 6);
  }
});

test("the store keeps no more rows than its limit, dropping the oldest lines", async () => {
  const { term, store } = captured(40, 5, 3, 250);
  let s = "";
  for (let i = 0; i < 1000; i++) s += `line ${i}${i % 10 === 0 ? "w".repeat(70) : ""}\r\n`; // some take 2 rows
  await write(term, s);
  expect(store.capturedRows).toBeLessThanOrEqual(250);
  expect(store.capturedRows).toBeGreaterThan(240);
  const texts = store.texts();
  // The newest lines are kept, in order, up to the last one xterm let go.
  const last = Number(/^line (\d+)/.exec(texts[texts.length - 1]!)![1]);
  expect(last).toBeGreaterThan(990);
  const first = Number(/^line (\d+)/.exec(texts[0]!)![1]);
  expect(texts.length).toBe(last - first + 1);
  expect(texts[1]).toBe(`line ${first + 1}${(first + 1) % 10 === 0 ? "w".repeat(70) : ""}`);
  store.setLimit(10);
  expect(store.capturedRows).toBeLessThanOrEqual(10);
  expect(store.texts().at(-1)).toBe(texts.at(-1));
});

/** Heap bytes per history line after `lines` lines of `make(i)` scrolled through a 100-column pane. */
async function bytesPerLine(lines: number, make: (i: number) => string): Promise<number> {
  const { term, store } = captured(100, 5, 5);
  // The heap's objects and what strings and buffers hold outside it (a long string's characters).
  // Collected twice first: what earlier tests let go must not be freed in the middle of this one.
  const used = () => {
    const h = heapStats();
    return h.heapSize + h.extraMemorySize;
  };
  Bun.gc(true);
  Bun.gc(true);
  const before = used();
  let s = "";
  for (let i = 0; i < lines; i++) {
    s += `${make(i)}\r\n`;
    if (s.length > 64 * 1024) {
      await write(term, s);
      s = "";
    }
  }
  await write(term, s);
  Bun.gc(true);
  const per = (used() - before) / store.lineCount;
  if (process.env.WS_TEST_VERBOSE) console.log(`bytes per line: ${per.toFixed(0)}`);
  expect(store.lineCount).toBeGreaterThan(lines - 20);
  term.dispose();
  return per;
}

test("a history line costs what its text costs: well under tmux's ~0.8 KB for 100 characters", async () => {
  const full = await bytesPerLine(20_000, (i) => `${String(i).padStart(6, "0")} ${"y".repeat(93)}`);
  const styled = await bytesPerLine(20_000, (i) => `\x1b[32m${String(i).padStart(6, "0")}\x1b[0m ${"y".repeat(50)} \x1b[1;34m${"z".repeat(42)}\x1b[0m`);
  const short = await bytesPerLine(20_000, (i) => `${i}`);
  // Measured ~300, ~305 and ~17 bytes with lines packed a chunk at a time (~310, ~400 and ~30 as
  // an object each); xterm's own rows: ~3 KB each. (This count takes a one-byte character as
  // two: the process's RSS grows by ~165 bytes a full line, bench/history-mem.ts.)
  expect(full).toBeLessThan(380);
  expect(styled).toBeLessThan(400);
  expect(short).toBeLessThan(60);
  expect(short).toBeLessThan(full);
}, 30_000);

/** Output parsed into an Emulator (worker-less), in the pieces the worker uses. */
async function feed(e: Emulator, s: string): Promise<void> {
  const b = new TextEncoder().encode(s);
  for (let i = 0; i < b.length; i += 4096) await e.parse(b.subarray(i, i + 4096));
  await e.flushed();
}

/** Everything that reads a pane's rows, as one comparable record. */
function reads(e: Emulator, mark: number): unknown {
  const last = e.baseY + e.rows;
  return {
    baseY: e.baseY,
    read: (["visible", "recent", "recent-unwrapped"] as const).flatMap((source) => [e.readPane({ source }), e.readPane({ source, styled: true }), e.readPane({ source, start: 3, end: 40 })]),
    save: e.captureText(true),
    lines: e.lines(0, last),
    cells: e.cellRows(0, last),
    find: [e.find("599 x", { line: 0, x: 0 }, true), e.find("12 x", { line: e.baseY, x: 0 }, false), e.find("WRAPEND", { line: 0, x: 0 }, true)],
    since: e.sourceRowsSince("recent-unwrapped", mark),
    copyView: Array.from({ length: 4 }, (_, k) => {
      const cells = new RowCells(e.cols, 0, e.rows);
      e.render(cells, 0, 0, e.cols, e.rows, 200 * k + 7);
      return Array.from(cells.chars).join("");
    }),
  };
}

test("a pane reads the same with its history in the store as all in xterm: reads, save, search, waits, copy mode, after resizes", async () => {
  let s = "";
  for (let i = 0; i < 600; i++) {
    s += `\x1b[3${i % 8}m${i}\x1b[0m ${"x".repeat(i % 150)} 漢字 e\u0301 \u{1F600} \x1b[4:3mcurly\x1b[24m`;
    if (i % 9 === 0) s += "\x1b[3Ca";
    if (i === 300) s += `WRAPSTART${"0".repeat(300)}WRAPEND`;
    s += "\r\n";
  }
  const compact = new Emulator({ cols: 100, rows: 10, scrollback: 5000, compactHistory: true });
  const plain = new Emulator({ cols: 100, rows: 10, scrollback: 5000, compactHistory: false });
  await feed(compact, s);
  await feed(plain, s);
  // A wait's mark, whose row then scrolls from xterm's buffer into the store.
  const marks = [compact.markCursor(), plain.markCursor()] as const;
  await feed(compact, s.slice(0, 30_000));
  await feed(plain, s.slice(0, 30_000));
  expect(compact.baseY).toBeGreaterThan(HISTORY_MARGIN * 5);
  expect(reads(compact, marks[0])).toEqual(reads(plain, marks[1]));
  // (Read from the store: xterm keeps the margin.)
  expect(compact.term.buffer.normal.length).toBe(compact.rows + HISTORY_MARGIN);
  for (const [cols, rows] of [
    [60, 10],
    [130, 14],
    [100, 10],
  ] as const) {
    compact.resize(cols, rows);
    plain.resize(cols, rows);
    expect(reads(compact, marks[0])).toEqual(reads(plain, marks[1]));
  }
  compact.dispose();
  plain.dispose();
});

test("a command's output longer than xterm's own history comes back whole from the store", async () => {
  let out = "";
  for (let i = 0; i < 500; i++) out += `out ${i}\r\n`;
  const outputs: { text: string; truncated: boolean }[] = [];
  for (const compactHistory of [true, false]) {
    const e = new Emulator({ cols: 80, rows: 10, scrollback: 2000, compactHistory });
    e.shell.onFinished = (f) => outputs.push(f.output());
    await feed(e, `\x1b]133;A\x07$ \x1b]133;B\x07seq\r\n\x1b]133;C\x07${out}\x1b]133;D;0\x07\x1b]133;A\x07$ `);
    expect(e.baseY).toBeGreaterThan(HISTORY_MARGIN * 3);
    e.dispose();
  }
  expect(outputs[0]).toEqual({ text: `${out.replaceAll("\r\n", "\n")}`, truncated: false });
  expect(outputs[0]).toEqual(outputs[1]!);
});

test("ED 3 erases the store's history too; a reset (RIS) drops it as xterm drops its own", async () => {
  const e = new Emulator({ cols: 40, rows: 5, scrollback: 2000, compactHistory: true });
  let s = "";
  for (let i = 0; i < 400; i++) s += `old ${i}\r\n`;
  await feed(e, s);
  expect(e.readPane({ source: "recent" }).text).toContain("old 0\n");
  await feed(e, "\x1b[3J");
  expect(e.baseY).toBe(0);
  expect(e.readPane({ source: "recent" }).text).not.toContain("old 1\n");
  await feed(e, s);
  expect(e.readPane({ source: "recent" }).text).toContain("old 0\n");
  await feed(e, "\x1bcfresh\r\n");
  expect(e.readPane({ source: "recent" }).text).toBe("fresh");
  e.dispose();
});

test("a pane's history moves to the store on its own once its output pauses, a flood's only then", async () => {
  const e = new Emulator({ cols: 80, rows: 10, scrollback: 2000, compactHistory: true });
  let s = "";
  for (let i = 0; i < 3000; i++) s += `flood ${i}\r\n`;
  const b = new TextEncoder().encode(s);
  // Parsed in one go: the rows wait in xterm (as without a store) until the output pauses.
  e.parse(b);
  expect(e.term.buffer.normal.length).toBe(10 + 2000);
  const deadline = Date.now() + 5000;
  // Polled until the deadline, not slept: the move runs on the emulator's own quiet timer, and no event says it ran.
  while (e.term.buffer.normal.length > 10 + HISTORY_MARGIN && Date.now() < deadline) await Bun.sleep(10);
  expect(e.term.buffer.normal.length).toBe(10 + HISTORY_MARGIN);
  // The history limit holds across both: the newest 2,000 rows, the oldest gone.
  const text = e.readPane({ source: "recent" }).text.split("\n");
  expect(text[0]).toBe("flood 991");
  expect(text.at(-1)).toBe("flood 2999");
  e.dispose();
});

test("the memory of rows that left xterm for the store is given back, though the panes then print nothing", async () => {
  Bun.gc(true);
  // Measured one way throughout: the heap and what strings hold outside it.
  const used = () => {
    const h = heapStats();
    return h.heapSize + h.extraMemorySize;
  };
  const before = used();
  let s = "";
  for (let i = 0; i < 2000; i++) s += `line ${String(i).padStart(7, "0")} ${"q".repeat(87)}\r\n`;
  const b = new TextEncoder().encode(s);
  // 24 panes × 1,900 rows of 120 columns: ~65 MB of xterm rows, past COLLECT_AFTER_BYTES.
  const panes = Array.from({ length: 24 }, () => new Emulator({ cols: 120, rows: 40, scrollback: 2000, compactHistory: true }));
  // The most held at any point: on a loaded machine the parse takes seconds, and a flood's rows
  // move to the store (and may be collected) 2 s into it, before the last pane has parsed.
  let held = 0;
  for (const e of panes) {
    for (let i = 0; i < b.length; i += 4096) e.parse(b.subarray(i, i + 4096));
    held = Math.max(held, used() - before);
  }
  expect(held).toBeGreaterThan(40e6);
  // Idle from here: only the store's lines stay (~0.3 KB each: ~14 MB). (Left to itself, the
  // collector took 13 s to run here, with this loop's allocations for it to notice.)
  const deadline = Date.now() + 6000;
  // Polled until the deadline, not slept: the collection runs on its own timer, and nothing says when it ran.
  while (used() - before > 25e6 && Date.now() < deadline) await Bun.sleep(250);
  expect(used() - before).toBeLessThan(25e6);
  expect(panes[0]!.term.buffer.normal.length).toBe(40 + HISTORY_MARGIN);
  for (const e of panes) e.dispose();
}, 30_000);
