// Every pane's output is parsed on the daemon's one thread, which also answers keys, draws frames
// and serves sockets. Panes with output waiting take turns here, a piece each, for at most
// SLICE_MS per event-loop turn, however many of them flood: the loop gets keys and frames in
// between, and a flood still keeps the parser busy all the time the loop is otherwise idle.

/** The longest the loop parses before it takes keys, frames and sockets again (one piece can
 * overrun it: a 2 KiB piece of short lines takes up to ~3 ms). */
export const SLICE_MS = 4;

export interface Parser {
  /** Parse one piece; false when this parser has nothing more it can parse now. */
  parsePiece(): boolean;
  /** Called once after each slice in which it parsed. */
  sliceDone(): void;
}

const ready = new Set<Parser>();
let scheduled = false;

/** `p` has output waiting: it is parsed in the coming slices until parsePiece says false. */
export function wantParse(p: Parser): void {
  ready.add(p);
  if (scheduled) return;
  scheduled = true;
  setImmediate(runSlice);
}

function runSlice(): void {
  scheduled = false;
  const end = performance.now() + SLICE_MS;
  const parsed = new Set<Parser>();
  while (ready.size && performance.now() < end) {
    for (const p of ready) {
      parsed.add(p);
      if (!p.parsePiece()) ready.delete(p);
      if (performance.now() >= end) break;
    }
  }
  for (const p of parsed) p.sliceDone();
  if (ready.size && !scheduled) {
    scheduled = true;
    setImmediate(runSlice);
  }
}
