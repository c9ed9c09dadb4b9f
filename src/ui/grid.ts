// A screen of cells: what the compositor draws into and the diff compares.
// Flat typed arrays; the interface keeps two and reuses them (clear, copyRect) instead of
// allocating a screen per frame.

import { CellArrays, PALETTE, RGB } from "../model/cells";
import { clusterWidth } from "../model/char-width";
export { BOLD, DIM, ITALIC, UNDERLINE, BLINK, INVERSE, INVISIBLE, STRIKE, OVERLINE, UL_SHIFT, UL_STYLE, DEFAULT_COLOR, PALETTE, RGB } from "../model/cells";

export const pal = (n: number) => PALETTE | (n & 0xff);
export const rgb = (n: number) => RGB | (n & 0xffffff);

export interface Style {
  fg?: number;
  bg?: number;
  attrs?: number;
}

export interface Cursor {
  x: number;
  y: number;
  visible: boolean;
  /** DECSCUSR shape, 0 = terminal default. */
  shape: number;
}

const segmenter = new Intl.Segmenter(undefined, { granularity: "grapheme" });

/** Display width of one grapheme cluster (0, 1 or 2): the emulator's table, so what ws draws
 * itself (names, titles, the status line) takes the cells a pane's program would get. */
export function graphemeWidth(g: string): number {
  return clusterWidth(g);
}

/** Printable ASCII only: one cell per character, nothing to segment. Nearly every label, name and
 * status is, and segmenting costs a frame ~0.2 ms for the tab bar alone (measured per key echo). */
function isPrintableAscii(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 || c > 0x7e) return false;
  }
  return true;
}

/** Display width of a string. */
export function textWidth(s: string): number {
  if (isPrintableAscii(s)) return s.length;
  let w = 0;
  for (const { segment } of segmenter.segment(s)) w += graphemeWidth(segment);
  return w;
}

export class Grid extends CellArrays {
  readonly cols: number;
  readonly rows: number;
  /** OSC 8 hyperlinks ("params;uri") by cell index: few cells have one, so a map. */
  readonly links = new Map<number, string>();
  cursor: Cursor = { x: 0, y: 0, visible: false, shape: 0 };
  /** Set when this grid began as a copy of `basedOn` (copyAll): then only the rows marked in
   * `changedRows` can differ from it, and the diff against it looks at those alone. */
  basedOn: Grid | null = null;
  /** Counts the times this grid was started anew (copyAll, clear), and which of `basedOn`'s it
   * copied: a base started anew since is no longer what this grid began as. */
  private generation = 0;
  private baseGeneration = -1;
  readonly changedRows: Uint8Array;
  /** What drew whole rows of this grid, by what (the compositor's bars): a later frame that starts
   * as a copy of this one keeps such a row, neither drawn nor diffed, while its note is the same. */
  readonly notes = new Map<string, string>();

  constructor(cols: number, rows: number) {
    super(Math.max(0, cols) * Math.max(0, rows));
    this.cols = Math.max(0, cols);
    this.rows = Math.max(0, rows);
    this.changedRows = new Uint8Array(this.rows);
  }

  /** Become a copy of `from` (same size), cells and cursor, remembering it as the base. */
  copyAll(from: Grid): void {
    if (from.cols !== this.cols || from.rows !== this.rows) throw new Error("copyAll: grids differ in size");
    if (from.basedOn === this && from.baseGeneration === this.generation) {
      // `from` began as a copy of this very grid, unchanged since (the frame before last, which
      // the interface draws the next frame into): only its marked rows can differ. A key's echo
      // then copies a row or three, not the whole screen.
      for (let y = 0; y < this.rows; y++) if (from.changedRows[y]) this.copyCells(from, y * this.cols, y * this.cols, this.cols);
    } else this.copyCells(from, 0, 0, from.chars.length);
    this.generation++;
    this.links.clear();
    for (const [i, l] of from.links) this.links.set(i, l);
    this.cursor = { ...from.cursor };
    this.notes.clear();
    for (const [k, n] of from.notes) this.notes.set(k, n);
    this.changedRows.fill(0);
    this.basedOn = from;
    this.baseGeneration = from.generation;
  }

  /** Rows y0..y1 (inclusive, clipped) may now differ from the base. */
  markRows(y0: number, y1: number): void {
    for (let y = Math.max(0, y0); y <= Math.min(this.rows - 1, y1); y++) this.changedRows[y] = 1;
  }

  /** Back to blank cells and a hidden cursor, as a new grid. */
  clear(): void {
    this.basedOn = null;
    this.generation++;
    this.chars.fill(" ");
    this.width.fill(1);
    this.fg.fill(0);
    this.bg.fill(0);
    this.attrs.fill(0);
    this.ul.fill(0);
    this.links.clear();
    this.notes.clear();
    this.cursor = { x: 0, y: 0, visible: false, shape: 0 };
  }

  /** Copy a rectangle of cells from a grid of the same size (a pane unchanged since `from` was
   * drawn). Pane rectangles never cut a wide character (renderPane blanks one at the edge). */
  copyRect(from: Grid, x: number, y: number, w: number, h: number): void {
    if (from.cols !== this.cols || from.rows !== this.rows) throw new Error("copyRect: grids differ in size");
    const x0 = Math.max(0, x), x1 = Math.min(this.cols, x + w);
    if (x1 <= x0) return;
    for (let r = Math.max(0, y); r < Math.min(this.rows, y + h); r++) {
      const a = r * this.cols + x0, b = r * this.cols + x1;
      this.copyCells(from, a, a, b - a);
      if (this.links.size || from.links.size)
        for (let i = a; i < b; i++) {
          const l = from.links.get(i);
          if (l === undefined) this.links.delete(i);
          else this.links.set(i, l);
        }
    }
  }

  inside(x: number, y: number): boolean {
    return x >= 0 && y >= 0 && x < this.cols && y < this.rows;
  }

  set(x: number, y: number, ch: string, width: number, fg = 0, bg = 0, attrs = 0, ul = 0, link?: string): void {
    if (!this.inside(x, y)) return;
    // A wide char that would hang off the edge becomes a blank.
    if (width === 2 && x === this.cols - 1) {
      ch = " ";
      width = 1;
    }
    const i = y * this.cols + x;
    this.breakWide(x, y);
    this.put(i, ch, width, fg, bg, attrs, ul);
    if (link !== undefined) this.links.set(i, link);
    else if (this.links.size) this.links.delete(i);
    if (width === 2) {
      this.breakWide(x + 1, y);
      this.put(i + 1, "", 0, fg, bg, attrs, ul);
      if (this.links.size) this.links.delete(i + 1);
    }
  }

  // Overwriting half of a wide char blanks the other half, as terminals do.
  private breakWide(x: number, y: number) {
    const i = y * this.cols + x;
    if (this.width[i] === 0 && x > 0) {
      this.chars[i - 1] = " ";
      this.width[i - 1] = 1;
      if (this.links.size) this.links.delete(i - 1);
    } else if (this.width[i] === 2 && x + 1 < this.cols) {
      this.chars[i + 1] = " ";
      this.width[i + 1] = 1;
    }
  }

  /** Fill a rectangle with one single-width character (a row at a time: this runs every frame). */
  fill(x: number, y: number, w: number, h: number, ch = " ", style: Style = {}): void {
    const x0 = Math.max(0, x), x1 = Math.min(this.cols, x + w);
    if (x1 <= x0) return;
    for (let r = Math.max(0, y); r < Math.min(this.rows, y + h); r++) {
      // Wide chars cut by the edges lose their other half, as with set().
      this.breakWide(x0, r);
      this.breakWide(x1 - 1, r);
      const a = r * this.cols + x0, b = r * this.cols + x1;
      this.chars.fill(ch, a, b);
      this.width.fill(1, a, b);
      this.fg.fill(style.fg ?? 0, a, b);
      this.bg.fill(style.bg ?? 0, a, b);
      this.attrs.fill(style.attrs ?? 0, a, b);
      this.ul.fill(0, a, b);
      if (this.links.size) for (let i = a; i < b; i++) this.links.delete(i);
    }
  }

  /** Write text from (x, y), clipped to maxWidth columns; returns columns used. */
  text(x: number, y: number, s: string, style: Style = {}, maxWidth = this.cols - x): number {
    if (isPrintableAscii(s)) {
      const n = Math.max(0, Math.min(s.length, maxWidth));
      for (let i = 0; i < n; i++) this.set(x + i, y, s[i]!, 1, style.fg, style.bg, style.attrs);
      return n;
    }
    let used = 0;
    for (const { segment } of segmenter.segment(s)) {
      const w = graphemeWidth(segment);
      if (w === 0) continue;
      if (used + w > maxWidth) break;
      this.set(x + used, y, segment, w, style.fg, style.bg, style.attrs);
      used += w;
    }
    return used;
  }

  /** Plain text of a row (for tests and copy mode). */
  rowText(y: number): string {
    let s = "";
    for (let x = 0; x < this.cols; x++) s += this.chars[y * this.cols + x];
    return s;
  }
}
