// Reading a pane's emulator as text for pane_read and wait_for: the screen, the screen with its
// scrollback, or that with soft-wrapped rows joined back into the lines the program wrote (xterm
// marks a row that continues the one above as `isWrapped`). Optionally with SGR styling kept.
// Type-only imports of xterm: this module runs in the daemon, where the pane's Terminal exists.
import type { IBufferCell, IBufferLine, Terminal } from "@xterm/headless";
import { readPen, type Pen } from "./render-cells";
import { sgr } from "./sgr";
import { bufferLineGap, joinWrapped, type JoinedLines } from "./wrapped-lines";
import { activeRows } from "./history-view";

export type Source = "visible" | "recent" | "recent-unwrapped";
export const SOURCES: readonly Source[] = ["visible", "recent", "recent-unwrapped"];

export interface ReadOptions {
  source: Source;
  /** The last N lines. */
  lines?: number;
  /** 1-based inclusive range over the source's lines; overrides `lines`. */
  start?: number;
  end?: number;
  styled?: boolean;
}

export interface ReadResult {
  text: string;
  /** Lines in the whole source (after trailing blank lines are dropped). */
  total: number;
  /** The 1-based number of the first line returned (0 when none). */
  first: number;
  count: number;
}

let scratch: IBufferCell | undefined;
const pen: Pen = { fg: 0, bg: 0, attrs: 0, ul: 0 };

/** One buffer row as text; styled rows carry SGR codes and end with a reset. With `gap`, its last
 * cell is the blank an early wrap left, and no text (wrapped-lines.ts). */
function rowText(term: Terminal, line: IBufferLine, styled: boolean, trimRight: boolean, gap = false): string {
  if (!styled) return line.translateToString(trimRight, 0, gap ? line.length - 1 : line.length);
  const cell = (scratch ??= term.buffer.active.getNullCell());
  // Trailing default blanks say nothing.
  let last = -1;
  for (let c = 0; c < (gap ? term.cols - 1 : term.cols); c++) {
    if (!line.getCell(c, cell)) break;
    const blank = (cell.getChars() === "" || cell.getChars() === " ") && cell.isAttributeDefault() && cell.isBgDefault();
    if (!blank || !trimRight) last = c;
  }
  let out = "";
  let cur = "\x1b[0m";
  for (let c = 0; c <= last; c++) {
    if (!line.getCell(c, cell) || cell.getWidth() === 0) continue;
    readPen(cell, pen);
    const s = sgr(pen.fg, pen.bg, pen.attrs, pen.ul);
    if (s !== cur) {
      out += s;
      cur = s;
    }
    out += cell.getChars() || " ";
  }
  return cur !== "\x1b[0m" ? out + "\x1b[0m" : out;
}

/** The source's lines, trailing blank lines dropped, each with the buffer row it starts on; with
 * `screenOnly`, those of the screen alone (a row continuing one in the history starts a line). */
export function sourceRows(term: Terminal, source: Source, styled = false, screenOnly = false): { text: string; row: number }[] {
  const buf = activeRows(term);
  const from = source === "visible" || screenOnly ? buf.baseY : 0;
  const to = buf.baseY + term.rows;
  const read = (line: IBufferLine, trim: boolean, gap: boolean) => rowText(term, line, styled, trim, gap);
  let out: { text: string; row: number }[];
  if (source === "recent-unwrapped") {
    const lines: JoinedLines = { texts: [], rows: [], starts: [] };
    joinWrapped({ length: to, get: (y) => buf.getLine(y) }, from, to, read, lines, bufferLineGap);
    out = lines.texts.map((text, i) => ({ text, row: lines.starts![i]! }));
  } else {
    out = [];
    for (let y = from; y < to; y++) {
      const line = buf.getLine(y);
      out.push({ row: y, text: line ? read(line, true, false) : "" });
    }
  }
  while (out.length && (out[out.length - 1]!.text === "" || out[out.length - 1]!.text === "\x1b[0m")) out.pop();
  return out;
}

/** The source's lines, trailing blank lines dropped. */
export function sourceLines(term: Terminal, source: Source, styled = false): string[] {
  return sourceRows(term, source, styled).map((l) => l.text);
}

export function readPane(term: Terminal, o: ReadOptions): ReadResult {
  const all = sourceLines(term, o.source, !!o.styled);
  let from = 0;
  let to = all.length;
  if (o.start !== undefined || o.end !== undefined) {
    from = Math.max(0, (o.start ?? 1) - 1);
    to = Math.min(all.length, o.end ?? all.length);
  } else if (o.lines !== undefined) from = Math.max(0, all.length - o.lines);
  const slice = to > from ? all.slice(from, to) : [];
  return { text: slice.join("\n"), total: all.length, first: slice.length ? from + 1 : 0, count: slice.length };
}

/** A place in the buffer a wait started from: its buffer line (undefined once that line was
 * trimmed off the top of the history, when everything still held is newer) and the column. */
export interface TextMark {
  line: number | undefined;
  col: number;
}

/** The source's lines that were written at or after `mark`: its own line from its column on, and
 * every later one (a line the source joins from rows begun before the mark does not count). */
export function sourceRowsSince(term: Terminal, source: Source, mark: TextMark): { text: string; row: number }[] {
  const rows = sourceRows(term, source);
  const at = mark.line;
  if (at === undefined) return rows;
  const out: { text: string; row: number }[] = [];
  for (const r of rows) {
    if (r.row < at) continue;
    if (r.row === at && mark.col > 0) {
      const line = activeRows(term).getLine(at);
      const skip = line ? line.translateToString(false, 0, mark.col).length : 0;
      out.push({ row: r.row, text: r.text.slice(skip) });
    } else out.push(r);
  }
  return out;
}
