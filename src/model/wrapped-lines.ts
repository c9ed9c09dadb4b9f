// The one wrapped-line joiner: xterm marks a row that continues the one above as `isWrapped`;
// reading rows back as the lines the program wrote joins each such row onto the line before.
// Used by the save's text (screen-text.ts, raw rows and the public API) and pane_read's
// recent-unwrapped source (text-sources.ts).

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
 * Rows [from, to) of `lines` as logical lines, appended to `into`. A row is read with `trim` set
 * only when it ends its line (rows a line wrapped out of were full, their trailing blanks are
 * text). A line is never joined onto one from before `from`. Missing rows are skipped.
 */
export function joinWrapped<L extends { readonly isWrapped: boolean }>(
  lines: WrappableRows<L>,
  from: number,
  to: number,
  read: (line: L, trim: boolean) => string,
  into: JoinedLines,
): void {
  const { texts, rows, starts } = into;
  for (let y = from; y < to; y++) {
    const line = lines.get(y);
    if (!line) continue;
    const continues = y + 1 < lines.length && lines.get(y + 1)?.isWrapped === true;
    const s = read(line, !continues);
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
