// Every pane's output is parsed on the daemon's one thread, which also answers keys, draws frames
// and serves sockets. Panes with output waiting take turns here, a piece each, for at most
// SLICE_MS per event-loop turn, however many of them flood: the loop gets keys and frames in
// between, and a flood still keeps the parser busy all the time the loop is otherwise idle.
import { log } from "../log";

/** The longest the loop parses before it takes keys, frames and sockets again (one piece can
 * overrun it: a 2 KiB piece of short lines takes up to ~3 ms). An echo beside a flood takes a few
 * turns, each of which may wait for a slice: 1 ms gave faster keys than 2 or 4. */
export const SLICE_MS = 1;

export interface Parser {
  /** Parse one piece; false when this parser has nothing more it can parse now. */
  parsePiece(): boolean;
  /** Called once after each slice in which it parsed. */
  sliceDone(): void;
}

/** How long output waits for the loop after someone types or sends text into a pane: the echo
 * then takes the few turns it needs (read the key, read and parse the echo, draw the frame)
 * without a slice of flood before each. Typing costs a flood at most this per key. */
export const INPUT_HOLD_MS = 50;

const ready = new Set<Parser>();
let scheduled = false;
let heldUntil = 0;
let lastInput = -Infinity;
/** The parsers that had a piece in this slice (reused: a flood runs a slice every turn). */
const parsed = new Set<Parser>();

/** Parsing between two holds at least: input sent nonstop (a script, a stuck key) then holds
 * parsing 50 ms of every 58 at most, never stops it. */
const HOLD_GAP_MS = 8;

/** Input went to a pane: hold the slices for INPUT_HOLD_MS. (A quiet pane's echo is parsed as it
 * is read, outside the slices: see Pane.receive.) */
export function inputSent(): void {
  const now = performance.now();
  lastInput = now;
  if (now >= heldUntil + HOLD_GAP_MS) {
    heldUntil = now + INPUT_HOLD_MS;
    holdListener?.(performance.timeOrigin + heldUntil);
  }
}

/** Milliseconds since input last went to any pane (Infinity: none yet). */
export function msSinceInput(): number {
  return performance.now() - lastInput;
}

/** How much longer output waits for input (ms; ≤ 0: not held). */
export function inputHeldFor(): number {
  return heldUntil - performance.now();
}

let holdListener: ((untilEpochMs: number) => void) | undefined;

/** Told of each hold (as a wall-clock time): the emulator worker holds its floods too. */
export function onInputHold(f: (untilEpochMs: number) => void): void {
  holdListener = f;
}

/** `p` has output waiting: it is parsed in the coming slices until parsePiece says false. */
export function wantParse(p: Parser): void {
  ready.add(p);
  if (scheduled) return;
  scheduled = true;
  setImmediate(runSlice);
}

function runSlice(): void {
  const now = performance.now();
  if (now < heldUntil) {
    setTimeout(runSlice, heldUntil - now);
    return;
  }
  scheduled = false;
  const end = now + SLICE_MS;
  parsed.clear();
  try {
    while (ready.size && performance.now() < end) {
      for (const p of ready) {
        parsed.add(p);
        if (!parseGuarded(p)) ready.delete(p);
        if (performance.now() >= end) break;
      }
    }
    // Each parser is told on its own: one that throws keeps none of the others from their listeners.
    for (const p of parsed) {
      try {
        p.sliceDone();
      } catch (e) {
        log.error("a pane's listeners failed after parsing:", e);
      }
    }
  } finally {
    parsed.clear();
    // Whatever went wrong, the other panes are not left unparsed (a paused pane reads nothing
    // more, so nothing else would ask for a slice).
    if (ready.size && !scheduled) {
      scheduled = true;
      setImmediate(runSlice);
    }
  }
}

/** One piece; a parser that throws is logged and leaves the turns (it asks again with wantParse
 * when more comes), so it can't take every slice from the others. */
function parseGuarded(p: Parser): boolean {
  try {
    return p.parsePiece();
  } catch (e) {
    log.error("a pane's parser failed:", e);
    return false;
  }
}
