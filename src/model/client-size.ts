// The client size: the attached terminal's size, clamped, which the server lays out and draws. The upper
// bounds keep memory sane: every pane's emulator stores each row, scrollback included, at full
// width (12 bytes a cell), so one pane with a full 10,000-line history costs ~130 MB at 1,000
// columns and ~1.3 GB at tmux's 10,000. docs/attach.md lists the limits.

export const MIN_COLS = 10;
export const MIN_ROWS = 4;
export const MAX_COLS = 1000;
export const MAX_ROWS = 1000;

export interface ClientSize {
  cols: number;
  rows: number;
}

const clamp = (n: number, lo: number, hi: number) => (Number.isFinite(n) ? Math.min(hi, Math.max(lo, Math.trunc(n))) : lo);

/** The size the server uses for a terminal of `cols` × `rows` (any numbers in, whole ones out). */
export function clampClientSize(cols: number, rows: number): ClientSize {
  return { cols: clamp(cols, MIN_COLS, MAX_COLS), rows: clamp(rows, MIN_ROWS, MAX_ROWS) };
}
