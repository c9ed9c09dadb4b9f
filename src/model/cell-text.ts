// A pane's rows as cells with the text in each, for what works in cells and copies text: copy
// mode's cursor, selection, words and search, and the mouse's selection. Wide characters take two
// cells, combining marks and format characters share a cell, so a column is not an index into a
// row's text; everything here goes from cells to text and back through the cells themselves.
// Wrapped rows join into the program's lines with the one joiner (wrapped-lines.ts).
import type { IBufferCell, Terminal } from "@xterm/headless";
import { bufferLineGap, joinWrapped, readBufferLine, type JoinedLines } from "./wrapped-lines";
import { activeRows } from "./history-view";

/** One buffer row. */
export interface CellRow {
  /** Each column's text: a character with its combining marks; "" for an empty cell and for the
   * right half of a wide character. */
  cells: string[];
  /** Each column's width: 2 for a wide character, 0 for its right half, else 1. */
  widths: number[];
  /** The row continues the one above (the program's line wrapped here). */
  isWrapped: boolean;
}

/** A position in the buffer: a line (0 the oldest kept) and a column. */
export interface CellPos {
  line: number;
  x: number;
}

/** A match: its first and last cells. */
export interface CellMatch {
  start: CellPos;
  end: CellPos;
}

let scratch: IBufferCell | undefined;

/** Rows [from, to) of the active buffer, one entry each (an empty row where there is none). */
export function readCellRows(term: Terminal, from: number, to: number): CellRow[] {
  const buf = activeRows(term);
  const cell = (scratch ??= buf.getNullCell());
  const out: CellRow[] = [];
  for (let y = from; y < to; y++) {
    const line = y >= 0 && y < buf.length ? buf.getLine(y) : undefined;
    const row: CellRow = { cells: [], widths: [], isWrapped: line?.isWrapped ?? false };
    if (line)
      for (let x = 0; x < term.cols && line.getCell(x, cell); x++) {
        row.cells.push(cell.getChars());
        row.widths.push(cell.getWidth());
      }
    out.push(row);
  }
  return out;
}

const isEmpty = (r: CellRow, x: number) => r.cells[x] === "" && r.widths[x] !== 0;

/** The early-wrap gap (wrapped-lines.ts) in a CellRow. */
export function cellRowGap(row: CellRow, next: CellRow): boolean {
  const n = row.cells.length;
  return n > 0 && isEmpty(row, n - 1) && next.widths[0] === 2;
}

/** The column of the character drawn at `x` (the left half when `x` is a wide one's right half). */
export function charStart(row: CellRow | undefined, x: number): number {
  return x > 0 && row?.widths[x] === 0 ? x - 1 : x;
}

/** The last column holding text (a wide character's left half), or 0 for an empty row. */
export function lastTextCell(row: CellRow | undefined): number {
  if (!row) return 0;
  let x = row.cells.length - 1;
  while (x > 0 && isEmpty(row, x)) x--;
  return Math.max(0, charStart(row, x));
}

/**
 * Columns [from, to] of `row` as text: a wide character whole when either half is in, empty cells
 * as spaces, trailing empty ones dropped with `trim`.
 */
export function rowSlice(row: CellRow, from: number, to: number, trim: boolean): string {
  const a = charStart(row, Math.max(0, from));
  let b = Math.min(row.cells.length - 1, to);
  if (trim) while (b >= a && isEmpty(row, b)) b--;
  let out = "";
  for (let x = a; x <= b; x++) if (row.widths[x] !== 0) out += row.cells[x] || " ";
  return out;
}

/**
 * The text from `a` to `b` (both cells included) of `rows` (which start at buffer line `first`):
 * rows a line wrapped over are joined, other lines end with a newline and lose trailing blanks.
 */
export function selectedText(rows: CellRow[], first: number, a: CellPos, b: CellPos): string {
  const lines: JoinedLines = { texts: [], rows: [] };
  const last = b.line - first;
  const read = (row: CellRow, trim: boolean, gap: boolean, i: number) =>
    rowSlice(row, i === a.line - first ? a.x : 0, i === last ? b.x : row.cells.length - (gap ? 2 : 1), trim || i === last);
  joinWrapped({ length: last + 1, get: (i) => rows[i] }, a.line - first, last + 1, read, lines, cellRowGap);
  return lines.texts.join("\n");
}

/** One logical line's text, with the cell each UTF-16 unit of it came from. */
interface MappedText {
  text: string;
  lines: number[];
  xs: number[];
}

/** `rows` (starting at buffer line `first`) as logical lines, lower-cased, each unit mapped to its cell. */
function mappedLines(rows: CellRow[], first: number): MappedText[] {
  const out: MappedText[] = [];
  let cur: MappedText | undefined;
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i]!;
    const next = rows[i + 1];
    const continues = next?.isWrapped === true;
    if (!cur || !row.isWrapped) out.push((cur = { text: "", lines: [], xs: [] }));
    let end = row.cells.length - 1;
    if (continues && cellRowGap(row, next)) end--;
    if (!continues) while (end >= 0 && isEmpty(row, end)) end--;
    for (let x = 0; x <= end; x++) {
      if (row.widths[x] === 0) continue;
      const s = (row.cells[x] || " ").toLowerCase();
      cur.text += s;
      for (let k = 0; k < s.length; k++) {
        cur.lines.push(first + i);
        cur.xs.push(x);
      }
    }
  }
  return out;
}

/** Where `query` (case-insensitive) is in `rows` (starting at buffer line `first`), in order; at most `max`. */
export function findInRows(rows: CellRow[], first: number, query: string, max = 1000): CellMatch[] {
  const q = query.toLowerCase();
  const out: CellMatch[] = [];
  if (!q) return out;
  for (const m of mappedLines(rows, first))
    for (let at = m.text.indexOf(q); at >= 0 && out.length < max; at = m.text.indexOf(q, at + q.length)) {
      const e = at + q.length - 1;
      out.push({ start: { line: m.lines[at]!, x: m.xs[at]! }, end: { line: m.lines[e]!, x: m.xs[e]! } });
    }
  return out;
}

const before = (p: CellPos, q: CellPos) => p.line < q.line || (p.line === q.line && p.x < q.x);

/**
 * The nearest match of `query` (case-insensitive) after `from` (forward) or before it, in the
 * program's lines (wrapped rows joined, so a match may cross a wrap), or undefined.
 */
export function findFrom(term: Terminal, query: string, from: CellPos, forward: boolean): CellMatch | undefined {
  // Past the last match the search goes on from the other end, as vi's and tmux's do.
  const last = activeRows(term).baseY + term.rows;
  return findOneWay(term, query, from, forward) ?? findOneWay(term, query, forward ? { line: -1, x: 0 } : { line: last, x: 0 }, forward);
}

function findOneWay(term: Terminal, query: string, from: CellPos, forward: boolean): CellMatch | undefined {
  const buf = activeRows(term);
  const last = Math.min(buf.length, buf.baseY + term.rows) - 1;
  const q = query.toLowerCase();
  if (!q) return undefined;
  const wrapped = (y: number) => buf.getLine(y)?.isWrapped === true;
  let start = Math.max(0, Math.min(from.line, last));
  while (start > 0 && wrapped(start)) start--;
  while (start >= 0 && start <= last) {
    let end = start;
    while (end < last && wrapped(end + 1)) end++;
    // The line's text first (cheap); its cells only where the query is in it.
    let text = "";
    for (let y = start; y <= end; y++) {
      const line = buf.getLine(y);
      const next = y < end ? buf.getLine(y + 1) : undefined;
      if (line) text += readBufferLine(line, !next, next !== undefined && bufferLineGap(line, next), y);
    }
    if (text.toLowerCase().includes(q)) {
      const found = findInRows(readCellRows(term, start, end + 1), start, q);
      const pick = forward ? found.find((m) => before(from, m.start)) : found.reverse().find((m) => before(m.start, from));
      if (pick) return pick;
    }
    if (forward) start = end + 1;
    else {
      start--;
      while (start > 0 && wrapped(start)) start--;
    }
  }
  return undefined;
}
