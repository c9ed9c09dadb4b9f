// The one wrapped-line joiner: xterm marks a row that continues the one above as `isWrapped`;
// reading rows back as the lines the program wrote joins each such row onto the line before, with
// nothing added at the wrap. Where a wide character did not fit in a row's last column, xterm left
// that cell blank and wrapped early: the blank is no text and is left out (`wrapGap`). Used by the
// save's text (text-capture.ts, raw rows and the public API), pane_read's recent-unwrapped source,
// search and wait_for (text-sources.ts), a command's output (shell-marks.ts) and copy mode's
// selection and search (cell-text.ts).
import type { IBufferLine } from "@xterm/headless";

export interface WrappableRows<L extends { readonly isWrapped: boolean }> {
  readonly length: number;
  get(y: number): L | undefined;
}

/** Where logical lines go: the text of each, how many rows it took and the row it starts on. */
export interface JoinedLines {
  texts: string[];
  rows: number[];
  starts?: number[];
}

/**
 * Reads one row: `trim` when it ends its line (rows a line wrapped out of were full, their
 * trailing blanks are text), `gap` when its last cell is the blank an early wrap left (leave it
 * out); `y` is the row's index.
 */
export type RowReader<L> = (line: L, trim: boolean, gap: boolean, y: number) => string;

/** Whether `line`'s last cell is the blank left where the wide character starting `next` wrapped early. */
export type GapTest<L> = (line: L, next: L) => boolean;

/**
 * Rows [from, to) of `lines` as logical lines, appended to `into`. A line is never joined onto
 * one from before `from`. Missing rows are skipped.
 */
export function joinWrapped<L extends { readonly isWrapped: boolean }>(
  lines: WrappableRows<L>,
  from: number,
  to: number,
  read: RowReader<L>,
  into: JoinedLines,
  gapAt?: GapTest<L>,
): void {
  const { texts, rows, starts } = into;
  for (let y = from; y < to; y++) {
    const line = lines.get(y);
    if (!line) continue;
    const next = y + 1 < lines.length ? lines.get(y + 1) : undefined;
    const continues = next?.isWrapped === true;
    const s = read(line, !continues, continues && gapAt?.(line, next!) === true, y);
    if (line.isWrapped && texts.length && y > from) {
      texts[texts.length - 1] += s;
      rows[rows.length - 1]!++;
    } else {
      texts.push(s);
      rows.push(1);
      starts?.push(y);
    }
  }
}

/** The early-wrap gap through xterm's public API: an empty last cell before a wide first one. */
export function bufferLineGap(line: IBufferLine, next: IBufferLine): boolean {
  const last = line.getCell(line.length - 1);
  return last !== undefined && last.getChars() === "" && last.getWidth() === 1 && next.getCell(0)?.getWidth() === 2;
}

/** A public-API row as text (`translateToString`), without the early-wrap gap. */
export const readBufferLine: RowReader<IBufferLine> = (line, trim, gap) => line.translateToString(trim, 0, gap ? line.length - 1 : line.length);
