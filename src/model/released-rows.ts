// xterm's rows that left for the history store are garbage (as is a terminal put away,
// resting-emulator.ts), but a server whose panes went quiet allocates next to nothing, so the
// collector would not run and the memory would stay taken (a hundred panes' settled history:
// hundreds of MB; two hundred panes put away: ~50 MB). After a burst of released memory this asks
// for one full collection, a moment later (so the panes settling together share it) and rarely
// (a full collection stops the server for tens of milliseconds); a smaller sum is collected once
// the releases stop (panes going quiet one after another).

/** Bytes released before a collection is worth asking for. */
export const COLLECT_AFTER_BYTES = 32 * 1024 * 1024;
/** ...or, once nothing more is released for QUIET_MS, this many. */
export const COLLECT_QUIET_BYTES = 4 * 1024 * 1024;
const DELAY_MS = 1000;
const QUIET_MS = 1000;
/** The least time between two collections. */
const GAP_MS = 10_000;

let pending = 0;
let timer: ReturnType<typeof setTimeout> | undefined;
let quietTimer: ReturnType<typeof setTimeout> | undefined;
let lastAt = Number.NEGATIVE_INFINITY;

/** `bytes` of xterm's memory are no longer referenced. */
export function releasedRows(bytes: number): void {
  pending += bytes;
  if (timer !== undefined) return;
  if (pending < COLLECT_AFTER_BYTES) {
    if (pending < COLLECT_QUIET_BYTES) return;
    clearTimeout(quietTimer);
    quietTimer = setTimeout(() => {
      quietTimer = undefined;
      if (timer === undefined) schedule();
    }, QUIET_MS);
    (quietTimer as { unref?: () => void }).unref?.();
    return;
  }
  schedule();
}

function schedule(): void {
  clearTimeout(quietTimer);
  quietTimer = undefined;
  const wait = Math.max(DELAY_MS, lastAt + GAP_MS - performance.now());
  timer = setTimeout(collect, wait);
  (timer as { unref?: () => void }).unref?.();
}

function collect(): void {
  timer = undefined;
  pending = 0;
  lastAt = performance.now();
  Bun.gc(true);
}
