// xterm's rows that left for the history store are garbage, but a server whose panes went quiet
// allocates next to nothing, so the collector would not run and the memory would stay taken (a
// hundred panes' settled history: hundreds of MB). After a burst of released rows this asks for
// one full collection, a moment later (so the panes settling together share it) and rarely (a
// full collection stops the server for tens of milliseconds).

/** Bytes released before a collection is worth asking for. */
export const COLLECT_AFTER_BYTES = 32 * 1024 * 1024;
const DELAY_MS = 1000;
/** The least time between two collections. */
const GAP_MS = 10_000;

let pending = 0;
let timer: ReturnType<typeof setTimeout> | undefined;
let lastAt = Number.NEGATIVE_INFINITY;

/** `bytes` of xterm's rows are no longer referenced. */
export function releasedRows(bytes: number): void {
  pending += bytes;
  if (pending < COLLECT_AFTER_BYTES || timer !== undefined) return;
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
