// Copy mode: scroll a pane's history, move a cursor, select, search, and
// yield the selected text (sent to the client's clipboard as OSC 52). It works in cells, as the
// screen is drawn, and takes the text behind them from the emulator's cells (model/cell-text.ts):
// a wide character is two cells and one character, a combining mark shares its letter's cell,
// and a line the terminal wrapped is copied as the one line the program wrote.

import type { PaneEmulator } from "../model/pane-emulator";
import { type CellPos, type CellRow, charStart, findInRows, lastTextCell, selectedText } from "../model/cell-text";
import { type KeyEvent, parseMods, ALT, CONTROL } from "../protocol/events";

export interface CopyMode {
  pane: number;
  /** Lines scrolled back from the live screen (0 = bottom). */
  offset: number;
  /** Cursor in viewport coordinates (cells). */
  x: number;
  y: number;
  /** Selection anchor in absolute buffer coordinates, when selecting. */
  anchor?: CellPos;
  /** `V`: the selection is whole lines. */
  lines?: boolean;
  search?: string;
  /** The last search's direction: `/` forward (newer), `?` back (older); `n` repeats it, `N` goes
   * the other way, as in vi and tmux. */
  forward?: boolean;
  /** The search's matches on screen, by viewport row: [start, end) columns; made for one view. */
  shown?: { key: string; rows: [number, number][][] };
  message?: string;
  /** f F t T typed: the next key is the character to find. */
  finding?: Find["kind"];
  /** The last f F t T, which ; repeats and , reverses. */
  lastFind?: Find;
}

interface Find {
  kind: "f" | "F" | "t" | "T";
  ch: string;
}

/** How far { and } look for a blank line (then they stop there, as at the history's ends). */
const PARAGRAPH_SCAN = 1000;

export type CopyAction = { kind: "none" } | { kind: "exit" } | { kind: "copy"; text: string } | { kind: "search"; forward: boolean };

export function enterCopyMode(pane: number, term: PaneEmulator): CopyMode {
  return { pane, offset: 0, x: Math.min(term.cursorX, term.cols - 1), y: term.cursorY };
}

const maxOffset = (t: PaneEmulator) => t.baseY;
const topLine = (cm: CopyMode, t: PaneEmulator) => Math.max(0, t.baseY - cm.offset);
const cursorRow = (cm: CopyMode, t: PaneEmulator): CellRow | undefined => t.cellRows(topLine(cm, t) + cm.y, topLine(cm, t) + cm.y + 1)[0];

/** Scroll by n lines (positive = back in history). */
export function scrollCopy(cm: CopyMode, t: PaneEmulator, n: number): void {
  cm.offset = Math.max(0, Math.min(maxOffset(t), cm.offset + n));
}

function moveY(cm: CopyMode, t: PaneEmulator, dy: number) {
  const y = cm.y + dy;
  if (y < 0) {
    scrollCopy(cm, t, -y);
    cm.y = 0;
  } else if (y >= t.rows) {
    scrollCopy(cm, t, -(y - t.rows + 1));
    cm.y = t.rows - 1;
  } else cm.y = y;
}

/** One character left or right: a wide character's two cells are one step. */
function moveX(cm: CopyMode, t: PaneEmulator, dx: number) {
  const row = cursorRow(cm, t);
  let x = Math.max(0, Math.min(t.cols - 1, cm.x + dx));
  if (dx < 0) x = charStart(row, x);
  else if (row?.widths[x] === 0) x = Math.min(t.cols - 1, x + 1);
  cm.x = x;
}

/** A cell's class for vi's word motions: 0 blank, 1 word (letters, digits, _), 2 other; with
 * `big` (W B E), every non-blank is one class. */
function cellClass(text: string, big: boolean): number {
  if (text === "" || /^\s$/u.test(text)) return 0;
  if (big) return 1;
  return /^[\p{L}\p{N}_]/u.test(text) ? 1 : 2;
}

/** w b e W B E on the cursor's row: the cell the motion lands on (the row's ends at most). */
function wordMotion(row: CellRow | undefined, x: number, motion: string): number {
  if (!row) return x;
  const big = motion === motion.toUpperCase();
  const m = motion.toLowerCase();
  // The row's characters (a wide character's right half skipped), as [cell, class].
  const chars: [number, number][] = [];
  row.cells.forEach((text, i) => {
    if (row.widths[i] !== 0) chars.push([i, cellClass(text, big)]);
  });
  let at = chars.findIndex(([cell]) => cell >= x);
  if (at < 0) return x;
  const cls = (i: number) => chars[i]![1];
  if (m === "w") {
    const start = cls(at);
    while (at < chars.length - 1 && cls(at) === start && start !== 0) at++;
    while (at < chars.length - 1 && cls(at) === 0) at++;
  } else if (m === "e") {
    if (at < chars.length - 1) at++;
    while (at < chars.length - 1 && cls(at) === 0) at++;
    while (at < chars.length - 1 && cls(at + 1) === cls(at)) at++;
  } else {
    if (at > 0) at--;
    while (at > 0 && cls(at) === 0) at--;
    while (at > 0 && cls(at - 1) === cls(at)) at--;
  }
  return chars[at]![0];
}

/** f F t T: the cell found on the cursor's row, or undefined when the character isn't there. */
function findOnRow(row: CellRow | undefined, x: number, f: Find): number | undefined {
  if (!row) return undefined;
  const forward = f.kind === "f" || f.kind === "t";
  const till = f.kind === "t" || f.kind === "T";
  // A repeated t/T starts past the character it stopped before, as vim's ; does.
  const from = forward ? x + (till ? 2 : 1) : x - (till ? 2 : 1);
  for (let i = from; forward ? i < row.cells.length : i >= 0; i += forward ? 1 : -1) {
    if (row.cells[i] !== f.ch) continue;
    return till ? charStart(row, forward ? i - 1 : i + 1) : i;
  }
  return undefined;
}

/** { }: the next blank line up or down (or the last line looked at). */
function paragraph(cm: CopyMode, t: PaneEmulator, down: boolean): void {
  const top = topLine(cm, t);
  const here = top + cm.y;
  const last = t.baseY + t.rows - 1;
  const blank = (r: CellRow | undefined) => !r || r.cells.every((c) => c === "" || c === " ");
  let line = here;
  for (let n = 0; n < PARAGRAPH_SCAN; n++) {
    const next = line + (down ? 1 : -1);
    if (next < 0 || next > last) break;
    line = next;
    if (blank(t.cellRows(line, line + 1)[0]) && !blank(t.cellRows(line + (down ? -1 : 1), line + (down ? 0 : 2))[0])) break;
  }
  moveY(cm, t, line - here);
  cm.x = 0;
}

/** The selection's ends in order (line mode: whole lines). */
function ends(cm: CopyMode, t: PaneEmulator): [CellPos, CellPos] {
  const cur = { x: cm.x, line: topLine(cm, t) + cm.y };
  let [a, b] = [cm.anchor!, cur];
  if (a.line > b.line || (a.line === b.line && a.x > b.x)) [a, b] = [b, a];
  return cm.lines ? [{ x: 0, line: a.line }, { x: Infinity, line: b.line }] : [a, b];
}

/** The selected text, from anchor to cursor (without one, the cursor's row): wrapped rows joined,
 * other lines with newlines between them. */
export function selectionText(cm: CopyMode, t: PaneEmulator): string {
  const [a, b] = cm.anchor ? ends(cm, t) : [{ x: 0, line: topLine(cm, t) + cm.y }, { x: Infinity, line: topLine(cm, t) + cm.y }];
  // One read for the whole selection (the emulator may be on another thread).
  return selectedText(t.cellRows(a.line, b.line + 1), a.line, a, b);
}

/** Whether the viewport cell (x, y) is selected, for drawing. */
export function isSelected(cm: CopyMode, t: PaneEmulator, x: number, y: number): boolean {
  if (!cm.anchor) return false;
  const line = topLine(cm, t) + y;
  const [a, b] = ends(cm, t);
  if (line < a.line || line > b.line) return false;
  if (line === a.line && x < a.x) return false;
  if (line === b.line && x > b.x) return false;
  return true;
}

/** Rows read beyond the view on each side, so a match that crosses the view's edge is marked. */
const MATCH_MARGIN = 2;

/** Whether the viewport cell (x, y) is drawn inverted: selected, or part of a search match. */
export function isMarked(cm: CopyMode, t: PaneEmulator, x: number, y: number): boolean {
  if (isSelected(cm, t, x, y)) return true;
  if (!cm.search) return false;
  const top = topLine(cm, t);
  const key = `${cm.search}\0${top}\0${t.baseY}\0${t.rows}`;
  if (cm.shown?.key !== key) {
    // One read of the view per change of view or search, not one per cell.
    const from = Math.max(0, top - MATCH_MARGIN);
    const rows = t.cellRows(from, top + t.rows + MATCH_MARGIN);
    const marks: [number, number][][] = Array.from({ length: t.rows }, () => []);
    for (const m of findInRows(rows, from, cm.search, 2000)) {
      const endWidth = rows[m.end.line - from]?.widths[m.end.x] === 2 ? 2 : 1;
      for (let line = m.start.line; line <= m.end.line; line++) {
        const r = marks[line - top];
        if (r) r.push([line === m.start.line ? m.start.x : 0, line === m.end.line ? m.end.x + endWidth : t.cols]);
      }
    }
    cm.shown = { key, rows: marks };
  }
  return cm.shown.rows[y]?.some(([s, e]) => x >= s && x < e) ?? false;
}

/** Find `query` forward (newer) from the cursor, or back (older). Moves the view and the cursor onto it. */
export function searchCopy(cm: CopyMode, t: PaneEmulator, query: string, forward: boolean): boolean {
  if (!query) return false;
  cm.search = query;
  cm.forward = forward;
  const found = t.find(query, { line: topLine(cm, t) + cm.y, x: cm.x }, forward);
  if (found) {
    const { line: l, x } = found.start;
    const baseY = t.baseY;
    // Put the match on screen: as close to the current view as possible.
    let top = topLine(cm, t);
    if (l < top) top = l;
    else if (l >= top + t.rows) top = l - t.rows + 1;
    cm.offset = Math.max(0, baseY - top);
    cm.y = l - (baseY - cm.offset);
    cm.x = x;
    cm.message = undefined;
    return true;
  }
  cm.message = `"${query}" not found`;
  return false;
}

/** Copy mode's keys as tmux's emacs table has them (mode-keys = "emacs"); undefined for a key
 * that table doesn't bind. */
function emacsKey(cm: CopyMode, t: PaneEmulator, c: KeyEvent["code"], ch: string | undefined, ctrl: boolean, alt: boolean, page: number): CopyAction | undefined {
  if (ctrl && ch === "g") {
    if (!cm.anchor) return { kind: "exit" };
    cm.anchor = undefined;
  } else if (ctrl && ch === "b") moveX(cm, t, -1);
  else if (ctrl && ch === "f") moveX(cm, t, 1);
  else if (ctrl && ch === "p") moveY(cm, t, -1);
  else if (ctrl && ch === "n") moveY(cm, t, 1);
  else if (ctrl && ch === "a") cm.x = 0;
  else if (ctrl && ch === "e") cm.x = lastTextCell(cursorRow(cm, t));
  else if (ctrl && ch === "v") scrollCopy(cm, t, -page);
  else if (alt && ch === "v") scrollCopy(cm, t, page);
  else if (alt && ch === "f") cm.x = wordMotion(cursorRow(cm, t), cm.x, "e");
  else if (alt && ch === "b") cm.x = wordMotion(cursorRow(cm, t), cm.x, "b");
  else if (alt && ch === "<") {
    cm.offset = maxOffset(t);
    cm.y = 0;
  } else if (alt && ch === ">") {
    cm.offset = 0;
    cm.y = t.rows - 1;
  } else if (ctrl && (ch === " " || ch === "@")) {
    cm.anchor = cm.anchor ? undefined : { x: cm.x, line: topLine(cm, t) + cm.y };
    cm.lines = false;
  } else if ((alt && ch === "w") || (ctrl && ch === "w")) return { kind: "copy", text: selectionText(cm, t) };
  else if (ctrl && (ch === "s" || ch === "r")) return { kind: "search", forward: ch === "s" };
  else if (c === "Esc" || (ch === "q" && !ctrl && !alt)) return { kind: "exit" };
  else return undefined;
  return { kind: "none" };
}

/** A key in copy mode. `modeKeys` is keys.toml's (tmux's option): "vi" takes vi's keys only,
 * "emacs" emacs's only (tmux's two tables); unset, both where they don't clash. */
export function copyKey(cm: CopyMode, t: PaneEmulator, k: KeyEvent, modeKeys?: "vi" | "emacs"): CopyAction {
  const mods = parseMods(k.modifiers);
  const c = k.code;
  const ch = typeof c === "object" && "Char" in c ? c.Char : undefined;
  const ctrl = (mods & CONTROL) !== 0;
  const page = Math.max(1, t.rows - 1);
  cm.message = undefined;
  if (modeKeys === "emacs" && !cm.finding) {
    const done = emacsKey(cm, t, c, ch, ctrl, (mods & ALT) !== 0, page);
    if (done) return done;
    // vi's letters are not emacs's: only the arrows, pages, Home/End and n/N stay.
    if ((ch !== undefined && ch !== "n" && ch !== "N") || ctrl) return { kind: "none" };
  }
  // Emacs's line keys are not vi's.
  if (modeKeys === "vi" && ctrl && (ch === "p" || ch === "n")) return { kind: "none" };
  if (cm.finding) {
    const kind = cm.finding;
    cm.finding = undefined;
    if (ch === undefined || ctrl) return { kind: "none" };
    cm.lastFind = { kind, ch };
    const x = findOnRow(cursorRow(cm, t), cm.x, cm.lastFind);
    if (x !== undefined) cm.x = x;
    return { kind: "none" };
  }
  // Escape clears a selection first, as tmux's copy mode does; then it leaves.
  if (c === "Esc" && cm.anchor) cm.anchor = undefined;
  else if (c === "Esc" || (ch === "q" && !ctrl) || (ctrl && ch === "c")) return { kind: "exit" };
  else if (c === "Up" || (ch === "k" && !ctrl) || (ctrl && ch === "p")) moveY(cm, t, -1);
  else if (c === "Down" || (ch === "j" && !ctrl) || (ctrl && ch === "n")) moveY(cm, t, 1);
  else if (c === "Left" || (ch === "h" && !ctrl)) moveX(cm, t, -1);
  else if (c === "Right" || (ch === "l" && !ctrl)) moveX(cm, t, 1);
  else if (c === "PageUp" || (ctrl && ch === "b")) scrollCopy(cm, t, page);
  else if (c === "PageDown" || (ctrl && ch === "f")) scrollCopy(cm, t, -page);
  else if (ctrl && ch === "u") scrollCopy(cm, t, page >> 1);
  else if (ctrl && ch === "d") scrollCopy(cm, t, -(page >> 1));
  else if (ch === "g") { cm.offset = maxOffset(t); cm.y = 0; }
  else if (ch === "G") { cm.offset = 0; cm.y = t.rows - 1; }
  else if (ch === "0" || c === "Home") cm.x = 0;
  else if (ch === "^") cm.x = Math.max(0, cursorRow(cm, t)?.cells.findIndex((cell) => cell !== "" && cell !== " ") ?? 0);
  else if (ch === "$" || c === "End") cm.x = lastTextCell(cursorRow(cm, t));
  else if (!ctrl && ch !== undefined && "wbeWBE".includes(ch)) cm.x = wordMotion(cursorRow(cm, t), cm.x, ch);
  else if (!ctrl && ch !== undefined && "fFtT".includes(ch)) cm.finding = ch as Find["kind"];
  else if (!ctrl && (ch === ";" || ch === ",") && cm.lastFind) {
    const reverse: Record<Find["kind"], Find["kind"]> = { f: "F", F: "f", t: "T", T: "t" };
    const f = ch === ";" ? cm.lastFind : { kind: reverse[cm.lastFind.kind], ch: cm.lastFind.ch };
    const x = findOnRow(cursorRow(cm, t), cm.x, f);
    if (x !== undefined) cm.x = x;
  }
  else if (!ctrl && ch === "H") cm.y = 0;
  else if (!ctrl && ch === "M") cm.y = (t.rows - 1) >> 1;
  else if (!ctrl && ch === "L") cm.y = t.rows - 1;
  else if (!ctrl && (ch === "{" || ch === "}")) paragraph(cm, t, ch === "}");
  else if (ch === "v" || ch === " " || ch === "V") {
    const lines = ch === "V";
    // v and V switch between character and line selection as vim's do; the same key again ends it.
    if (cm.anchor && cm.lines === lines) cm.anchor = undefined;
    else {
      cm.anchor ??= { x: cm.x, line: topLine(cm, t) + cm.y };
      cm.lines = lines;
    }
  }
  else if (ch === "y" || c === "Enter") return { kind: "copy", text: selectionText(cm, t) };
  else if (ch === "/" || ch === "?") return { kind: "search", forward: ch === "/" };
  else if (ch === "n" && cm.search) searchCopy(cm, t, cm.search, cm.forward ?? true);
  else if (ch === "N" && cm.search) {
    // N goes the other way without changing the direction n keeps.
    const forward = cm.forward ?? true;
    searchCopy(cm, t, cm.search, !forward);
    cm.forward = forward;
  }
  return { kind: "none" };
}

/** OSC 52: ask the client's terminal to put text on the system clipboard. */
export function osc52(text: string): string {
  return `\x1b]52;c;${Buffer.from(text, "utf8").toString("base64")}\x07`;
}
