// A client whose terminal is not the session's size (the session has the latest active client's
// size, tmux's `window-size latest`) sees the session's panes as tmux shows a window of another
// size: a larger terminal gets the panes area at the top left, a border line along its right and
// bottom edges (`│`, `─`, `┘`) and `·` beyond; a smaller one sees the part of it around the cursor
// (tmux's window offset), which follows the cursor as it moves. Its own tab bar and status line
// span its own width, at its top and bottom.

import { type Grid, pal, type Style } from "./grid";

const OUTSIDE: Style = { fg: pal(240) };

/** Where the client's view of the panes area starts (in the session's panes area), as tmux's
 * tty_window_offset: at 0 when it fits, otherwise centred on the cursor, kept inside the area. */
export function viewOffset(area: number, view: number, cursor: number): number {
  if (area <= view) return 0;
  return Math.max(0, Math.min(area - view, cursor - Math.floor(view / 2)));
}

/**
 * Draw `frame` (the session-sized frame, without its overlay) into `into` (the client's size) as
 * tmux draws a window for a client of that size, leaving its first and last rows blank for the
 * client's own bars (compositor.ts drawClientBars) when the session shows them (`bars`; without,
 * the panes area is the whole frame). Returns the offset of the client's view in the session's
 * panes area, and `part` when it shows only a part of it.
 */
export function fitFrame(frame: Grid, into: Grid, bars = true): { x: number; y: number; part?: boolean } {
  into.clear();
  const cols = into.cols;
  const rows = into.rows;
  const top = bars ? 1 : 0;
  if (bars && rows < 3) {
    // No room for bars: the top left of the frame.
    for (let y = 0; y < Math.min(rows, frame.rows); y++) copyRow(frame, into, y, 0, y, Math.min(cols, frame.cols));
    return { x: 0, y: 0 };
  }
  const areaCols = frame.cols;
  const areaRows = Math.max(0, frame.rows - 2 * top);
  const viewRows = rows - 2 * top;
  const cur = frame.cursor;
  const ox = viewOffset(areaCols, cols, cur.x);
  const oy = viewOffset(areaRows, viewRows, cur.y - top);
  for (let y = 0; y < viewRows; y++) {
    const ly = y + oy;
    if (ly < areaRows) copyRow(frame, into, top + ly, ox, top + y, Math.min(cols, areaCols - ox));
    for (let x = 0; x < cols; x++) {
      const lx = x + ox;
      if (lx < areaCols && ly < areaRows) continue;
      const ch = lx === areaCols && ly === areaRows ? "┘" : lx === areaCols && ly < areaRows ? "│" : ly === areaRows && lx < areaCols ? "─" : "·";
      into.set(x, top + y, ch, 1, OUTSIDE.fg);
    }
  }
  const cx = cur.x - ox;
  const cy = cur.y - top - oy;
  const shown = cx >= 0 && cx < cols && cy >= 0 && cy < viewRows;
  into.cursor = { ...cur, x: shown ? cx : 0, y: shown ? cy + top : 0, visible: cur.visible && shown };
  return areaCols > cols || areaRows > viewRows ? { x: ox, y: oy, part: true } : { x: ox, y: oy };
}

/** `n` cells of row `fy` from column `fx` of `from` to row `ty` of `to` from column 0; a wide
 * character cut at either edge becomes a blank. */
function copyRow(from: Grid, to: Grid, fy: number, fx: number, ty: number, n: number): void {
  if (n <= 0) return;
  const a = fy * from.cols + fx;
  const b = ty * to.cols;
  to.copyCells(from, a, b, n);
  if (to.width[b] === 0) to.set(0, ty, " ", 1);
  if (to.width[b + n - 1] === 2) to.set(n - 1, ty, " ", 1);
  if (from.links.size) for (let i = 0; i < n; i++) {
    const l = from.links.get(a + i);
    if (l !== undefined) to.links.set(b + i, l);
  }
}
