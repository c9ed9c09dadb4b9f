// Grid → ANSI. Compares the new frame with what the client last received and
// emits only the changed cells: a cursor move only when the cursor is not
// already there, an SGR only when the pen changes, cursor state at the end.

import { Grid, UNDERLINE } from "./grid";
import { sgr } from "../model/sgr";

const ESC = "\x1b";

/**
 * A cell whose width terminals disagree on: symbols and emoji (✅ is two cells in Unicode 9+
 * tables, one in older ones), anything outside the BMP, and clusters holding anything from U+2000
 * on (an emoji presentation selector as in ❤️ or ©️, a keycap #️⃣, a ZWJ sequence, a skin tone, a
 * flag), which a terminal may measure code point by code point. The cursor is placed again after
 * one, so a terminal that draws it narrower or wider misplaces that cell alone, not the rest of the
 * row. CJK, Latin and letters with combining accents are sure.
 */
export function unsureWidth(ch: string): boolean {
  if (ch.length === 1) {
    const c = ch.charCodeAt(0);
    return c >= 0x2000 && c < 0x3000;
  }
  for (let i = 0; i < ch.length; i++) if (ch.charCodeAt(i) >= 0x2000) return true;
  return false;
}

export class ScreenDiff {
  private last: Grid | null = null;
  private lastShape = -1;
  private lastVisible: boolean | null = null;

  /** Forget what the client has: the next render is a full redraw. */
  reset(): void {
    this.last = null;
    this.lastShape = -1;
    this.lastVisible = null;
  }

  /** Whether `g` is what the client was last sent (what it shows, unless written to since). */
  shows(g: Grid): boolean {
    return this.last === g;
  }

  /** ANSI that turns the client's screen into `next` ("" when nothing changed). */
  render(next: Grid): string {
    let out = "";
    let prev = this.last;
    if (!prev || prev.cols !== next.cols || prev.rows !== next.rows) {
      // Clear, then diff against a blank grid so blank cells cost nothing.
      out += `${ESC}[0m${ESC}[H${ESC}[2J`;
      prev = new Grid(next.cols, next.rows);
      this.lastVisible = null;
    }
    let cx = -1, cy = -1; // where the terminal's cursor is; -1 unknown
    // Every frame ends with the pen reset, so each starts from the default.
    let penFg = 0, penBg = 0, penAttrs = 0, penUl = 0;
    // The hyperlink open on the terminal (OSC 8), like the pen: "" for none.
    let penLink = "";
    const links = next.links.size > 0 || prev.links.size > 0;
    const cols = next.cols;
    // Locals: this loop visits every cell of every frame.
    const nc = next.chars, nw = next.width, nf = next.fg, nb = next.bg, na = next.attrs, nu = next.ul;
    const pc = prev.chars, pw = prev.width, pf = prev.fg, pb = prev.bg, pa = prev.attrs, pu = prev.ul;
    let body = "";
    // A frame drawn on top of a copy of the last one differs from it only in its marked rows.
    const onlyMarked = next.basedOn !== null && next.basedOn === prev;
    const marked = next.changedRows;
    for (let y = 0; y < next.rows; y++) {
      if (onlyMarked && marked[y] === 0) continue;
      const row = y * cols;
      for (let x = 0; x < cols; x++) {
        const i = row + x;
        const w = nw[i]!;
        if (w === 0) continue;
        const same =
          nc[i] === pc[i] && w === pw[i] && nf[i] === pf[i] && nb[i] === pb[i] && na[i] === pa[i] && nu[i] === pu[i] &&
          (w !== 2 || pw[i + 1] === 0) && (!links || next.links.get(i) === prev.links.get(i));
        if (same) continue;
        if (cx !== x || cy !== y) {
          body += `${ESC}[${y + 1};${x + 1}H`;
        }
        const f = next.fg[i]!, b = next.bg[i]!, a = next.attrs[i]!, u = a & UNDERLINE ? nu[i]! : 0;
        if (f !== penFg || b !== penBg || a !== penAttrs || u !== penUl) {
          body += sgr(f, b, a, u);
          penFg = f; penBg = b; penAttrs = a; penUl = u;
        }
        if (links) {
          const l = next.links.get(i) ?? "";
          if (l !== penLink) {
            body += l ? `${ESC}]8;${l}${ESC}\\` : `${ESC}]8;;${ESC}\\`;
            penLink = l;
          }
        }
        const ch = next.chars[i]!;
        body += ch;
        cx = (ch.length > 1 || ch.charCodeAt(0) >= 0x2000) && unsureWidth(ch) ? -1 : x + w;
        cy = y;
        // At the right margin the terminal is in its pending-wrap state: re-position next time.
        if (cx >= cols) cx = -1;
      }
    }
    if (body || out) {
      // Hide the cursor while drawing and ask for one atomic update (DEC 2026; ignored where unknown).
      out = `${ESC}[?2026h${ESC}[?25l` + out + body + (penFg || penBg || penAttrs ? `${ESC}[0m` : "") + (penLink ? `${ESC}]8;;${ESC}\\` : "");
      this.lastVisible = false;
    }
    const c = next.cursor;
    const moved = !this.last || this.last.cursor.x !== c.x || this.last.cursor.y !== c.y;
    if (out || moved) out += `${ESC}[${c.y + 1};${c.x + 1}H`;
    if (c.shape !== this.lastShape) {
      out += `${ESC}[${c.shape} q`;
      this.lastShape = c.shape;
    }
    if (c.visible !== this.lastVisible) {
      out += c.visible ? `${ESC}[?25h` : `${ESC}[?25l`;
      this.lastVisible = c.visible;
    }
    if (body || out.includes("?2026h")) out += `${ESC}[?2026l`;
    this.last = next;
    return out;
  }
}
