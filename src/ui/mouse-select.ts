// Selecting with the mouse in a pane that doesn't take the mouse itself: press and drag selects
// (in copy mode, so the view holds still), release copies (OSC 52, and for prefix ]) and leaves
// copy mode; a double-click copies the word under it. As tmux's default mouse bindings.

import type { MouseEvent } from "../protocol/events";
import type { Pane } from "../model/pane";
import type { Interface } from "./interface";
import { enterCopyMode, selectionText } from "./copy-mode";

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

/** A left press at (x, y) in `pane` (pane coordinates). */
export function pressSelect(ui: Interface, pane: Pane, x0: number, y0: number, x: number, y: number): void {
  const now = performance.now();
  const double = lastPress.pane === pane.id && lastPress.x === x && lastPress.y === y && now - lastPress.at < DOUBLE_CLICK_MS;
  lastPress = { pane: pane.id, x, y, at: double ? -Infinity : now };
  const t = pane.screen;
  const wasCopy = ui.copy?.pane === pane.id;
  const cm = wasCopy ? ui.copy! : enterCopyMode(pane.id, t);
  const top = Math.max(0, t.baseY - cm.offset);
  if (double) {
    const chars = [...(t.lines(top + y, top + y + 1)[0] ?? "")];
    if (!isWord(chars[x])) return;
    let a = x;
    let b = x;
    while (isWord(chars[a - 1])) a--;
    while (isWord(chars[b + 1])) b++;
    cm.anchor = { x: a, line: top + y };
    cm.lines = false;
    cm.x = b;
    cm.y = y;
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
  const t = pane.screen;
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
