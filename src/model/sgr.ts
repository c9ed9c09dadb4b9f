// The one SGR writer: a cell's pen (ws's colour and attribute encoding, model/cells.ts) as the
// escape sequence that sets it. The attach client's frames (ui/diff.ts) and a styled pane_read
// (text-sources.ts) both write through it, so the two never disagree on a style.

import { BOLD, DIM, ITALIC, UNDERLINE, BLINK, INVERSE, INVISIBLE, STRIKE, OVERLINE, PALETTE, RGB, UL_SHIFT } from "./cells";

function colorSgr(c: number, base: number): string {
  if (c & RGB) return `${base + 8};2;${(c >> 16) & 0xff};${(c >> 8) & 0xff};${c & 0xff}`;
  if (c & PALETTE) {
    const n = c & 0xff;
    if (n < 8) return String(base + n);
    if (n < 16) return String(base + 60 + n - 8);
    return `${base + 8};5;${n}`;
  }
  return "";
}

/** SGR 58's colour, in the colon form terminals that draw coloured underlines read. */
function underlineColorSgr(c: number): string {
  if (c & RGB) return `58:2::${(c >> 16) & 0xff}:${(c >> 8) & 0xff}:${c & 0xff}`;
  if (c & PALETTE) return `58:5:${c & 0xff}`;
  return "";
}

/** The full pen from a reset (`0;…`): foreground, background, attributes, underline colour. */
export function sgr(fg: number, bg: number, attrs: number, ul = 0): string {
  const p = ["0"];
  if (attrs & BOLD) p.push("1");
  if (attrs & DIM) p.push("2");
  if (attrs & ITALIC) p.push("3");
  if (attrs & UNDERLINE) {
    // A plain underline stays SGR 4, which every terminal reads; the others are 4:n.
    const style = (attrs >> UL_SHIFT) & 7;
    p.push(style > 1 ? `4:${style}` : "4");
    if (ul) p.push(underlineColorSgr(ul));
  }
  if (attrs & BLINK) p.push("5");
  if (attrs & INVERSE) p.push("7");
  if (attrs & INVISIBLE) p.push("8");
  if (attrs & STRIKE) p.push("9");
  if (attrs & OVERLINE) p.push("53");
  const f = colorSgr(fg, 30);
  if (f) p.push(f);
  const b = colorSgr(bg, 40);
  if (b) p.push(b);
  return `\x1b[${p.join(";")}m`;
}
