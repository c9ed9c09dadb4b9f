// When a typed key passes each hop of its way through ws, for bench/client-echo.ts's per-hop table
// (docs/pane-pipeline.md "A key's hops"). Off unless WS_HOP_TRACE names a directory: then a process
// keeps the time it passed each hop, at most MAX_MARKS of them, and writes them to
// `<dir>/<pid>.json` as it exits. The time is CLOCK_MONOTONIC's, which every process on the machine
// shares (Bun's hrtime counts from the process's start; its wall clock is not that fine).
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { glibc } from "./ffi";

const CLOCK_MONOTONIC = 1;
const ts = new BigInt64Array(2);

/** The machine's monotonic clock in ms (this process's wall clock where it can't be read). */
export function sharedClock(): number {
  const c = glibc.clock();
  if (c?.clock_gettime(CLOCK_MONOTONIC, ts) !== 0) return performance.timeOrigin + performance.now();
  return Number(ts[0]) * 1e3 + Number(ts[1]) / 1e6;
}

const MAX_MARKS = 200_000;
const dir = process.env.WS_HOP_TRACE;
const names: string[] = [];
const times: number[] = [];

/** Note that this process passed hop `name` now (nothing, unless tracing). */
export function hop(name: string): void {
  if (dir === undefined || names.length >= MAX_MARKS) return;
  names.push(name);
  times.push(sharedClock());
}

if (dir) {
  process.on("exit", () => {
    try {
      writeFileSync(join(dir, `${process.pid}.json`), JSON.stringify({ names, times }));
    } catch {}
  });
}
