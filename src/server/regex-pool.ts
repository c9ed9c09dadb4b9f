// Runs clients' regular expressions (wait_for patterns) in worker threads, each check with a time
// budget. A pattern that backtracks for ever ((a+)+$ on "aaaa…ab") then holds only a worker, never
// the daemon: past the budget the worker is terminated, that check fails with regex_timeout, and a
// fresh worker takes the next check. Literal patterns cannot backtrack; they run on the main
// thread and skip the round trip.
import { availableParallelism } from "node:os";
import { WsError } from "../protocol/errors";
import { findMatch, type PatternMatch, type UserPattern } from "./user-pattern";

/** How long one check of a pattern against a pane's text may run. */
export const CHECK_BUDGET_MS = 250;
/** Worker threads at most, terminated ones still running included: JavaScriptCore stops a
 * runaway regex only ~1 s after it started, and until then it burns a core. One core is left to
 * the daemon's main thread however many patterns run away. */
const THREADS = Math.max(1, Math.min(2, availableParallelism() - 1));
/** Checks waiting for a worker. A wait has one check queued at most, so this is plenty. */
const MAX_QUEUED = 1024;
/** An idle worker exits after this long; the next check starts a new one (~10 ms). */
const IDLE_EXIT_MS = 30_000;
/** A terminated worker that never reports it has gone is given up on after this long. */
const DYING_FOR_AT_MOST_MS = 10_000;

/** The worker's code: in the binary, the entrypoint build.ts embeds; from sources, the file. */
declare const WS_REGEX_WORKER: string | undefined;
const WORKER_FILE = typeof WS_REGEX_WORKER === "string" ? WS_REGEX_WORKER : new URL("./regex-worker.ts", import.meta.url).href;

export type WorkerRequest = { id: number; source: string; flags: string; text: string };
export type WorkerReply = { ready: true } | { id: number; match: PatternMatch | null } | { id: number; error: string };

interface Job {
  pattern: UserPattern;
  /** Its caller's earlier checks all finished in time: it goes ahead of untried ones. */
  proven: boolean;
  /** The text to match, read when a worker takes the check; undefined: never mind. */
  text: () => string | undefined;
  resolve: (m: PatternMatch | null) => void;
  reject: (e: WsError) => void;
}

/** A worker thread and the check it is running. */
interface Lane {
  worker: Worker;
  ready: boolean;
  job?: Job;
  jobId: number;
  budget?: ReturnType<typeof setTimeout>;
  idle?: ReturnType<typeof setTimeout>;
}

export class RegexPool {
  /** Checks waiting for a worker: callers with a record of fast checks first, so a burst of new
   * runaway patterns delays them by one check's time at most, not by the whole burst's. */
  private queues = { proven: [] as Job[], untried: [] as Job[] };
  private lanes = new Set<Lane>();
  private dying = new Set<Worker>();
  private nextId = 0;

  private limits: { threads: number; budgetMs: number; queued: number };

  constructor(limits: Partial<RegexPool["limits"]> = {}) {
    this.limits = { threads: THREADS, budgetMs: CHECK_BUDGET_MS, queued: MAX_QUEUED, ...limits };
  }

  /** Worker threads running, terminated ones not yet gone included. */
  get threads(): number {
    return this.lanes.size + this.dying.size;
  }

  /** The first match of `pattern` in the text `text()` returns when the check runs, or null.
   * Rejects with regex_timeout when the check overran its budget. `proven`: the caller's earlier
   * checks of this pattern all finished in time. */
  match(pattern: UserPattern, text: () => string | undefined, proven = false): Promise<PatternMatch | null> {
    if (pattern.literal) {
      const t = text();
      return Promise.resolve(t === undefined ? null : findMatch(new RegExp(pattern.source, pattern.flags), t));
    }
    if (this.queued >= this.limits.queued) return Promise.reject(new WsError(`${this.queued} pattern checks are already queued; retry`, "busy"));
    return new Promise((resolve, reject) => {
      this.queues[proven ? "proven" : "untried"].push({ pattern, proven, text, resolve, reject });
      this.pump();
    });
  }

  private get queued(): number {
    return this.queues.proven.length + this.queues.untried.length;
  }

  private next(): Job | undefined {
    return this.queues.proven.shift() ?? this.queues.untried.shift();
  }

  /** Hand queued checks to ready, idle workers; start workers while there is room. */
  private pump(): void {
    for (const lane of this.lanes) {
      while (lane.ready && !lane.job && this.queued) this.run(lane, this.next()!);
    }
    const starting = [...this.lanes].filter((l) => !l.ready).length;
    if (this.queued > starting && this.lanes.size + this.dying.size < this.limits.threads) this.spawn();
  }

  private run(lane: Lane, job: Job): void {
    let text: string | undefined;
    try {
      text = job.text();
    } catch (e) {
      return job.reject(new WsError(`could not read the text to match: ${(e as Error).message}`, "internal"));
    }
    if (text === undefined) return job.resolve(null);
    clearTimeout(lane.idle);
    lane.job = job;
    lane.jobId = ++this.nextId;
    lane.worker.postMessage({ id: lane.jobId, source: job.pattern.source, flags: job.pattern.flags, text } satisfies WorkerRequest);
    lane.budget = setTimeout(() => this.overrun(lane), this.limits.budgetMs);
  }

  private spawn(): void {
    // Not ref'd: an idle worker must not keep the daemon alive.
    const worker = new Worker(WORKER_FILE, { ref: false });
    const lane: Lane = { worker, ready: false, jobId: 0 };
    this.lanes.add(lane);
    worker.onmessage = (e: MessageEvent<WorkerReply>) => this.onReply(lane, e.data);
    worker.addEventListener("error", (e) => this.onError(lane, (e as ErrorEvent).message));
    worker.addEventListener("close", () => this.onClose(lane));
  }

  private onReply(lane: Lane, r: WorkerReply): void {
    if (!this.lanes.has(lane)) return;
    if ("ready" in r) {
      lane.ready = true;
    } else {
      if (!lane.job || r.id !== lane.jobId) return;
      clearTimeout(lane.budget);
      const job = lane.job;
      lane.job = undefined;
      if ("error" in r) job.reject(new WsError(`pattern failed: ${r.error}`, "invalid_params", { param: "pattern" }));
      else job.resolve(r.match);
    }
    this.armIdle(lane);
    this.pump();
  }

  private overrun(lane: Lane): void {
    const job = lane.job!;
    lane.job = undefined;
    job.reject(
      new WsError(
        `pattern took over ${this.limits.budgetMs} ms to match the pane's text and was stopped; simplify it (nested quantifiers such as (a+)+ backtrack without end)`,
        "regex_timeout",
        { param: "pattern" },
      ),
    );
    this.retire(lane);
  }

  /** Terminate a lane's worker; its thread counts against THREADS until it has gone. */
  private retire(lane: Lane): void {
    clearTimeout(lane.budget);
    clearTimeout(lane.idle);
    this.lanes.delete(lane);
    const w = lane.worker;
    this.dying.add(w);
    const gone = () => {
      clearTimeout(giveUp);
      if (this.dying.delete(w)) this.pump();
    };
    const giveUp = setTimeout(() => {
      console.error(`regex worker still running ${DYING_FOR_AT_MOST_MS} ms after it was terminated`);
      gone();
    }, DYING_FOR_AT_MOST_MS);
    giveUp.unref();
    w.addEventListener("close", gone);
    w.terminate();
    this.pump();
  }

  private armIdle(lane: Lane): void {
    clearTimeout(lane.idle);
    lane.idle = setTimeout(() => {
      if (!lane.job) this.retire(lane);
    }, IDLE_EXIT_MS);
    lane.idle.unref();
  }

  private onError(lane: Lane, message: string): void {
    if (!this.lanes.has(lane)) return;
    console.error("regex worker failed:", message);
    const err = new WsError(`the pattern matcher failed: ${message}`, "internal");
    lane.job?.reject(err);
    lane.job = undefined;
    // A worker that fails before it is ready would fail for every check: don't spin on it.
    if (!lane.ready) for (const job of [...this.queues.proven.splice(0), ...this.queues.untried.splice(0)]) job.reject(err);
    this.retire(lane);
  }

  /** The worker went by itself (it should not): fail its check, start another when needed. */
  private onClose(lane: Lane): void {
    if (!this.lanes.has(lane)) return;
    this.lanes.delete(lane);
    clearTimeout(lane.budget);
    clearTimeout(lane.idle);
    lane.job?.reject(new WsError("the pattern matcher exited", "internal"));
    this.pump();
  }
}

/** The daemon's pool; workers start on the first check that needs one. */
export const regexPool = new RegexPool();
