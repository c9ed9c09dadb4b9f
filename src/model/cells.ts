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
