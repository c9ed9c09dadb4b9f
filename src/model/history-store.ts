// A pane's history kept as what its text costs: the rows that leave xterm's buffer are joined back
// into the lines the program wrote, each kept as its cells' characters (a string, trailing blanks
// trimmed) and, only where it has any, the runs where its style changes. xterm keeps every row as
// three 32-bit words per column whatever it holds (~3 KB for a 100-column row, tmux ~0.8 KB).
// Lines are wrapped again at the width the rows are asked at, as tmux re-wraps its history on a
// resize. Rows read back are real xterm rows (made when asked for), so everything that reads a
// row reads these exactly as it reads xterm's own.
// Lines are packed CHUNK at a time (history-chunks.ts); rows are made back in history-rows.ts.
// One piece: encoding a row and re-wrapping a line read the same cell layout (and the same line
// numbering, chunks and limit); apart, each would restate it.
// Internal API (xterm-internals.ts): xterm's BufferLine words (content = codepoint | combined flag
// | width << 22, fg, bg with the "has extended attributes" flag), read in the same layout as
// history-rows.ts makes them.
import type { IBufferLine, Terminal } from "@xterm/headless";
import { CHUNK, hasLayout, lineOf, pack, rowsOf, textLength, type Chunk, type Sealed, type Stored } from "./history-chunks";
import { BG_HAS_EXTENDED, CODEPOINT_MASK, EMPTY, HAS_CONTENT, IS_COMBINED, makeRow, WIDTH_SHIFT, type RowSpan } from "./history-rows";
import { rawLineOf, type RawLine } from "./xterm-internals";

/** A string of these UTF-16 code units (in pieces: an argument list has a limit). */
function fromCodes(units: number[]): string {
  if (units.length <= 4096) return String.fromCharCode.apply(null, units);
  let out = "";
  for (let i = 0; i < units.length; i += 4096) out += String.fromCharCode.apply(null, units.slice(i, i + 4096));
  return out;
}

/** Code units of the row being read, twice (reused: this runs for every row that leaves xterm):
 * a byte each, while they fit, makes the string ~15x faster than String.fromCharCode (and as
 * compact: one byte a character). */
let units16 = new Uint16Array(512);
let units8 = Buffer.alloc(512);
let unitCount = 0;
/** Every unit OR-ed together: what decides how the row becomes a string. */
let unitBits = 0;

function pushUnit(u: number): void {
  if (unitCount === units16.length) {
    const w16 = new Uint16Array(unitCount * 2);
    w16.set(units16);
    units16 = w16;
    const w8 = Buffer.alloc(unitCount * 2);
    units8.copy(w8);
    units8 = w8;
  }
  units16[unitCount] = u;
  units8[unitCount++] = u;
  unitBits |= u;
}

/** The units pushed since the last call, as a string. */
function takeUnits(): string {
  const n = unitCount;
  unitCount = 0;
  const bits = unitBits;
  unitBits = 0;
  if (bits < 0x100) return units8.toString("latin1", 0, n);
  let out = "";
  for (let i = 0; i < n; i += 4096) out += String.fromCharCode.apply(null, units16.subarray(i, Math.min(n, i + 4096)) as unknown as number[]);
  return out;
}

const PLAIN_CELL = (1 << 2) | 1;

class OpenLine {
  /** The text: the first row's, then the pieces after it (joined on seal). */
  text = "";
  more: string[] | undefined;
  /** Cells so far. */
  cells = 0;
  /** Per cell, units << 2 | width: only once a cell is not one unit of width 1. */
  layout: number[] | undefined;
  runs: number[] = [];
  /** The width of the row last appended, and its cells beyond the trimmed ones (a continuation
   * row makes them text: a row a line wrapped out of was full). */
  cols = 0;
  pad = 0;
  /** Captured rows in this line. */
  rows = 0;
  /** Whether a unit of its text needs 16 bits. */
  wide = false;
  private fg = 0;
  private bg = 0;
  private ext = 0;
  private url = 0;

  /** seal()'s answer while nothing was added since. */
  private cached: Sealed | undefined;

  /** Empty again, for the next line (one object per store, not one per line). */
  reset(): this {
    this.text = "";
    this.more = undefined;
    this.cells = 0;
    this.layout = undefined;
    if (this.runs.length) this.runs = [];
    this.cols = this.pad = this.rows = 0;
    this.wide = false;
    this.fg = this.bg = this.ext = this.url = 0;
    this.cached = undefined;
    return this;
  }

  private style(k: number, fg: number, bg: number, ext: number, url: number): void {
    if (this.runs.length === 0 && k > 0) this.runs.push(0, 0, 0, 0, 0);
    this.runs.push(k, fg, bg, ext, url);
    this.fg = fg;
    this.bg = bg;
    this.ext = ext;
    this.url = url;
  }

  /** `n` empty cells of the default style. */
  blanks(n: number): void {
    if (n <= 0) return;
    this.cached = undefined;
    if (this.fg || this.bg || this.ext || this.url) this.style(this.cells, 0, 0, 0, 0);
    this.piece(EMPTY.repeat(n));
    if (this.layout) for (let i = 0; i < n; i++) this.layout.push(PLAIN_CELL);
    this.cells += n;
  }

  private piece(t: string): void {
    if (this.text === "" && !this.more) this.text = t;
    else (this.more ??= []).push(t);
  }

  /** Cells [0, end) of `raw`. */
  row(raw: RawLine, end: number): void {
    this.cached = undefined;
    const d = raw._data;
    for (let x = 0; x < end; x++) {
      const content = d[x * 3]!;
      const width = content >>> WIDTH_SHIFT;
      if (width === 0) continue; // a wide character's right half
      const fg = d[x * 3 + 1]!;
      const bg = d[x * 3 + 2]!;
      if (bg & BG_HAS_EXTENDED) {
        const e = raw._extendedAttrs[x];
        const ext = e?._ext ?? 0;
        const url = e?._urlId ?? 0;
        if (fg !== this.fg || bg !== this.bg || ext !== this.ext || url !== this.url) this.style(this.cells, fg, bg, ext, url);
      } else if (fg !== this.fg || bg !== this.bg || this.ext || this.url) this.style(this.cells, fg, bg, 0, 0);
      const before = unitCount;
      const cp = content & CODEPOINT_MASK;
      if (content & IS_COMBINED) {
        const str = raw._combined[x] ?? "";
        for (let j = 0; j < str.length; j++) pushUnit(str.charCodeAt(j));
      } else if (cp < 0x10000) pushUnit(cp);
      else {
        pushUnit(0xd800 + ((cp - 0x10000) >> 10));
        pushUnit(0xdc00 + ((cp - 0x10000) & 0x3ff));
      }
      const units = unitCount - before;
      if ((width !== 1 || units !== 1) && !this.layout) this.layout = new Array<number>(this.cells).fill(PLAIN_CELL);
      this.layout?.push((units << 2) | width);
      this.cells++;
    }
    if (unitBits >= 0x100) this.wide = true;
    this.piece(takeUnits());
  }

  seal(): Sealed {
    if (this.cached && this.cached.cols === this.cols && this.cached.rows === this.rows) return this.cached;
    if (this.more) {
      // (One flat string: a concatenation would keep its pieces.)
      this.text = [this.text, ...this.more].join("");
      this.more = undefined;
    }
    const text = this.text;
    this.cached = {
      text,
      layout: this.layout ? fromCodes(this.layout) : undefined,
      runs: this.runs.length ? Uint32Array.from(this.runs) : undefined,
      cols: this.cols,
      rows: this.rows,
      wide: this.wide,
    };
    return this.cached;
  }
}

/** A place in the store: a line's absolute number and a cell in it. */
export interface HistoryPos {
  line: number;
  cell: number;
}

export interface HistoryOptions {
  /** Rows kept (counted as they were captured); the oldest lines go first. */
  limit: number;
}


export class HistoryStore {
  /** Sealed lines, packed (history-chunks.ts): every chunk but the last holds CHUNK lines. */
  private chunks: Chunk[] = [];
  /** Lines in the chunks (dropped ones included). */
  private packed = 0;
  /** Sealed lines after the chunks', not packed yet (fewer than CHUNK). */
  private pending: Sealed[] = [];
  /** Lines at the start of chunks[0] (or of `pending`, without chunks) that have been dropped. */
  private head = 0;
  private open: OpenLine | undefined;
  private readonly spare = new OpenLine();
  /** Rows held, counted as captured (the limit's unit). */
  private captured = 0;
  /** The absolute number of the oldest line held (every line appended ever gets the next number). */
  private firstAbs = 0;
  /** Row starts at `startsWidth`, for the sealed lines held (rebuilt when stale). */
  private starts: Int32Array | undefined;
  private startsWidth = 0;
  private startsFirst = 0;
  limit: number;

  constructor(o: HistoryOptions) {
    this.limit = Math.max(0, o.limit);
  }

  /** Sealed lines held. */
  private get sealed(): number {
    return this.packed + this.pending.length - this.head;
  }

  /** Logical lines held (the open one included). */
  get lineCount(): number {
    return this.sealed + (this.open ? 1 : 0);
  }

  /** Rows held, as captured. */
  get capturedRows(): number {
    return this.captured;
  }

  /** Take one row leaving xterm's buffer (the oldest): a continuation joins the line before.
   * Returns where the row starts in the store (for marks that were on it). */
  append(line: IBufferLine | RawLine): HistoryPos | undefined {
    const raw = rawLineOf(line);
    if (!raw) return undefined;
    const cols = raw.length;
    const d = raw._data;
    let open = this.open;
    if (raw.isWrapped && open) {
      // The row before was full: its trailing cells are text, unless a wide character that did
      // not fit left its last one empty (wrapped-lines.ts).
      const gap = d[0]! >>> WIDTH_SHIFT === 2 && open.pad === 1;
      open.blanks(gap ? 0 : open.pad);
    } else {
      this.seal();
      open = this.open = this.spare.reset();
    }
    const pos: HistoryPos = { line: this.firstAbs + this.sealed, cell: open.cells };
    // Trailing cells with no text and the default style say nothing.
    let end = cols;
    while (end > 0 && !(d[(end - 1) * 3]! & HAS_CONTENT) && d[(end - 1) * 3 + 1] === 0 && d[(end - 1) * 3 + 2] === 0) end--;
    // A wide character's right half is part of it, not a trailing blank.
    if (end > 0 && end < cols && d[(end - 1) * 3]! >>> WIDTH_SHIFT === 2) end++;
    open.row(raw, end);
    open.pad = cols - end;
    open.cols = cols;
    open.rows++;
    this.captured++;
    this.bound();
    return pos;
  }

  private seal(): void {
    const open = this.open;
    if (!open) return;
    this.pending.push(open.seal());
    this.open = undefined;
    if (this.pending.length >= CHUNK) this.compact();
  }

  /** Pack the sealed lines not packed yet (after a batch of rows: each batch's last lines would
   * otherwise wait, as objects, for the next one). */
  compact(): void {
    if (this.chunks.length === 0 && this.head > 0) {
      this.pending.splice(0, this.head);
      this.head = 0;
    }
    let p = this.pending;
    if (p.length === 0) return;
    this.pending = [];
    const last = this.chunks.length ? this.chunks[this.chunks.length - 1]! : undefined;
    if (last && last.count < CHUNK) {
      const take = Math.min(CHUNK - last.count, p.length);
      this.chunks[this.chunks.length - 1] = pack(last, take === p.length ? p : p.slice(0, take));
      this.packed += take;
      p = p.slice(take);
    }
    for (let i = 0; i < p.length; i += CHUNK) {
      const c = pack(undefined, i === 0 && p.length <= CHUNK ? p : p.slice(i, i + CHUNK));
      this.chunks.push(c);
      this.packed += c.count;
    }
  }

  /** Drop the oldest `n` sealed lines; a chunk goes once all of its lines have. */
  private dropSealed(n: number): void {
    for (let i = 0; i < n; i++) this.captured -= this.rowsAt(i);
    this.head += n;
    this.firstAbs += n;
    this.starts = undefined;
    while (this.chunks.length && this.head >= this.chunks[0]!.count) {
      const c = this.chunks.shift()!;
      this.head -= c.count;
      this.packed -= c.count;
    }
  }

  /** Drop the oldest lines past the limit (never the open one). */
  private bound(): void {
    let n = 0;
    let rows = this.captured;
    const sealed = this.sealed;
    while (rows > this.limit && n < sealed) rows -= this.rowsAt(n++);
    if (n) this.dropSealed(n);
    if (this.captured > this.limit && this.open && this.sealed === 0) {
      // One line longer than the whole limit: it goes too.
      this.captured -= this.open.rows;
      this.open = undefined;
      this.firstAbs++;
    }
  }

  /** After a resize: the oldest lines go until the rows at the new `width` fit the limit (as
   * xterm's reflow drops rows it pushes past its own). */
  fitTo(width: number): void {
    const st = this.rowStarts(width);
    const total = st[st.length - 1]!;
    if (total <= this.limit) return;
    let drop = 0;
    while (drop < this.lineCount && total - st[drop]! > this.limit) drop++;
    const sealed = Math.min(drop, this.sealed);
    this.dropSealed(sealed);
    if (drop > sealed && this.open) {
      this.captured -= this.open.rows;
      this.open = undefined;
      this.firstAbs++;
    }
    this.starts = undefined;
    this.bound();
  }

  /** Set a new limit (history-limit changed): the oldest lines past it go now. */
  setLimit(limit: number): void {
    this.limit = Math.max(0, limit);
    this.bound();
  }

  clear(): void {
    this.firstAbs += this.lineCount;
    this.chunks = [];
    this.pending = [];
    this.packed = 0;
    this.head = 0;
    this.open = undefined;
    this.captured = 0;
    this.starts = undefined;
  }

  /** Sealed line `i` (0: the oldest held) as its chunk and index there, or its pending entry. */
  private place(i: number): { chunk: Chunk; j: number } | Sealed {
    const k = this.head + i;
    if (k < this.packed) return { chunk: this.chunks[Math.floor(k / CHUNK)]!, j: k % CHUNK };
    return this.pending[k - this.packed]!;
  }

  /** Captured rows of sealed line `i`. */
  private rowsAt(i: number): number {
    const p = this.place(i);
    return "chunk" in p ? rowsOf(p.chunk, p.j) : p.rows;
  }

  private stored(i: number): Stored {
    if (i < this.sealed) {
      const p = this.place(i);
      return "chunk" in p ? lineOf(p.chunk, p.j) : p;
    }
    // The open line, read as it stands (sealed on every read: it is rarely long).
    return this.open!.seal();
  }

  /** Rows sealed line `i` takes at `width`. */
  private rowsAtWidth(i: number, width: number): number {
    const p = this.place(i);
    if ("chunk" in p) return hasLayout(p.chunk, p.j) || textLength(p.chunk, p.j) > width ? this.spans(lineOf(p.chunk, p.j), width).length : 1;
    return p.layout || p.text.length > width ? this.spans(p, width).length : 1;
  }

  /** How line `s` wraps at `width`. A line longer than a row wraps its text: as in xterm's
   * reflow, empty cells after its last character (a coloured blank) don't make rows. */
  private spans(s: Stored, width: number): RowSpan[] {
    let n = s.layout ? s.layout.length : s.text.length;
    const out: RowSpan[] = [];
    const cut = (): number => (width === s.cols ? n : contentCells(s));
    if (!s.layout) {
      if (n > width) n = cut();
      if (n <= width) return [{ from: 0, to: s.text.length }];
      for (let from = 0; from < n; from += width) out.push({ from, to: Math.min(n, from + width) });
      return out;
    }
    let from = 0;
    let col = 0;
    let end = n;
    for (let k = 0; k < n; k++) {
      const w = s.layout.charCodeAt(k) & 3;
      if (col + w > width && col > 0) {
        if (out.length === 0) end = cut();
        if (k >= end) break;
        out.push({ from, to: k });
        from = k;
        col = 0;
      }
      col += w;
    }
    out.push({ from, to: Math.min(n, out.length ? end : n) });
    return out;
  }

  /** Rows the history takes at `width`. */
  rowCount(width: number): number {
    const st = this.rowStarts(width);
    return st[st.length - 1]!;
  }

  /** Where each line starts at `width`, the open line's too: the sealed lines' table is kept
   * until a line is sealed or dropped or the width changes; the open line is added on top. */
  private rowStarts(width: number): Int32Array {
    const sealed = this.sealed;
    let st = this.starts;
    if (!st || this.startsWidth !== width || st.length !== sealed + 2 || this.startsFirst !== this.firstAbs) {
      st = new Int32Array(sealed + 2);
      let row = 0;
      for (let i = 0; i < sealed; i++) {
        st[i] = row;
        row += this.rowsAtWidth(i, width);
      }
      st[sealed] = row;
      this.starts = st;
      this.startsWidth = width;
      this.startsFirst = this.firstAbs;
    }
    // The last entry: the end, after the open line's rows.
    let end = st[sealed]!;
    if (this.open) {
      const s = this.open.seal();
      end += s.layout || s.text.length > width ? this.spans(s, width).length : 1;
    }
    st[sealed + 1] = end;
    return this.open ? st : st.subarray(0, sealed + 1);
  }

  /** Row `y` of the history wrapped at `width`, as an xterm row (`term` lends xterm's classes). */
  getLine(term: Terminal, y: number, width: number): IBufferLine | undefined {
    const st = this.rowStarts(width);
    if (y < 0 || y >= st[st.length - 1]!) return undefined;
    let lo = 0;
    let hi = st.length - 2;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (st[mid]! <= y) lo = mid;
      else hi = mid - 1;
    }
    const s = this.stored(lo);
    const r = y - st[lo]!;
    const span = this.spans(s, width)[r]!;
    return makeRow(term, s, span, width, r > 0);
  }

  /** The row (at `width`) and column where `pos` (plus `col` cells) now is; undefined when its
   * line has been dropped. */
  rowOf(pos: HistoryPos, col: number, width: number): { row: number; col: number } | undefined {
    const i = pos.line - this.firstAbs;
    if (i < 0 || i >= this.lineCount) return undefined;
    const st = this.rowStarts(width);
    const cell = pos.cell + col;
    const spans = this.spans(this.stored(i), width);
    let r = 0;
    while (r + 1 < spans.length && spans[r + 1]!.from <= cell) r++;
    return { row: st[i]! + r, col: Math.max(0, cell - spans[r]!.from) };
  }

  /** The newest line's cells past its last captured row's text, when that row was full (the
   * next row, still in xterm's buffer, continues it) — see continuedPad. */
  get openPad(): number {
    return this.open?.pad ?? 0;
  }

  /** Whether the newest line can still be continued by xterm's top row. */
  get hasOpen(): boolean {
    return this.open !== undefined;
  }

  /** Every logical line's text as xterm's rows read joined: the last row of each trimmed of
   * empty cells (spaces are text), an empty cell inside as a space. With `openPad`, the newest
   * line goes on in xterm's buffer: none of it is trimmed and that many blanks end it. */
  lineTexts(openPad?: number): string[] {
    const out: string[] = [];
    const count = this.lineCount;
    for (let i = 0; i < count; i++) {
      let t = this.stored(i).text;
      if (openPad !== undefined && i === count - 1 && this.open) {
        out.push(t.replaceAll(EMPTY, " ") + " ".repeat(openPad));
        continue;
      }
      let n = t.length;
      while (n > 0 && t[n - 1] === EMPTY) n--;
      if (n < t.length) t = t.slice(0, n);
      out.push(t.includes(EMPTY) ? t.replaceAll(EMPTY, " ") : t);
    }
    return out;
  }

  /** Every line as the text the program wrote (wide characters once, empty cells as spaces), for
   * tests and the save. */
  texts(): string[] {
    const out: string[] = [];
    for (let i = 0; i < this.lineCount; i++) out.push(this.stored(i).text.replaceAll(EMPTY, " "));
    return out;
  }
}

/** Cells up to the line's last character (empty cells after it are style only). */
function contentCells(s: Stored): number {
  let units = s.text.length;
  while (units > 0 && s.text[units - 1] === EMPTY) units--;
  if (!s.layout) return units;
  let k = 0;
  for (let u = 0; u < units; k++) u += s.layout.charCodeAt(k) >> 2;
  return k;
}
