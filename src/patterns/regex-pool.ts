// Runs clients' regular expressions (wait_for patterns) in helper processes (`ws __regex-worker`),
// each check with a time budget. A pattern that backtracks for ever ((a+)+$ on "aaaa…ab") then
// holds only a helper, never the daemon: past the budget the helper is killed (SIGKILL, which
// frees its core at once; JavaScriptCore's regex JIT ignores Worker.terminate()), that check fails
// with regex_timeout, and a fresh helper takes the next. Literal patterns cannot backtrack; they
// run on the daemon's thread and skip the round trip.
import type { Subprocess } from "bun";
import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { BUILD } from "../build-info";
import { WsError } from "../protocol/errors";
import { LineReader } from "../line-reader";
import { findLines, findMatch, type PatternMatch, type UserPattern } from "./user-pattern";
import { REGEX_WORKER_ARG, type WorkerReply, type WorkerRequest } from "./regex-worker";
import { log } from "../log";

/** How long one check of a pattern against a pane's text may run. */
export const CHECK_BUDGET_MS = 250;
/** Helpers at most: one per spare core (two at most), so a burst of runaway patterns leaves a
 * core to the daemon. */
const HELPERS = Math.max(1, Math.min(2, availableParallelism() - 1));
/** Checks waiting for a helper. A wait has one check queued at most, so this is plenty. */
const MAX_QUEUED = 1024;
/** An idle helper exits after this long; the next check starts a new one. */
const IDLE_EXIT_MS = 30_000;
/** A helper not ready after this long is given up on. */
const START_WITHIN_MS = 10_000;

/** How to start a helper: this binary, or bun with the source entry. */
function helperArgv(): string[] {
  const self = BUILD !== "dev" ? [process.execPath] : [process.execPath, fileURLToPath(new URL("../main.ts", import.meta.url))];
  return [...self, REGEX_WORKER_ARG, String(process.pid)];
}

interface Job {
  pattern: UserPattern;
  /** Its caller's earlier checks all finished in time: it goes ahead of untried ones. */
  proven: boolean;
  /** The text to match, read when a helper takes the check; undefined: never mind. */
  text: () => string | undefined;
  /** Ask for the indices of up to this many matching lines instead of the first match (search). */
  lines?: number;
  resolve: (m: PatternMatch | null | number[]) => void;
  reject: (e: WsError) => void;
}

/** A helper process and the check it is running. */
interface Lane {
  proc: Subprocess<"pipe", "pipe", "inherit">;
  ready: boolean;
  job?: Job;
  jobId: number;
  budget?: ReturnType<typeof setTimeout>;
  idle?: ReturnType<typeof setTimeout>;
}

export class RegexPool {
  /** Checks waiting for a helper: callers with a record of fast checks first, so a burst of new
   * runaway patterns delays them by about one budget, not by the whole burst's. */
  private queues = { proven: [] as Job[], untried: [] as Job[] };
  private lanes = new Set<Lane>();
  /** Killed helpers not yet reaped: they count against the limit until they have gone. */
  private dying = new Set<Subprocess>();
  private nextId = 0;
  private limits: { helpers: number; budgetMs: number; queued: number; argv: string[] };

  constructor(limits: Partial<RegexPool["limits"]> = {}) {
    this.limits = { helpers: HELPERS, budgetMs: CHECK_BUDGET_MS, queued: MAX_QUEUED, argv: helperArgv(), ...limits };
    // Helpers also watch for the daemon's death (regex-worker.ts); this covers an orderly exit.
    process.once("exit", () => {
      for (const lane of this.lanes) lane.proc.kill("SIGKILL");
    });
  }

  /** Pids of the helpers, killed ones not yet gone included. */
  get pids(): number[] {
    return [...[...this.lanes].map((l) => l.proc.pid), ...[...this.dying].map((p) => p.pid)];
  }

  /** The first match of `pattern` in the text `text()` returns when the check runs, or null.
   * Rejects with regex_timeout when the check overran its budget. `proven`: the caller's earlier
   * checks of this pattern all finished in time. */
  match(pattern: UserPattern, text: () => string | undefined, proven = false): Promise<PatternMatch | null> {
    if (pattern.literal) {
      const t = text();
      return Promise.resolve(t === undefined ? null : findMatch(new RegExp(pattern.source, pattern.flags), t));
    }
    return this.enqueue({ pattern, proven, text }) as Promise<PatternMatch | null>;
  }

  /** The indices of the first `max` lines of the text that `pattern` matches, with the same budget
   * and regex_timeout as match. */
  matchingLines(pattern: UserPattern, text: () => string | undefined, max: number): Promise<number[]> {
    if (pattern.literal) {
      const t = text();
      return Promise.resolve(t === undefined ? [] : findLines(new RegExp(pattern.source, pattern.flags), t, max));
    }
    return this.enqueue({ pattern, proven: false, text, lines: max }).then((r) => (Array.isArray(r) ? r : []));
  }

  private enqueue(job: Omit<Job, "resolve" | "reject">): Promise<PatternMatch | null | number[]> {
    if (this.queued >= this.limits.queued) return Promise.reject(new WsError(`${this.queued} pattern checks are already queued; retry`, "busy"));
    return new Promise((resolve, reject) => {
      this.queues[job.proven ? "proven" : "untried"].push({ ...job, resolve, reject });
      this.pump();
    });
  }

  private get queued(): number {
    return this.queues.proven.length + this.queues.untried.length;
  }

  private next(): Job | undefined {
    return this.queues.proven.shift() ?? this.queues.untried.shift();
  }

  /** Hand queued checks to ready, idle helpers; start helpers while there is room. */
  private pump(): void {
    for (const lane of this.lanes) {
      while (lane.ready && !lane.job && this.queued) this.run(lane, this.next()!);
    }
    const starting = [...this.lanes].filter((l) => !l.ready).length;
    if (this.queued > starting && this.lanes.size + this.dying.size < this.limits.helpers) this.spawn();
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
    lane.budget = setTimeout(() => this.overrun(lane), this.limits.budgetMs);
    const req: WorkerRequest = { id: lane.jobId, source: job.pattern.source, flags: job.pattern.flags, text, ...(job.lines !== undefined ? { lines: job.lines } : {}) };
    this.send(lane, JSON.stringify(req) + "\n");
  }

  private send(lane: Lane, line: string): void {
    // A helper that dies mid-write rejects the write (EPIPE). Unhandled, that rejection would end
    // the daemon; the helper's exit is handled by onExit.
    const quiet = (r: unknown) => void (r instanceof Promise && r.catch(() => {}));
    try {
      quiet(lane.proc.stdin.write(line));
      quiet(lane.proc.stdin.flush());
    } catch (e) {
      this.fail(lane, `unwritable: ${(e as Error).message}`);
    }
  }

  private spawn(): void {
    const env = { ...process.env };
    delete env.BUN_BE_BUN; // it would make the binary bun itself
    let proc: Lane["proc"];
    try {
      proc = Bun.spawn(this.limits.argv, { stdin: "pipe", stdout: "pipe", stderr: "inherit", env });
    } catch (e) {
      // No helper (out of processes?): fail the waiting checks rather than keep them for ever.
      log.error(`regex helper failed to start: ${(e as Error).message}`);
      const err = new WsError(`the pattern matcher could not start: ${(e as Error).message}`, "internal");
      for (const job of [...this.queues.proven.splice(0), ...this.queues.untried.splice(0)]) job.reject(err);
      return;
    }
    proc.unref(); // the daemon's life is its own: a helper must not hold it up
    const lane: Lane = { proc, ready: false, jobId: 0 };
    this.lanes.add(lane);
    lane.budget = setTimeout(() => this.fail(lane, `not ready within ${START_WITHIN_MS} ms`), START_WITHIN_MS);
    void this.readReplies(lane);
    void proc.exited.then(() => this.onExit(lane));
  }

  private async readReplies(lane: Lane): Promise<void> {
    const lines = new LineReader(Infinity, "a helper's answer");
    try {
      for await (const chunk of lane.proc.stdout) for (const line of lines.push(chunk)) this.onReply(lane, JSON.parse(line) as WorkerReply);
    } catch (e) {
      if (this.lanes.has(lane)) this.fail(lane, `unreadable answer: ${(e as Error).message}`);
    }
  }

  private onReply(lane: Lane, r: WorkerReply): void {
    if (!this.lanes.has(lane)) return;
    if ("ready" in r) {
      clearTimeout(lane.budget);
      lane.ready = true;
    } else {
      if (!lane.job || r.id !== lane.jobId) return;
      clearTimeout(lane.budget);
      const job = lane.job;
      lane.job = undefined;
      if ("error" in r) job.reject(new WsError(`pattern failed: ${r.error}`, "invalid_params", { param: "pattern" }));
      else job.resolve("lines" in r ? r.lines : r.match);
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

  /** Kill a lane's helper; it counts against the limit until it has been reaped. */
  private retire(lane: Lane): void {
    clearTimeout(lane.budget);
    clearTimeout(lane.idle);
    if (!this.lanes.delete(lane)) return;
    const proc = lane.proc;
    this.dying.add(proc);
    void proc.exited.then(() => {
      this.dying.delete(proc);
      this.pump();
    });
    proc.kill("SIGKILL");
  }

  private armIdle(lane: Lane): void {
    clearTimeout(lane.idle);
    lane.idle = setTimeout(() => {
      if (!lane.job) this.retire(lane);
    }, IDLE_EXIT_MS);
    lane.idle.unref();
  }

  /** A helper that failed: its check fails; one that failed before it was ready would fail for
   * every check, so the queue fails too rather than spawning helpers in a loop. */
  private fail(lane: Lane, why: string): void {
    log.error(`regex helper failed: ${why}`);
    const err = new WsError(`the pattern matcher failed: ${why}`, "internal");
    lane.job?.reject(err);
    lane.job = undefined;
    if (!lane.ready) for (const job of [...this.queues.proven.splice(0), ...this.queues.untried.splice(0)]) job.reject(err);
    this.retire(lane);
  }

  /** The helper exited by itself (it should not). */
  private onExit(lane: Lane): void {
    if (this.lanes.has(lane)) this.fail(lane, `exited (${lane.proc.signalCode ?? lane.proc.exitCode})`);
  }
}

/** The daemon's pool; helpers start on the first check that needs one. */
export const regexPool = new RegexPool();
