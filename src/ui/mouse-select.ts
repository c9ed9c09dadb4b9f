// Selecting with the mouse in a pane that doesn't take the mouse itself: press and drag selects
// (in copy mode, so the view holds still), release copies (OSC 52, and for prefix ]) and leaves
// copy mode; a double-click copies the word under it. As tmux's default mouse bindings.

import type { MouseEvent } from "../protocol/events";
import type { Pane } from "../model/pane";
import type { Interface } from "./interface";
import { enterCopyMode, selectionText } from "./copy-mode";
import { type CellPos, type CellRow, cellRowGap, charStart } from "../model/cell-text";

/** Two presses this close together, on the same cell, are a double-click. */
const DOUBLE_CLICK_MS = 400;
let lastPress = { pane: -1, x: -1, y: -1, at: -Infinity };

export interface SelectDrag {
  kind: "select";
  pane: number;
  /** The pane's rectangle origin on screen. */
  x0: number;
  y0: number;
  moved: boolean;
  /** Copy mode was on before the press (scrolled back): it stays on after a plain click. */
  wasCopy: boolean;
}

const isWord = (c: string | undefined) => c !== undefined && /[\p{L}\p{N}_\-./~:@]/u.test(c);

/**
 * The word under the cell (x, y) of the view `rows`, by cells: a character with its combining
 * marks is one cell, a wide one two, and a word goes on across a row its line wrapped over (a long
 * URL). Its first and last cells (rows of the view), or undefined when no word is there.
 */
function wordAt(rows: CellRow[], x: number, y: number): { start: CellPos; end: CellPos } | undefined {
  let first = y;
  while (first > 0 && rows[first]?.isWrapped) first--;
  let last = y;
  while (rows[last + 1]?.isWrapped) last++;
  // The line's characters in order, each with its cell (the early-wrap gap is no character).
  const chars: { line: number; x: number; text: string }[] = [];
  let at = -1;
  for (let line = first; line <= last; line++) {
    const row = rows[line]!;
    const end = line < last && cellRowGap(row, rows[line + 1]!) ? row.cells.length - 1 : row.cells.length;
    for (let c = 0; c < end; c++) {
      if (row.widths[c] === 0) continue;
      if (line === y && c === charStart(row, x)) at = chars.length;
      chars.push({ line, x: c, text: row.cells[c]! });
    }
  }
  if (at < 0 || !isWord(chars[at]!.text)) return undefined;
  let a = at;
  let b = at;
  while (a > 0 && isWord(chars[a - 1]!.text)) a--;
  while (b + 1 < chars.length && isWord(chars[b + 1]!.text)) b++;
  return { start: { line: chars[a]!.line, x: chars[a]!.x }, end: { line: chars[b]!.line, x: chars[b]!.x } };
}

/** A left press at (x, y) in `pane` (pane coordinates). */
export function pressSelect(ui: Interface, pane: Pane, x0: number, y0: number, x: number, y: number): void {
  const now = performance.now();
  const double = lastPress.pane === pane.id && lastPress.x === x && lastPress.y === y && now - lastPress.at < DOUBLE_CLICK_MS;
  lastPress = { pane: pane.id, x, y, at: double ? -Infinity : now };
  const t = pane.emulator;
  const wasCopy = ui.copy?.pane === pane.id;
  const cm = wasCopy ? ui.copy! : enterCopyMode(pane.id, t);
  const top = Math.max(0, t.baseY - cm.offset);
  if (double) {
    const word = wordAt(t.cellRows(top, top + t.rows), x, y);
    if (!word) return;
    cm.anchor = { x: word.start.x, line: top + word.start.line };
    cm.lines = false;
    cm.x = word.end.x;
    cm.y = word.end.line;
    const text = selectionText(cm, t);
    if (wasCopy) cm.anchor = undefined;
    else ui.copy = undefined;
    ui.drag = undefined;
    return ui.copied(text);
  }
  cm.anchor = { x, line: top + y };
  cm.lines = false;
  cm.x = x;
  cm.y = y;
  ui.copy = cm;
  ui.drag = { kind: "select", pane: pane.id, x0, y0, moved: false, wasCopy };
  ui.invalidate();
}

/** A drag or release while selecting. Returns whether it was one. */
export function moveSelect(ui: Interface, m: MouseEvent): boolean {
  const d = ui.drag;
  if (d?.kind !== "select") return false;
  const cm = ui.copy;
  const pane = ui.session.panes.get(d.pane);
  if (!cm || cm.pane !== d.pane || !pane) {
    ui.drag = undefined;
    return true;
  }
  const t = pane.emulator;
  cm.x = Math.max(0, Math.min(t.cols - 1, m.column - d.x0));
  cm.y = Math.max(0, Math.min(t.rows - 1, m.row - d.y0));
  const kind = m.kind;
  if (typeof kind === "object" && "Drag" in kind) d.moved = true;
  if (typeof kind === "object" && "Up" in kind) {
    ui.drag = undefined;
    // A click without a drag selects nothing: it only focused the pane.
    if (d.moved) ui.copied(selectionText(cm, t));
    if (d.wasCopy) cm.anchor = undefined;
    else ui.copy = undefined;
  }
  ui.invalidate();
  return true;
}
