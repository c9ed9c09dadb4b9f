// The regex worker's body (see regex-pool.ts): matches a client's pattern against a pane's text off
// the daemon's main thread, so a pattern that backtracks for ever costs only its own time budget.
// Kept tiny: it is a separate entrypoint of the build and loads nothing but user-pattern.ts.
import { findMatch } from "./user-pattern";
import type { WorkerReply, WorkerRequest } from "./regex-pool";

declare const self: Worker;

/** The last pattern compiled: a wait re-checks with the same one each time its pane prints. */
let last: { source: string; flags: string; re: RegExp } | undefined;

self.onmessage = (e: MessageEvent<WorkerRequest>) => {
  const { id, source, flags, text } = e.data;
  let reply: WorkerReply;
  try {
    if (last?.source !== source || last.flags !== flags) last = { source, flags, re: new RegExp(source, flags) };
    reply = { id, match: findMatch(last.re, text) };
  } catch (err) {
    reply = { id, error: (err as Error).message };
  }
  self.postMessage(reply);
};

self.postMessage({ ready: true } satisfies WorkerReply);
