// A history line's cells made back into a real xterm row, at the width it is asked at (the
// history store, history-store.ts, keeps lines as their text and style runs): everything that
// reads a row reads these exactly as it reads xterm's own. The layout of xterm's cell words is
// defined here once; the store reads rows in the same layout.
// Internal API (xterm-internals.ts): xterm's BufferLine words (content = codepoint | combined flag
// | width << 22, fg, bg with the "has extended attributes" flag) and its row and cell classes.
import type { IBufferLine, Terminal } from "@xterm/headless";
import type { Stored } from "./history-chunks";
import { rawCell, rawLineOf, type RawCell, type RawLine } from "./xterm-internals";

/** xterm's cell words (common/buffer/Constants.ts). */
export const CODEPOINT_MASK = 0x1fffff;
export const IS_COMBINED = 0x200000;
export const HAS_CONTENT = 0x3fffff;
export const WIDTH_SHIFT = 22;
export const BG_HAS_EXTENDED = 0x10000000;
/** An empty cell's character in a line's text ("" to xterm, not a space: spaces are text). */
export const EMPTY = "\0";
/** Words per style run: first cell, fg, bg, extended attributes, hyperlink id. */
export const RUN = 5;

type LineClass = new (cols: number, fill?: unknown, isWrapped?: boolean) => RawLine;
type ViewClass = new (line: RawLine) => IBufferLine;
type ExtClass = new (ext?: number, urlId?: number) => { _ext: number; _urlId: number };

/** A row of a line wrapped at some width: cells [from, to) and whether the line wrapped early
 * (a wide character did not fit: the row's last cell stays empty). */
export interface RowSpan {
  from: number;
  to: number;
}

interface Classes {
  Line: LineClass;
  View: ViewClass;
  Ext: ExtClass;
  cell: RawCell;
}
let classes: Classes | undefined;

/** xterm's row, row view and extended-attributes classes, from a live terminal. */
function classesOf(term: Terminal): Classes {
  if (classes) return classes;
  const buf = term.buffer.normal;
  const view = buf.getLine(0);
  const raw = view && rawLineOf(view);
  const cell = rawCell(buf.getNullCell());
  if (!view || !raw || !cell.extended) throw new Error("xterm's internals changed: the history store can't make rows");
  classes = {
    Line: raw.constructor as LineClass,
    View: view.constructor as ViewClass,
    Ext: cell.extended.constructor as ExtClass,
    cell,
  };
  return classes;
}

/** Cells [span.from, span.to) of `s` as one xterm row `width` wide. */
export function makeRow(term: Terminal, s: Stored, span: RowSpan, width: number, wrapped: boolean): IBufferLine {
  const { Line, View, Ext, cell } = classesOf(term);
  const line = new Line(width, undefined, wrapped);
  const runs = s.runs;
  // The run in force at the span's first cell.
  let run = -1;
  if (runs) while (run + 1 < runs.length / RUN && runs[(run + 1) * RUN]! <= span.from) run++;
  // Code unit offset of the span's first cell.
  let at = 0;
  if (s.layout) for (let k = 0; k < span.from; k++) at += s.layout.charCodeAt(k) >> 2;
  else at = span.from;
  let x = 0;
  for (let k = span.from; k < span.to && x < width; k++) {
    if (runs) while (run + 1 < runs.length / RUN && runs[(run + 1) * RUN]! <= k) run++;
    const code = s.layout ? s.layout.charCodeAt(k) : (1 << 2) | 1;
    const units = code >> 2;
    const w = code & 3;
    const ch = s.text.slice(at, at + units);
    at += units;
    const fg = run >= 0 ? runs![run * RUN + 1]! : 0;
    const bg = run >= 0 ? runs![run * RUN + 2]! : 0;
    cell.fg = fg;
    cell.bg = bg;
    if (bg & BG_HAS_EXTENDED) cell.extended = new Ext(runs![run * RUN + 3]!, runs![run * RUN + 4]!);
    if (ch === EMPTY) cell.content = w << WIDTH_SHIFT;
    else {
      const cp = ch.codePointAt(0)!;
      if (ch.length > (cp > 0xffff ? 2 : 1)) {
        cell.content = IS_COMBINED | (w << WIDTH_SHIFT);
        cell.combinedData = ch;
      } else cell.content = cp | (w << WIDTH_SHIFT);
    }
    line.setCell(x, cell);
    if (w === 2 && x + 1 < width) {
      cell.content = 0;
      line.setCell(x + 1, cell);
    }
    x += w || 1;
  }
  return new View(line);
}
