// Draws the whole interface into a Grid: tab bar, the current tab's panes with
// borders and labels, the status line, and any overlay (prompt, help, picker,
// copy mode). Pure with respect to the session: reads, never changes it.

import type { Session } from "../model/session";
import type { Pane } from "../model/pane";
import type { Tab, Workspace } from "../model/workspace";
import { panesOf, type PaneRect } from "../model/layout";
import { Grid, pal, BOLD, INVERSE, DIM, type Style, textWidth } from "./grid";
import type { Prompt } from "./prompt";
import { type CopyMode, isMarked } from "./copy-mode";
import { borderFormat, drawBorderLabel } from "./pane-border";

export interface Overlay {
  title: string;
  lines: string[];
  /** Highlighted line (pickers). */
  selected?: number;
  scroll: number;
}

export interface UiView {
  prefixPending: boolean;
  prompt?: Prompt;
  overlay?: Overlay;
  copy?: CopyMode;
  /** A one-off notice on the status line, cleared by the next key. */
  message?: string;
  /** tmux's display-panes: each pane's number drawn over it until a key or a second passes. */
  paneNumbers?: boolean;
  /** The first tab's number (keys.toml base-index; 1 by default). */
  baseIndex?: number;
  /** The number tab i of the workspace on screen shows (keys.toml renumber-windows); without it, i + baseIndex. */
  tabNumber?(i: number): number;
  /** The bars' colours (keys.toml status-style). */
  statusStyle?: { fg?: number; bg?: number };
  /** A mark for a tab from its panes (agents that need the person), and a status-line summary. */
  tabBadge?(panes: number[]): string | undefined;
  statusBadge?(): string | undefined;
  /** Whether a pane of these rang the bell while off screen (its tab gets tmux's `!`). */
  bellMark?(panes: number[]): boolean;
  /** The status line's left and right parts (keys.toml `[status]`); without it, the defaults. */
  statusParts?(): { left: string; right: string; badge: boolean };
}

const BAR: Style = { fg: pal(252), bg: pal(236) };
const BAR_ACTIVE: Style = { fg: pal(16), bg: pal(75), attrs: BOLD };
const BAR_PREFIX: Style = { fg: pal(16), bg: pal(214), attrs: BOLD };
const BORDER: Style = { fg: pal(240) };
const HEADER: Style = { fg: pal(245) };
const HEADER_FOCUS: Style = { fg: pal(78), attrs: BOLD };
const POPUP_BORDER: Style = { fg: pal(252) };
const BOX: Style = { fg: pal(252), bg: pal(235) };
const BOX_SEL: Style = { fg: pal(16), bg: pal(75), attrs: BOLD };

/** How a frame may save work: draw into a grid it already has, and take unchanged panes' cells
 * from the previous frame instead of reading them out of their emulators again. */
export interface ComposeReuse {
  /** A grid of the screen's size to draw into (cleared here). */
  into?: Grid;
  /** The last frame, when this one has the same tab, the same pane places, and nothing drawn over
   * the panes: taken whole (borders and all), then only what may have changed is drawn on top and
   * marked for the diff. Every pane must then be reusable from it (`unchanged` says so). */
  base?: Grid;
  /** Where `pane`'s cells at `r` can be copied from, and which of its rows to read again on top;
   * undefined to draw the whole pane. Asked for the popup's pane too (its rect inside the box). */
  unchanged?(pane: Pane, r: PaneRect): PaneReuse | undefined;
  /** False: draw no overlay (a client of another size draws its own, at its size: client-fit.ts). */
  overlay?: false;
  /** Take the tab bar and the status line as the base has them, without working out what they
   * say now (a key's echo: its frame goes out first, and `barsChanged` tells after it whether
   * another frame must follow). Only with a base, and never under a prompt (it places the cursor). */
  barsFromBase?: boolean;
}

export interface PaneReuse {
  /** Undefined when the cells are already in the grid (copied whole from the base). */
  from?: Grid;
  /** Rows of the pane (0 = its top) to read out of the emulator after the copy, inclusive. */
  redraw?: [number, number];
}

export function compose(s: Session, v: UiView, reuse: ComposeReuse = {}): Grid {
  const { cols, rows } = s.size;
  let g = reuse.into;
  const shown = s.workspaces[s.current];
  const popup = shown?.tabs[shown.active]?.popup;
  // A popup covers panes: the frame under it is drawn whole, as under an overlay.
  const base = reuse.base && reuse.base.cols === cols && reuse.base.rows === rows && !v.overlay && !popup ? reuse.base : undefined;
  if (!g || g.cols !== cols || g.rows !== rows) g = new Grid(cols, rows);
  if (base) g.copyAll(base);
  else g.clear();
  const ws = s.workspaces[s.current];
  if (!ws) return g;
  const tab = ws.tabs[ws.active];
  const barsKept = !!base && reuse.barsFromBase === true && !v.prompt;
  if (!barsKept) keepOrDraw(g, base, "tabs", tabBarNote(g, s, v), 0, () => drawTabBar(g, s, v));
  if (tab) {
    const area = s.layoutArea();
    const rects = s.rects(tab);
    // Everything in the area not covered by a pane or its label row is border (the base has them).
    if (!base) g.fill(area.x, area.y, area.cols, area.rows, "│", BORDER);
    for (const [index, r] of rects.entries()) {
      const pane = s.panes.get(r.pane);
      if (!pane) continue;
      const label = { tab, index };
      const from = reuse.unchanged?.(pane, r);
      if (base) {
        // Its label may have changed; its cells are the base's but for the rows read again.
        if (r.header) g.markRows(r.header.y, r.header.y);
        if (from?.from === base) {
          if (from.redraw) g.markRows(r.y + from.redraw[0], r.y + Math.min(r.rows - 1, from.redraw[1]));
          drawPane(g, s, v, pane, r, r.pane === tab.focused, { ...from, from: undefined }, label);
          continue;
        }
        g.markRows(r.y, r.y + r.rows - 1);
      }
      drawPane(g, s, v, pane, r, r.pane === tab.focused, from, label);
    }
    joinBorders(g, area, rects, !!tab.border && (tab.border.status === "top" || tab.border.status === "bottom"));
    if (v.paneNumbers) for (const [index, r] of rects.entries()) drawPaneNumber(g, r, index, r.pane === tab.focused);
    const focus = rects.find((r) => r.pane === tab.focused);
    const pane = focus && s.panes.get(focus.pane);
    if (focus && pane) placeCursor(g, v, pane, focus);
    // The popup last, over the panes; it has the cursor while it is open.
    const box = s.popupRects(tab);
    const popupPane = tab.popup && s.panes.get(tab.popup.pane);
    if (box && popupPane) {
      if (tab.popup!.border === false) g.fill(box.outer.x, box.outer.y, box.outer.cols, box.outer.rows, " ");
      else drawPopup(g, popupPane, box.outer);
      g.notes.clear(); // the box may cover a bar's row
      const inner = { pane: popupPane.id, ...box.inner };
      drawPane(g, s, v, popupPane, inner, true, reuse.unchanged?.(popupPane, inner));
      placeCursor(g, v, popupPane, inner);
    }
  }
  if (!barsKept) {
    const status = statusNote(g, s, v);
    keepOrDraw(g, base, "status", status.note, rows - 1, () => drawStatus(g, s, v, undefined, status.text));
  }
  if (v.overlay && reuse.overlay !== false) {
    drawOverlay(g, v.overlay);
    g.notes.clear();
  }
  return g;
}

/** Draw a bar's row, unless the frame began as a copy of a base whose row says the same (`note`
 * equal to the base's): a key's echo then neither redraws nor diffs the tab bar or status line. */
function keepOrDraw(g: Grid, base: Grid | undefined, what: string, note: string | undefined, y: number, draw: () => void) {
  if (base && note !== undefined && base.notes.get(what) === note) return;
  draw();
  if (base) g.markRows(y, y);
  if (note === undefined) g.notes.delete(what);
  else g.notes.set(what, note);
}

/** Whether the tab bar or the status line would say something else now than `g` (a frame composed
 * with `barsFromBase`) shows. */
export function barsChanged(g: Grid, s: Session, v: UiView): boolean {
  if (!s.workspaces[s.current]) return false;
  const status = statusNote(g, s, v).note;
  return status === undefined || g.notes.get("status") !== status || g.notes.get("tabs") !== tabBarNote(g, s, v);
}

/** A client whose terminal is not the session's size: its tab bar, status line and overlay drawn
 * at its own size, over the panes fitted to it (client-fit.ts). `where`: the part of the panes
 * area it shows, when it shows only a part (`[x,y]`, after the status line's left part, as tmux
 * shows a client's window offset). */
export function drawClientBars(g: Grid, s: Session, v: UiView, where?: string): void {
  if (!s.workspaces[s.current]) return;
  drawTabBar(g, s, v);
  drawStatus(g, s, v, where);
  if (v.overlay) drawOverlay(g, v.overlay);
}

/** `label`: the pane's tab and its place in it, for a label row drawn as tmux's (pane-border.ts). */
/** display-panes: the pane's index in its middle (what a digit then selects), as tmux's. */
function drawPaneNumber(g: Grid, r: PaneRect, index: number, focused: boolean): void {
  const text = ` ${index} `;
  const x = r.x + Math.max(0, Math.floor((r.cols - text.length) / 2));
  const y = r.y + Math.floor(r.rows / 2);
  g.text(x, y, text, focused ? BAR_PREFIX : BAR_ACTIVE, r.cols);
}

function drawPane(g: Grid, _s: Session, v: UiView, pane: Pane, r: PaneRect, focused: boolean, reuse?: PaneReuse, label?: { tab: Tab; index: number }) {
  if (r.header) {
    const st = focused ? HEADER_FOCUS : HEADER;
    const format = label && borderFormat(pane, label.tab);
    if (format !== undefined) drawBorderLabel(g, r.header.x, r.header.y, r.header.cols, format, pane, label!.index, focused, st);
    else {
      g.fill(r.header.x, r.header.y, r.header.cols, 1, "─", st);
      const text = ` ${pane.id}: ${pane.label}${pane.exited ? ` [exited: ${pane.exitText}]` : ""} `;
      g.text(r.header.x + 1, r.header.y, text, st, Math.max(0, r.header.cols - 2));
    }
  }
  if (reuse) {
    if (reuse.from) g.copyRect(reuse.from, r.x, r.y, r.cols, r.rows);
    if (reuse.redraw) pane.emulator.render(g, r.x, r.y, Math.min(r.cols, pane.emulator.cols), Math.min(r.rows, pane.emulator.rows), 0, reuse.redraw);
    return;
  }
  const cm = v.copy && v.copy.pane === pane.id ? v.copy : undefined;
  const screen = pane.emulator;
  screen.render(g, r.x, r.y, Math.min(r.cols, screen.cols), Math.min(r.rows, screen.rows), cm?.offset ?? 0);
  // A pane whose emulator is smaller than its cell (mid-resize) leaves blanks, not borders.
  if (screen.cols < r.cols) g.fill(r.x + screen.cols, r.y, r.cols - screen.cols, r.rows);
  if (screen.rows < r.rows) g.fill(r.x, r.y + screen.rows, r.cols, r.rows - screen.rows);
  if (cm) {
    for (let y = 0; y < r.rows; y++)
      for (let x = 0; x < r.cols; x++)
        if (isMarked(cm, screen, x, y)) {
          const i = (r.y + y) * g.cols + r.x + x;
          g.attrs[i] = g.attrs[i]! ^ INVERSE;
        }
    const pos = `[${cm.offset}/${screen.baseY}]`;
    g.text(r.x + Math.max(0, r.cols - textWidth(pos)), r.y, pos, BAR_PREFIX);
  }
}

/** Where a vertical border meets a label row drawn as tmux's border line (tmuxRows), the junction
 * tmux draws there (`┬` under the top, `├` beside a lower pane's row, …); otherwise the plain `│`,
 * which also puts a junction copied from the last frame back when the rows go back to ws's. */
function joinBorders(g: Grid, area: { x: number; y: number; cols: number; rows: number }, rects: PaneRect[], tmuxRows: boolean) {
  // A border cell: in the area, and neither a pane's nor its label row's.
  const border = (x: number, y: number) =>
    x >= area.x && x < area.x + area.cols && y >= area.y && y < area.y + area.rows &&
    !rects.some((o) => x >= o.x && x < o.x + o.cols && ((y >= o.y && y < o.y + o.rows) || y === o.header?.y));
  const labelRow = (x: number, y: number) => rects.some((o) => o.header && o.header.y === y && x >= o.header.x && x < o.header.x + o.header.cols);
  for (const r of rects) {
    if (!r.header) continue;
    const y = r.header.y;
    for (const x of [r.header.x - 1, r.header.x + r.header.cols]) {
      if (!border(x, y)) continue;
      let ch = "│";
      if (tmuxRows) {
        const key = `${border(x, y - 1) ? "u" : ""}${border(x, y + 1) ? "d" : ""}${labelRow(x - 1, y) ? "l" : ""}${labelRow(x + 1, y) ? "r" : ""}`;
        ch = JUNCTIONS[key] ?? "│";
      }
      if (g.chars[y * g.cols + x] !== ch) g.set(x, y, ch, 1, BORDER.fg);
    }
  }
}

const JUNCTIONS: Record<string, string> = { dlr: "┬", udr: "├", udl: "┤", udlr: "┼", dr: "┌", dl: "┐", ud: "│" };

/** A popup's box: blank, framed, its pane's label (and how it ended) in the top edge. */
function drawPopup(g: Grid, pane: Pane, r: { x: number; y: number; cols: number; rows: number }) {
  g.fill(r.x, r.y, r.cols, r.rows, " ");
  g.fill(r.x + 1, r.y, r.cols - 2, 1, "─", POPUP_BORDER);
  g.fill(r.x + 1, r.y + r.rows - 1, r.cols - 2, 1, "─", POPUP_BORDER);
  g.fill(r.x, r.y + 1, 1, r.rows - 2, "│", POPUP_BORDER);
  g.fill(r.x + r.cols - 1, r.y + 1, 1, r.rows - 2, "│", POPUP_BORDER);
  g.text(r.x, r.y, "┌", POPUP_BORDER);
  g.text(r.x + r.cols - 1, r.y, "┐", POPUP_BORDER);
  g.text(r.x, r.y + r.rows - 1, "└", POPUP_BORDER);
  g.text(r.x + r.cols - 1, r.y + r.rows - 1, "┘", POPUP_BORDER);
  const label = ` ${pane.id}: ${pane.label}${pane.exited ? ` [exited: ${pane.exitText}]` : ""} `;
  if (r.cols > 4) g.text(r.x + 2, r.y, label, POPUP_BORDER, r.cols - 4);
}

function placeCursor(g: Grid, v: UiView, pane: Pane, r: PaneRect) {
  if (v.copy && v.copy.pane === pane.id) {
    g.cursor = { x: r.x + Math.min(v.copy.x, r.cols - 1), y: r.y + Math.min(v.copy.y, r.rows - 1), visible: true, shape: 2 };
    return;
  }
  const s = pane.emulator;
  const x = Math.min(s.cursorX, s.cols - 1, r.cols - 1);
  const y = Math.min(s.cursorY, r.rows - 1);
  const modes = s.modes;
  g.cursor = { x: r.x + x, y: r.y + y, visible: !modes.cursorHidden && !v.prompt && !v.overlay, shape: modes.cursorShape };
}

const tabLabel = (s: Session, i: number, v?: Pick<UiView, "tabBadge" | "bellMark" | "baseIndex" | "tabNumber">) => {
  const t = s.currentWorkspace.tabs[i]!;
  const panes = panesOf(t.layout);
  const badge = v?.tabBadge?.(panes);
  const bell = v?.bellMark?.(panes) ? "!" : "";
  return ` ${v?.tabNumber?.(i) ?? i + (v?.baseIndex ?? 1)}:${s.tabName(t)}${bell}${t.zoomed !== undefined ? " Z" : ""}${badge ? ` ${badge}` : ""} `;
};

/** The tab whose label is at column x of the tab bar (for mouse clicks). */
export function tabAt(s: Session, x: number, v?: Pick<UiView, "tabBadge" | "bellMark" | "baseIndex" | "tabNumber">): number | undefined {
  let at = 0;
  const tabs = s.currentWorkspace.tabs;
  for (let i = 0; i < tabs.length; i++) {
    const w = textWidth(tabLabel(s, i, v));
    if (x >= at && x < at + w) return i;
    at += w + 1;
  }
  return undefined;
}

/** Everything the tab bar's cells follow from: its labels, the active one, the workspace, the prefix. */
function tabBarNote(g: Grid, s: Session, v: UiView): string {
  if (!s.bars) return "off";
  const ws = s.currentWorkspace;
  const st = bar(v);
  return `${g.cols} ${st.fg} ${st.bg} ${ws.active} ${v.prefixPending}\0${ws.name}\0${ws.tabs.map((_, i) => tabLabel(s, i, v)).join("\0")}`;
}

function drawTabBar(g: Grid, s: Session, v: UiView) {
  if (!s.bars) return;
  const BAR = bar(v);
  const ws = s.currentWorkspace;
  g.fill(0, 0, g.cols, 1, " ", BAR);
  let x = 0;
  ws.tabs.forEach((_, i) => {
    if (x >= g.cols) return;
    x += g.text(x, 0, tabLabel(s, i, v), i === ws.active ? BAR_ACTIVE : BAR, g.cols - x);
    x += g.text(x, 0, " ", BAR, g.cols - x);
  });
  const right = ` ${ws.name} `;
  const w = textWidth(right);
  if (x + w <= g.cols) g.text(g.cols - w, 0, right, v.prefixPending ? BAR_PREFIX : BAR_ACTIVE);
}

/** The bars' style: keys.toml's status-style over ws's own. */
const bar = (v: UiView): Style => (v.statusStyle ? { ...BAR, ...v.statusStyle } : BAR);

/** What the status line says, when it says it in the bar (not a prompt, which places the cursor). */
interface StatusText {
  prefix: boolean;
  copy: boolean;
  left: string;
  where?: string;
  badge?: string;
  failed?: string;
  msg?: string;
  hint: string;
}

function statusText(s: Session, v: UiView, where?: string): StatusText {
  const ws = s.currentWorkspace;
  const tab = ws.tabs[ws.active];
  const parts = v.statusParts?.();
  const left = parts ? ` ${parts.left} ` : ` [${ws.name}] tab ${v.tabNumber?.(ws.active) ?? ws.active + (v.baseIndex ?? 1)}/${ws.tabs.length}  pane ${tab?.focused ?? "-"}${tab?.zoomed !== undefined ? " (zoomed)" : ""} `;
  const badge = !parts || parts.badge ? v.statusBadge?.() : undefined;
  const hint = v.copy ? " q exit  / search  v select  V lines  y copy " : parts ? ` ${parts.right} ` : " C-Space ? help ";
  return { prefix: v.prefixPending, copy: !!v.copy, left, where, badge, failed: failedNote(s, ws), msg: v.copy?.message ?? v.message, hint };
}

/** Everything the status line's cells follow from; undefined for a prompt (drawn every frame). */
function statusNote(g: Grid, s: Session, v: UiView): { note: string | undefined; text?: StatusText } {
  if (g.rows - 1 < 1) return { note: "none" };
  if (!s.bars && !v.prompt && !v.message && !v.prefixPending && !v.copy) return { note: "off" };
  if (v.prompt) return { note: undefined };
  const t = statusText(s, v);
  const st = bar(v);
  return { note: `${g.cols} ${st.fg} ${st.bg} ${t.prefix} ${t.copy}\0${t.left}\0${t.badge ?? ""}\0${t.failed ?? ""}\0${t.msg ?? ""}\0${t.hint}`, text: t };
}

function drawStatus(g: Grid, s: Session, v: UiView, where?: string, said?: StatusText) {
  const y = g.rows - 1;
  if (y < 1) return;
  // With the bars off (status = "off"), the line shows over the panes only while it has something
  // to say: a prompt, a message, the prefix or copy mode, as tmux shows its messages then.
  if (!s.bars && !v.prompt && !v.message && !v.prefixPending && !v.copy) return;
  const BAR = bar(v);
  g.fill(0, y, g.cols, 1, " ", BAR);
  if (v.prompt) {
    const p = v.prompt;
    const used = g.text(0, y, p.confirm ? ` ${p.label} ` : ` ${p.label}: `, BAR_PREFIX);
    const before = [...p.text].slice(0, p.pos).join("");
    g.text(used, y, p.text, BAR, g.cols - used - 1);
    if (p.choices) g.text(used + textWidth(p.text) + 2, y, p.choices.join("  "), { ...BAR, attrs: DIM }, Math.max(0, g.cols - used - textWidth(p.text) - 3));
    g.cursor = { x: Math.min(g.cols - 1, used + textWidth(before)), y, visible: true, shape: 0 };
    return;
  }
  const t = said ?? statusText(s, v, where);
  let x = 0;
  if (t.prefix) x += g.text(x, y, " PREFIX ", BAR_PREFIX);
  if (t.copy) x += g.text(x, y, " COPY ", BAR_PREFIX);
  x += g.text(x, y, t.left, BAR, g.cols - x);
  if (t.where) x += g.text(x, y, `${t.where} `, BAR, g.cols - x);
  if (t.badge) x += g.text(x, y, t.badge, BAR_PREFIX, g.cols - x);
  if (t.failed) x += g.text(x, y, t.failed, BAR_PREFIX, g.cols - x);
  if (t.msg) g.text(x + 1, y, t.msg, { ...BAR, attrs: BOLD }, g.cols - x - 1);
  else {
    const w = textWidth(t.hint);
    if (x + w < g.cols) g.text(g.cols - w, y, t.hint, { ...BAR, attrs: DIM });
  }
}

/** Panes held after their program failed at start (a template's agent that exited 1, make without
 * a Makefile), in any workspace, those on screen first: the status line says so until they close. */
function failedNote(s: Session, ws: Workspace): string | undefined {
  const held: Pane[] = [];
  for (const tab of ws.tabs) for (const id of panesOf(tab.layout)) {
    const p = s.panes.get(id);
    if (p?.held) held.push(p);
  }
  for (const p of s.panes.values()) if (p.held && !held.includes(p)) held.push(p);
  const p = held[0];
  if (!p) return undefined;
  return ` pane ${p.id} (${p.commandName}) failed: ${p.exitText}${held.length > 1 ? ` +${held.length - 1}` : ""} `;
}

function drawOverlay(g: Grid, o: Overlay) {
  const width = Math.min(g.cols - 2, Math.max(textWidth(o.title) + 4, ...o.lines.map((l) => textWidth(l) + 4)));
  const height = Math.min(g.rows - 2, o.lines.length + 2);
  if (width < 4 || height < 3) return;
  const x0 = Math.floor((g.cols - width) / 2);
  const y0 = Math.floor((g.rows - height) / 2);
  g.fill(x0, y0, width, height, " ", BOX);
  g.text(x0 + 2, y0, o.title, { ...BOX, attrs: BOLD }, width - 4);
  const visible = height - 2;
  for (let i = 0; i < visible; i++) {
    const li = o.scroll + i;
    const line = o.lines[li];
    if (line === undefined) break;
    const st = li === o.selected ? BOX_SEL : BOX;
    if (li === o.selected) g.fill(x0 + 1, y0 + 1 + i, width - 2, 1, " ", st);
    g.text(x0 + 2, y0 + 1 + i, line, st, width - 4);
  }
  const more = o.lines.length > visible ? ` ${o.scroll + 1}-${Math.min(o.lines.length, o.scroll + visible)}/${o.lines.length} ` : "";
  if (more) g.text(x0 + width - textWidth(more) - 1, y0 + height - 1, more, { ...BOX, attrs: DIM });
}
