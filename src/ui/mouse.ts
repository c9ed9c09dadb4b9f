// Mouse on the server's screen: click to focus (tabs and panes), drag borders
// to resize, wheel to scroll history; events inside a pane that asked for the
// mouse go to it, translated to its own coordinates.

import type { MouseEvent } from "../protocol/events";
import type { PaneRect } from "../model/layout";
import type { Interface } from "./interface";
import { tabAt } from "./compositor";
import { moveBorder } from "./ui-actions";
import { encodeMouse } from "../model/key-encoder";
import { moveSelect, pressSelect, type SelectDrag } from "./mouse-select";

export type DragState =
  | { kind: "v"; left?: number; right?: number; col: number }
  | { kind: "h"; above?: number; below: number; row: number }
  | SelectDrag;

const WHEEL_LINES = 3;

function paneAt(rects: PaneRect[], col: number, row: number): { r: PaneRect; header: boolean } | undefined {
  for (const r of rects) {
    if (col >= r.x && col < r.x + r.cols && row >= r.y && row < r.y + r.rows) return { r, header: false };
    if (r.header && row === r.header.y && col >= r.header.x && col < r.header.x + r.header.cols) return { r, header: true };
  }
  return undefined;
}

export function handleMouse(ui: Interface, m: MouseEvent): void {
  const s = ui.session;
  const ws = s.currentWorkspace;
  const tab = s.activeTab(ws);
  const kind = m.kind;
  const rects = s.rects(tab);
  const area = s.layoutArea();

  if (moveSelect(ui, m)) return;
  if (typeof kind === "object" && "Drag" in kind && ui.drag) return dragTo(ui, m.column, m.row);
  if (typeof kind === "object" && "Up" in kind && ui.drag) {
    ui.drag = undefined;
    return;
  }

  if (m.row === 0 && s.bars) {
    if (typeof kind === "object" && "Down" in kind) {
      const i = tabAt(s, m.column, ui);
      const t = i !== undefined ? ws.tabs[i] : undefined;
      if (t) s.focusTab(ws, t);
    }
    if (kind === "ScrollUp" || kind === "ScrollDown") {
      const n = ws.tabs.length;
      const t = ws.tabs[(ws.active + (kind === "ScrollDown" ? 1 : -1) + n) % n];
      if (t) s.focusTab(ws, t);
    }
    return;
  }
  if (m.row < area.y || m.row >= area.y + area.rows) return;

  const hit = paneAt(rects, m.column, m.row);
  if (!hit) {
    // A separator column: drag it.
    if (typeof kind === "object" && "Down" in kind) {
      const left = rects.find((r) => r.x + r.cols === m.column && m.row >= (r.header?.y ?? r.y) && m.row < r.y + r.rows);
      const right = rects.find((r) => r.x === m.column + 1 && m.row >= (r.header?.y ?? r.y) && m.row < r.y + r.rows);
      ui.drag = { kind: "v", left: left?.pane, right: right?.pane, col: m.column };
    }
    return;
  }
  const { r, header } = hit;
  const pane = s.panes.get(r.pane);
  if (!pane) return;
  if (header) {
    if (typeof kind === "object" && "Down" in kind) {
      s.focusPane(r.pane);
      if (r.header!.y > area.y) {
        const above = rects.find((o) => o.y + o.rows === r.header!.y && o.x < r.x + r.cols && o.x + o.cols > r.x);
        ui.drag = { kind: "h", above: above?.pane, below: r.pane, row: m.row };
      }
    }
    return;
  }
  const modes = pane.emulator.modes;
  const local = { ...m, column: m.column - r.x, row: m.row - r.y };
  if (typeof kind === "object" && "Down" in kind && tab.focused !== r.pane) s.focusPane(r.pane);
  const inCopy = ui.copy?.pane === pane.id;
  if (modes.mouseTracking !== "none" && !inCopy) {
    const bytes = encodeMouse(local, modes);
    if (bytes) pane.write(bytes);
    return;
  }
  if (typeof kind === "object" && "Down" in kind && kind.Down === "Left" && !pane.emulator.alt) return pressSelect(ui, pane, r.x, r.y, local.column, local.row);
  if (kind === "ScrollUp" || kind === "ScrollDown") {
    if (pane.emulator.alt && !inCopy) {
      // Full-screen programs without mouse support get arrow keys, as terminals do.
      const key = { Key: { code: kind === "ScrollUp" ? "Up" : "Down", modifiers: "", kind: "Press", state: "" } } as const;
      for (let i = 0; i < WHEEL_LINES; i++) ui.toPane(key, pane);
    } else ui.scrollPane(pane, kind === "ScrollUp" ? WHEEL_LINES : -WHEEL_LINES);
  }
}

function dragTo(ui: Interface, col: number, row: number): void {
  const d = ui.drag!;
  if (d.kind === "v") {
    const delta = col - d.col;
    if (!delta) return;
    const towards = delta > 0 ? "right" : "left";
    const n = Math.abs(delta);
    const ok = (d.left !== undefined && moveBorder(ui, towards, n, d.left, "hi")) || (d.right !== undefined && moveBorder(ui, towards, n, d.right, "lo"));
    if (ok) d.col = col;
  } else if (d.kind === "h") {
    const delta = row - d.row;
    if (!delta) return;
    const towards = delta > 0 ? "down" : "up";
    const n = Math.abs(delta);
    const ok = moveBorder(ui, towards, n, d.below, "lo") || (d.above !== undefined && moveBorder(ui, towards, n, d.above, "hi"));
    if (ok) d.row = row;
  }
  ui.invalidate();
}
