// A request that waits (run, agent_send's wait): one answer, a deadline, the client going away, and
// everything it set up undone once it is answered.
import { WsError } from "../protocol/errors";

export interface Waiting<T> {
  /** Answer (once; later calls do nothing) and undo everything registered. */
  finish(r: T | WsError): void;
  /** Run `fn` after `ms`, unless answered first. */
  later(ms: number, fn: () => void): void;
  /** Undo this when answered (a bus listener's removal). */
  onFinish(fn: () => void): void;
  /** Whether it has been answered. */
  finished(): boolean;
}

/** `timeoutMs` 0 waits without a limit; `timedOut` says what ran out. */
export function waiting<T>(o: { signal?: AbortSignal; timeoutMs: number; timedOut: () => WsError }, start: (w: Waiting<T>) => void): Promise<T> {
  const { promise, resolve, reject } = Promise.withResolvers<T>();
  const cleanups: (() => void)[] = [];
  let finished = false;
  const w: Waiting<T> = {
    finish(r) {
      if (finished) return;
      finished = true;
      for (const c of cleanups) c();
      r instanceof WsError ? reject(r) : resolve(r);
    },
    later(ms, fn) {
      const t = setTimeout(fn, ms);
      cleanups.push(() => clearTimeout(t));
    },
    onFinish(fn) {
      cleanups.push(fn);
    },
    finished: () => finished,
  };
  if (o.timeoutMs > 0) w.later(o.timeoutMs, () => w.finish(o.timedOut()));
  if (o.signal) {
    const onAbort = () => w.finish(new WsError("the client went away", "internal"));
    o.signal.addEventListener("abort", onAbort);
    w.onFinish(() => o.signal!.removeEventListener("abort", onAbort));
  }
  start(w);
  return promise;
}
