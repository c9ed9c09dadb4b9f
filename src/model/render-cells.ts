// Copy a rectangle of a pane's xterm buffer into a grid of cells (the UI's, or rows sent from the
// emulator worker).

import type { Terminal, IBufferCell } from "@xterm/headless";
import { charClass } from "../safe-text";
import { activeRows } from "./history-view";
import { type CellSink, BOLD, DIM, ITALIC, UNDERLINE, BLINK, INVERSE, INVISIBLE, STRIKE, OVERLINE, PALETTE, RGB, UL_SHIFT } from "./cells";
import { cellInternals, coreOf } from "./xterm-internals";

let scratch: IBufferCell | undefined;

/** xterm's flags: fg's underline bit, bg's "has extended attributes" bit. */
const FG_UNDERLINE = 0x10000000;
const BG_HAS_EXTENDED = 0x10000000;

/** The underline's style (0 none, 1 single, 2 double, 3 curly, 4 dotted, 5 dashed). Not
 * isUnderline(): xterm calls every hyperlink's cells underlined, which the program did not ask for. */
export function underlineStyle(cell: IBufferCell): number {
  const c = cellInternals(cell);
  if (typeof c.fg !== "number") return cell.isUnderline() ? 1 : 0;
  if (!(c.fg & FG_UNDERLINE)) return 0;
  if (!(c.bg & BG_HAS_EXTENDED)) return 1;
  return ((c.extended?._ext ?? 0) >>> 26) & 7 || 1;
}

/** The underline colour (SGR 58) in ws's colour form; 0 for the text's own. */
export function underlineColor(cell: IBufferCell): number {
  const c = cellInternals(cell);
  if (typeof c.bg !== "number" || !(c.bg & BG_HAS_EXTENDED)) return 0;
  const ext = c.extended?._ext ?? 0;
  const mode = (ext >>> 24) & 3;
  return mode === 3 ? RGB | (ext & 0xffffff) : mode ? PALETTE | (ext & 0xff) : 0;
}

/** A cell's pen in ws's encoding (model/cells.ts). */
export interface Pen {
  fg: number;
  bg: number;
  attrs: number;
  ul: number;
}

/** Read `cell`'s colours and attributes into `pen` (reused: this runs for every cell drawn). */
export function readPen(cell: IBufferCell, pen: Pen): Pen {
  pen.fg = cell.isFgRGB() ? RGB | cell.getFgColor() : cell.isFgPalette() ? PALETTE | cell.getFgColor() : 0;
  pen.bg = cell.isBgRGB() ? RGB | cell.getBgColor() : cell.isBgPalette() ? PALETTE | cell.getBgColor() : 0;
  let attrs = 0;
  pen.ul = 0;
  if (cell.isBold()) attrs |= BOLD;
  if (cell.isDim()) attrs |= DIM;
  if (cell.isItalic()) attrs |= ITALIC;
  const style = underlineStyle(cell);
  if (style) {
    attrs |= UNDERLINE | (style > 1 ? style << UL_SHIFT : 0);
    pen.ul = underlineColor(cell);
  }
  if (cell.isBlink()) attrs |= BLINK;
  if (cell.isInverse()) attrs |= INVERSE;
  if (cell.isInvisible()) attrs |= INVISIBLE;
  if (cell.isStrikethrough()) attrs |= STRIKE;
  if (cell.isOverline()) attrs |= OVERLINE;
  pen.attrs = attrs;
  return pen;
}

const pen: Pen = { fg: 0, bg: 0, attrs: 0, ul: 0 };

/** A hyperlink as the user's terminal gets it, "params;uri", or undefined when it can't be sent
 * safely: only printable ASCII (RFC 3986 URIs are), bounded (docs/limits.md). */
export function linkText(data: { id?: string; uri: string } | undefined): string | undefined {
  if (!data || data.uri.length > LINK_MAX || !/^[\x21-\x7e]+$/.test(data.uri)) return undefined;
  const id = data.id !== undefined && /^[\x21-\x39\x3c-\x7e]{1,64}$/.test(data.id) ? `id=${data.id}` : "";
  return `${id};${data.uri}`;
}
/** The longest hyperlink URI passed on. */
export const LINK_MAX = 2048;

/** The terminal's hyperlinks by id, with the last one looked up kept (a link spans many cells). */
function linkReader(term: Terminal): (cell: IBufferCell) => string | undefined {
  const svc = coreOf(term)?._oscLinkService;
  const getLinkData = svc?.getLinkData;
  if (typeof getLinkData !== "function") return () => undefined;
  let lastId = 0;
  let last: string | undefined;
  return (cell) => {
    const c = cellInternals(cell);
    if (!(c.bg & BG_HAS_EXTENDED)) return undefined;
    const id = c.extended?._urlId ?? 0;
    if (!id) return undefined;
    if (id !== lastId) {
      lastId = id;
      last = linkText(getLinkData.call(svc, id));
    }
    return last;
  };
}

/** Characters a cell never carries to the user's terminal: bidi embeddings, overrides, isolates
 * and marks would reorder what is shown, the line separators and the invisible ones hide text.
 * They take no cell (char-width.ts), so they ride on the cell before them; there they are dropped. */
const hidden = () => charClass(["bidiEmbeddings", "bidiIsolates", "bidiMarks", "lineSeparators", "invisible"], "g");

/** A cell's text as drawn: its cluster without the hidden characters ("" when nothing is left). */
export function drawnText(chars: string): string {
  if (chars.length === 1) {
    // One UTF-16 unit: hidden ones lie in U+061C, U+200B–U+2069 and U+FEFF only.
    const c = chars.charCodeAt(0);
    if (c !== 0x61c && (c < 0x200b || c > 0x2069) && c !== 0xfeff) return chars;
  }
  return chars.replace(hidden(), "");
}

/**
 * Draw `term`'s active buffer at (x0, y0) in `grid`, w × h cells; with `rows` [first, last], only
 * those rows (the rest of the grid is left as it is). `scrollBack` > 0 shows that many lines above
 * the live screen (copy mode).
 */
export function renderPane(term: Terminal, grid: CellSink, x0: number, y0: number, w: number, h: number, scrollBack = 0, rows?: [number, number]): void {
  // (Only a view scrolled into the history reads the store; the screen is xterm's own rows.)
  const buf = scrollBack > 0 ? activeRows(term) : term.buffer.active;
  const top = Math.max(0, buf.baseY - scrollBack);
  const cell = (scratch ??= buf.getNullCell());
  const link = linkReader(term);
  const last = Math.min(h - 1, rows ? rows[1] : Infinity);
  for (let r = Math.max(0, rows ? rows[0] : 0); r <= last; r++) {
    const line = buf.getLine(top + r);
    const y = y0 + r;
    if (!line) {
      for (let c = 0; c < w; c++) grid.set(x0 + c, y, " ", 1);
      continue;
    }
    let before = 1;
    for (let c = 0; c < w; c++) {
      const x = x0 + c;
      if (c >= term.cols || !line.getCell(c, cell)) {
        grid.set(x, y, " ", 1);
        before = 1;
        continue;
      }
      const width = cell.getWidth();
      const wideBefore = before === 2;
      before = width;
      // The right half of a wide character is written with its left half; a zero-width cell with
      // no wide one before it (a format character first on its row) shows as a blank.
      if (width === 0) {
        if (!wideBefore) grid.set(x, y, " ", 1);
        continue;
      }
      const chars = cell.getChars();
      // A blank in the default pen (most of a row): no colour, attribute or link to read. (xterm
      // keeps every attribute in fg's and bg's flag bits, so both 0 is the plain default.)
      if (width === 1 && (chars === "" || chars === " ")) {
        const raw = cellInternals(cell);
        if (raw.fg === 0 && raw.bg === 0) {
          grid.set(x, y, " ", 1);
          continue;
        }
      }
      readPen(cell, pen);
      let ch = drawnText(chars) || " ";
      let cw = width;
      // A wide char cut by the pane's right edge would spill onto the border.
      if (width === 2 && c === w - 1) {
        ch = " ";
        cw = 1;
      }
      grid.set(x, y, ch, cw, pen.fg, pen.bg, pen.attrs, pen.ul, link(cell));
    }
  }
}
