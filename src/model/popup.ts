// A tab's popup: one pane floating over the tab's layout (tmux's display-popup), drawn last with a
// border, taking the keys while it is open. Nothing in the layout moves for it. Pure geometry here;
// the Session opens and closes it.
import type { Rect } from "./layout";

/** When the popup closes by itself (tmux: -E, -E -E, neither). Esc or C-c close it in any case
 * once its program has exited, and while it runs when it is `key`. */
export const POPUP_CLOSE = ["exit", "success", "key"] as const;
export type PopupClose = (typeof POPUP_CLOSE)[number];

export interface Popup {
  pane: number;
  /** Outer size, border included: cells ("40") or a share of the tab's area ("50%"). */
  width: string;
  height: string;
  /** The outer top-left corner within the tab's area; centred when missing. */
  x?: number;
  y?: number;
  close: PopupClose;
  /** False: no border, the program has the whole box (tmux's display-popup -B). */
  border?: boolean;
}

/** A size as a popup takes it: N cells or N% of the whole. */
export const POPUP_SIZE = /^(\d{1,5})(%?)$/;

function cells(spec: string, whole: number): number {
  const m = POPUP_SIZE.exec(spec);
  if (!m) return Math.floor(whole / 2);
  return m[2] ? Math.floor((whole * Number(m[1])) / 100) : Number(m[1]);
}

/** Where tmux 3.3a centres a popup (cmd-display-menu.c's popup_centre_x and _y: its left column
 * and, from the line below its bottom, its top). In the tab's area this lands on the very cells
 * tmux uses on a terminal of the same size, the tab bar and status line taking one row each. */
const centreX = (whole: number, size: number) => Math.floor((whole - 1) / 2) - Math.floor(size / 2);
const centreY = (whole: number, size: number) => Math.floor((whole - 1) / 2) + Math.floor(size / 2) - size;

/** The popup's outer box (border included) and the inner part its program sees, in `area`; sizes
 * are clamped to the area and the box kept inside it, as tmux keeps a popup on the screen. */
export function popupRects(p: Omit<Popup, "pane" | "close">, area: Rect): { outer: Rect; inner: Rect } {
  const least = p.border === false ? 1 : 3;
  const cols = Math.max(least, Math.min(area.cols, cells(p.width, area.cols)));
  const rows = Math.max(least, Math.min(area.rows, cells(p.height, area.rows)));
  const place = (at: number, size: number, whole: number) => Math.max(0, Math.min(whole - size, at));
  const outer = { x: area.x + place(p.x ?? centreX(area.cols, cols), cols, area.cols), y: area.y + place(p.y ?? centreY(area.rows, rows), rows, area.rows), cols, rows };
  if (p.border === false) return { outer, inner: { ...outer } };
  return { outer, inner: { x: outer.x + 1, y: outer.y + 1, cols: Math.max(1, cols - 2), rows: Math.max(1, rows - 2) } };
}
