// Move the oldest rows of xterm's normal buffer out of it, in one go, for the history store
// (history-store.ts). A pane's xterm keeps its whole history limit while output pours in (a row
// that scrolls off costs nothing more than without a store: xterm reuses its oldest row), and
// now and then (history-view.ts: when the parse pauses, and before any read) the rows above a
// short margin leave for the store. Most rows of a flood scroll past the limit before that
// happens and are never encoded at all.
// Internal API (xterm-internals.ts): xterm's Buffer (lines, ybase, ydisp) and CircularList (get, trimStart, and the
// _array/_startIndex slots trimStart leaves holding the rows it dropped).
import type { Terminal } from "@xterm/headless";
import { normalBuffer, type RawList } from "./xterm-internals";


/** The normal buffer's row list (a new one after a reset), when xterm's internals look as expected. */
export function normalLines(term: Terminal): RawList | undefined {
  return normalBuffer(term)?.lines;
}

/** Rows of history the normal buffer holds above its screen. */
export function xtermHistoryRows(term: Terminal): number {
  return term.buffer.normal.length - term.rows;
}

/**
 * Hand the normal buffer's `count` oldest rows (never its screen's) to `take`, oldest first with
 * their index, then drop them from xterm as ED 3 drops its history: markers move up with their
 * rows (or go, with theirs), the screen stays. Returns how many rows went.
 */
export function takeTopRows(term: Terminal, count: number, take: (row: never, index: number) => void): number {
  const b = normalBuffer(term);
  if (!b) return 0;
  const lines = b.lines;
  const n = Math.min(count, lines.length - term.rows);
  if (n <= 0) return 0;
  for (let i = 0; i < n; i++) take(lines.get(i) as never, i);
  lines.trimStart(n);
  // trimStart keeps the dropped rows in their slots for reuse; let go of them (what a history
  // that left for the store must not go on costing).
  const arr = lines._array;
  const start = lines._startIndex;
  const max = lines.maxLength;
  if (Array.isArray(arr) && typeof start === "number" && max > 0) {
    for (let i = 1; i <= n; i++) arr[(((start - i) % max) + max) % max] = undefined;
  }
  b.ybase = Math.max(b.ybase - n, 0);
  b.ydisp = Math.max(b.ydisp - n, 0);
  return n;
}
