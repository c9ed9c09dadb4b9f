// A resize that reflows the cursor's own line (xterm's reflowCursorLine, what tmux does: an
// unfinished line, a progress bar or a prompt without readline, keeps its text through a narrow
// split and back). xterm moves the line's rows but leaves the cursor's column clamped to the
// narrower width, so the next character would land in the middle of the line: the cursor is put
// back at the same place in the line's text.
import type { Terminal } from "@xterm/headless";
import { coreOf } from "./xterm-internals";

/** xterm's active buffer: the cursor as it keeps it (y counted from the screen's top row). */
interface CursorParts {
  x: number;
  y: number;
  ybase: number;
}

function buffer(term: Terminal): CursorParts | undefined {
  const b = coreOf(term)?.buffer;
  return b && typeof b.x === "number" && typeof b.y === "number" && typeof b.ybase === "number" ? (b as CursorParts) : undefined;
}

/** Resize `term`, keeping the cursor at the same character of its (reflowed) line. */
export function resizeKeepingCursor(term: Terminal, cols: number, rows: number): void {
  const b = buffer(term);
  const buf = term.buffer.active;
  if (!b || cols === term.cols || buf.type === "alternate") return term.resize(cols, rows);
  const row = b.ybase + b.y;
  let first = row;
  while (first > 0 && buf.getLine(first)?.isWrapped) first--;
  const offset = (row - first) * term.cols + b.x;
  // A marker on the line's first row follows it through the reflow (rows inserted or removed above).
  const marker = term.registerMarker(first - row);
  term.resize(cols, rows);
  if (!marker || marker.isDisposed || marker.line < 0) return marker?.dispose();
  const after = buffer(term);
  if (after) {
    const at = marker.line + Math.floor(offset / cols);
    after.x = offset % cols;
    after.y = Math.max(0, Math.min(term.rows - 1, at - after.ybase));
  }
  marker.dispose();
}
