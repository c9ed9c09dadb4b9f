// Copy a rectangle of a pane's xterm buffer into a grid of cells (the UI's, or rows sent from the
// emulator worker).

import type { Terminal, IBufferCell } from "@xterm/headless";
import { type CellSink, BOLD, DIM, ITALIC, UNDERLINE, BLINK, INVERSE, INVISIBLE, STRIKE, OVERLINE, PALETTE, RGB } from "./cells";

let scratch: IBufferCell | undefined;

/**
 * Draw `term`'s active buffer at (x0, y0) in `grid`, w × h cells; with `rows` [first, last], only
 * those rows (the rest of the grid is left as it is). `scrollBack` > 0 shows that many lines above
 * the live screen (copy mode).
 */
export function renderPane(term: Terminal, grid: CellSink, x0: number, y0: number, w: number, h: number, scrollBack = 0, rows?: [number, number]): void {
  const buf = term.buffer.active;
  const top = Math.max(0, buf.baseY - scrollBack);
  const cell = (scratch ??= buf.getNullCell());
  const last = Math.min(h - 1, rows ? rows[1] : Infinity);
  for (let r = Math.max(0, rows ? rows[0] : 0); r <= last; r++) {
    const line = buf.getLine(top + r);
    const y = y0 + r;
    if (!line) {
      for (let c = 0; c < w; c++) grid.set(x0 + c, y, " ", 1);
      continue;
    }
    for (let c = 0; c < w; c++) {
      const x = x0 + c;
      if (c >= term.cols || !line.getCell(c, cell)) {
        grid.set(x, y, " ", 1);
        continue;
      }
      const width = cell.getWidth();
      if (width === 0) continue; // right half: written with its left half
      const fg = cell.isFgRGB() ? RGB | cell.getFgColor() : cell.isFgPalette() ? PALETTE | cell.getFgColor() : 0;
      const bg = cell.isBgRGB() ? RGB | cell.getBgColor() : cell.isBgPalette() ? PALETTE | cell.getBgColor() : 0;
      let attrs = 0;
      if (cell.isBold()) attrs |= BOLD;
      if (cell.isDim()) attrs |= DIM;
      if (cell.isItalic()) attrs |= ITALIC;
      if (cell.isUnderline()) attrs |= UNDERLINE;
      if (cell.isBlink()) attrs |= BLINK;
      if (cell.isInverse()) attrs |= INVERSE;
      if (cell.isInvisible()) attrs |= INVISIBLE;
      if (cell.isStrikethrough()) attrs |= STRIKE;
      if (cell.isOverline()) attrs |= OVERLINE;
      let ch = cell.getChars() || " ";
      let cw = width;
      // A wide char cut by the pane's right edge would spill onto the border.
      if (width === 2 && c === w - 1) {
        ch = " ";
        cw = 1;
      }
      grid.set(x, y, ch, cw, fg, bg, attrs);
    }
  }
}
