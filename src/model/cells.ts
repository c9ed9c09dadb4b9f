// How a cell of a pane's screen is described, on the emulator side and in the UI grid alike
// (src/ui/grid.ts re-exports these): attribute bits, and colours as 0 default, PALETTE|n, RGB|0xRRGGBB.

export const BOLD = 1, DIM = 2, ITALIC = 4, UNDERLINE = 8, BLINK = 16, INVERSE = 32, INVISIBLE = 64, STRIKE = 128, OVERLINE = 256;
/** With UNDERLINE, which underline (SGR 4:n): bits 9-11 hold n, 0 for the plain one. */
export const UL_SHIFT = 9;
export const UL_STYLE = 7 << UL_SHIFT;
export const UL_DOUBLE = 2, UL_CURLY = 3, UL_DOTTED = 4, UL_DASHED = 5;

export const DEFAULT_COLOR = 0;
export const PALETTE = 1 << 24;
export const RGB = 2 << 24;

/** Where rendered cells go: the UI's Grid, or a row buffer sent from the emulator worker.
 * `ul` is the underline colour (SGR 58, as fg and bg), `link` an OSC 8 hyperlink ("params;uri"). */
export interface CellSink {
  set(x: number, y: number, ch: string, width: number, fg?: number, bg?: number, attrs?: number, ul?: number, link?: string): void;
}

/** Cells as flat arrays, one per attribute, indexed row * cols + column and blank to start (so a
 * frame copies and compares a run at a time). `chars` "" with `width` 0 is the right half of a wide
 * character. The UI's Grid, the emulator's row buffers and a worker pane's mirror are all these. */
export class CellArrays {
  readonly chars: string[];
  readonly width: Uint8Array;
  readonly fg: Int32Array;
  readonly bg: Int32Array;
  readonly attrs: Uint16Array;
  /** Underline colours (SGR 58), 0 for the text's own. */
  readonly ul: Int32Array;

  constructor(n: number) {
    this.chars = new Array<string>(n).fill(" ");
    this.width = new Uint8Array(n).fill(1);
    this.fg = new Int32Array(n);
    this.bg = new Int32Array(n);
    this.attrs = new Uint16Array(n);
    this.ul = new Int32Array(n);
  }

  /** Cell i's text and attributes (links are the owner's: a Map or a record). */
  protected put(i: number, ch: string, width: number, fg: number, bg: number, attrs: number, ul: number): void {
    this.chars[i] = ch;
    this.width[i] = width;
    this.fg[i] = fg;
    this.bg[i] = bg;
    this.attrs[i] = attrs;
    this.ul[i] = ul;
  }

  /** n cells of `from` starting at index `at` into this at index `to` (links are the caller's). */
  copyCells(from: Pick<CellArrays, "chars" | "width" | "fg" | "bg" | "attrs" | "ul">, at: number, to: number, n: number): void {
    for (let i = 0; i < n; i++) this.chars[to + i] = from.chars[at + i]!;
    this.width.set(from.width.subarray(at, at + n), to);
    this.fg.set(from.fg.subarray(at, at + n), to);
    this.bg.set(from.bg.subarray(at, at + n), to);
    this.attrs.set(from.attrs.subarray(at, at + n), to);
    this.ul.set(from.ul.subarray(at, at + n), to);
  }
}
