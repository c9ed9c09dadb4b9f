// How a cell of a pane's screen is described, on the emulator side and in the UI grid alike
// (src/ui/grid.ts re-exports these): attribute bits, and colours as 0 default, PALETTE|n, RGB|0xRRGGBB.

export const BOLD = 1, DIM = 2, ITALIC = 4, UNDERLINE = 8, BLINK = 16, INVERSE = 32, INVISIBLE = 64, STRIKE = 128, OVERLINE = 256;

export const DEFAULT_COLOR = 0;
export const PALETTE = 1 << 24;
export const RGB = 2 << 24;

/** Where rendered cells go: the UI's Grid, or a row buffer sent from the emulator worker. */
export interface CellSink {
  set(x: number, y: number, ch: string, width: number, fg?: number, bg?: number, attrs?: number): void;
}
