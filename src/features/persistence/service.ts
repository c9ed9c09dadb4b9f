// The persistence service: restores the save when the server starts, saves in the background after
// model changes (debounced) so a crash loses at most a few seconds, saves on `shutdown_keep`, and
// serves `session_save|restore|discard`. One save runs at a time; a request during a save queues
// one more.
import type { GrantLevel } from "../../protocol/grants";
import { stat } from "node:fs/promises";
import type { Session } from "../../model/session";
import type { ModelEvent } from "../../model/events";
import { savesAfter } from "../events";
import { msSinceInput } from "../../model/parse-slices";
import { counts, decode, encodeText, SaveProblem, type SaveBody, type SavedAgent, type SavedPrompt, type SaveHeader } from "./format";
import { applySave, type RestoreProgress, type RestoreResult } from "./restore";
import { yieldTurn } from "../../model/pace";
import { Snapshotter } from "./snapshot";
import { StaleSave, writeStreamed } from "./save-writer";
import { keepAside, moveAside, readSaveBytes, removeSave, removeStaleTemps } from "./store";

/** A save file larger than this is set aside unread (100 panes with full histories make ~100 MB). */
export const MAX_SAVE_BYTES = 1024 * 1024 * 1024;

/** A save of output alone (the periodic one) waits until nobody has typed into any pane for this
 * long: a key that arrives while a save takes the panes' text and encodes it waits for that. */
const TYPING_QUIET_MS = 1_000;
/** Typing puts such a save off this long at most. */
const TYPING_WAIT_MAX_MS = 60_000;

/** How often a long restore at start says how far it got (the log `ws start` watches). */
const PROGRESS_EVERY_MS = 1_000;
/** Parts left out that are warned one by one; the rest are counted (all are beside the kept save). */
const MAX_WARNED = 10;

/** A session that ends this soon after being restored keeps its save (see beforeShutdown). */
const RESTORE_GRACE_MS = 10_000;

export interface PersistenceOptions {
  path: string;
  server: string;
  /** "0.1.0 (build)": recorded in each save. */
  ws: string;
  log: { info(m: string): void; warn(m: string): void; error(m: string): void };
  /** Quiet time after a model change before saving. */
  debounceMs?: number;
  /** A save happens at most this long after the first unsaved model change, however busy. */
  maxDelayMs?: number;
  /** How often scrollback-only changes (output) are saved. */
  scrollbackMs?: number;
  /** The agents feature's side (absent in a build without it): the status to save for a pane, and
   * a saved status given back to a restored pane. */
  agents?: () => AgentsSide | undefined;
  /** Each pane's grants when not the default (the daemon's grants service). */
  grants?: () => { saved(pane: number): GrantLevel | undefined } | undefined;
}

/** What persistence asks of the agents feature: statuses and prompt queues, saved and given back. */
export interface AgentsSide {
  savedStatus(pane: number): SavedAgent | undefined;
  restoreStatus(pane: number, saved: SavedAgent): void;
  queue: { saved(pane: number): SavedPrompt[] | undefined; restore(pane: number, saved: SavedPrompt[]): number };
}

export interface SaveSummary {
  path: string;
  bytes: number;
  ms: number;
  workspaces: number;
  tabs: number;
  panes: number;
  saved_at: string;
  /** Milliseconds spent taking the text, encoding it (JSON) and writing (streamed, with its SHA-256,
   * a quiet pane's text copied from the last file; with fsync). */
  phases?: { capture: number; encode: number; write: number };
}

export interface LoadProblem {
  kind: SaveProblem["kind"] | "unreadable";
  message: string;
  aside?: string;
}

export class PersistenceService {
  readonly snap: Snapshotter;
  lastSave: SaveSummary | undefined;
  /** A save found at start that could not be loaded (also noted beside the moved-aside file). */
  problem: LoadProblem | undefined;
  /** What the last save read left out (bad panes, tabs or workspaces), as logged. */
  skipped: string[] = [];
  /** Where the original save was kept when a restore left parts of it out. */
  kept: string | undefined;
  private off: (() => void) | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private firstChange = 0;
  private scrollTimer: ReturnType<typeof setInterval> | undefined;
  /** A periodic save waiting for the typing to stop. */
  private quietWait: ReturnType<typeof setTimeout> | undefined;
  private running: Promise<SaveSummary | undefined> | undefined;
  /** The save queued behind the running one, shared by every call made meanwhile. */
  private next: Promise<SaveSummary | undefined> | undefined;
  private nextOpts: { fresh?: boolean; full?: boolean } | undefined;
  private closed = false;
  /** Set by `discard`: no background save until the model changes again. */
  private paused = false;
  /** When this server restored a save (for the guard in beforeShutdown). */
  private restoredAt = 0;
  /** Agent statuses restored at start, handed to the agents feature once it is there (start). */
  private pendingAgents = new Map<number, SavedAgent>();
  private pendingPrompts = new Map<number, SavedPrompt[]>();
  readonly debounceMs: number;
  readonly maxDelayMs: number;
  readonly scrollbackMs: number;

  constructor(
    readonly session: Session,
    readonly opts: PersistenceOptions,
  ) {
    this.snap = new Snapshotter(
      session,
      (pane) => opts.agents?.()?.savedStatus(pane),
      (pane) => opts.agents?.()?.queue.saved(pane),
      (pane) => opts.grants?.()?.saved(pane),
    );
    this.debounceMs = opts.debounceMs ?? 500;
    this.maxDelayMs = opts.maxDelayMs ?? 2000;
    this.scrollbackMs = opts.scrollbackMs ?? 10_000;
  }

  // ---- loading ---------------------------------------------------------------------------------

  /** Read and check the save. Missing: undefined. Unreadable: moved aside, warned, undefined.
   * Parts left out (a bad pane, tab or workspace) are warned and kept in `skipped`. */
  async load(): Promise<{ header: SaveHeader; body: SaveBody } | undefined> {
    const path = this.opts.path;
    let bytes: Uint8Array | undefined;
    try {
      const size = await stat(path).then((st) => st.size, () => 0);
      if (size > MAX_SAVE_BYTES) return this.setAside(new SaveProblem("corrupt", `it is ${size} bytes, over the ${MAX_SAVE_BYTES} a save may be`));
      bytes = await readSaveBytes(path);
    } catch (e) {
      this.problem = { kind: "unreadable", message: `can't read ${path}: ${(e as Error).message}` };
      this.opts.log.warn(`saved session not restored: ${this.problem.message}; starting clean`);
      return undefined;
    }
    if (!bytes) return undefined;
    try {
      return this.checked(decode(bytes));
    } catch (e) {
      return this.setAside(e);
    }
  }

  /** Note what a usable save left out (the log, and `skipped` for the person on attach). */
  private checked<T extends { skipped: string[] }>(save: T): T {
    this.skipped = save.skipped;
    for (const m of save.skipped) this.opts.log.warn(`saved session ${this.opts.path}: ${m}`);
    return save;
  }

  /** A save that can't be used goes aside (kept for a person or a newer ws) and ws starts clean. */
  private async setAside(e: unknown): Promise<undefined> {
    const path = this.opts.path;
    const kind = e instanceof SaveProblem ? e.kind : "corrupt";
    const why = (e as Error)?.message ?? String(e);
    let aside: string | undefined;
    try {
      aside = await moveAside(path, `${kind}: ${why}`);
    } catch (err) {
      this.opts.log.error(`could not move the unreadable save ${path} aside: ${(err as Error).message}`);
    }
    this.problem = { kind, message: why, aside };
    this.skipped = [];
    const keep = kind === "newer" ? ` A newer ws can still restore it: move it back to ${path}.` : "";
    this.opts.log.warn(`the saved session ${path} could not be loaded: ${why}. It was moved aside to ${aside ?? "(could not move it)"} and ws started clean.${keep}`);
    return undefined;
  }

  /** At server start: rebuild the saved session. True when something was restored. */
  async restoreAtStart(): Promise<boolean> {
    const save = await this.load();
    if (!save) return false;
    const t0 = performance.now();
    let r: RestoreResult | undefined;
    // `ws start` waits while the server's log shows a restore making progress (cli/server-cmds.ts).
    // Said at once, then every second, before each pane too: one workspace may hold hundreds.
    this.opts.log.info(`restoring the saved session ${this.opts.path}: ${save.header.workspaces} workspaces, ${save.header.panes} panes`);
    let said = Date.now();
    let at = { done: 0, of: save.body.workspaces.length };
    let starting = 0;
    const say = () => {
      if (Date.now() - said < PROGRESS_EVERY_MS) return;
      said = Date.now();
      this.opts.log.info(`restoring the saved session: ${at.done} of ${at.of} workspaces done, ${starting} panes started so far`);
    };
    const progress = (p: RestoreProgress) => {
      at = p;
      say();
    };
    const pace = async () => {
      starting++;
      say();
      await yieldTurn();
    };
    try {
      r = await applySave(this.session, save.body, save.header, { progress, pace });
    } catch (e) {
      this.opts.log.error(`restoring the saved session failed: ${(e as Error).message}`);
    }
    // Nothing could be rebuilt: set the save aside, or the first save of the clean start overwrites it.
    if (!this.session.workspaces.length) {
      await this.setAside(new SaveProblem("corrupt", `none of its workspaces could be rebuilt${r?.skipped.length ? ` (${r.skipped[0]})` : ""}`));
      return false;
    }
    if (!r) return true;
    this.restoredAt = Date.now();
    this.pendingAgents = r.agents;
    this.pendingPrompts = r.prompts;
    this.opts.log.info(`restored ${r.workspaces} of ${save.body.workspaces.length} workspaces, ${r.tabs} tabs, ${r.panes} panes from ${this.opts.path} (saved ${save.header.saved_at}) in ${Math.round(performance.now() - t0)} ms`);
    await this.reportLeftOut(r, save.body.workspaces.length);
    return true;
  }

  /**
   * What a restore left out (bad parts decode dropped, and workspaces or tabs that could not be
   * rebuilt: the pane limit, a name taken meanwhile) is warned, where `ws start` shows it, and the
   * original save is kept beside the one the next save writes, since that one holds only what was
   * rebuilt. It stays until `ws session discard --unreadable`.
   */
  private async reportLeftOut(r: RestoreResult, saved: number): Promise<string | undefined> {
    this.skipped = [...this.skipped, ...r.skipped];
    if (!this.skipped.length) return undefined;
    for (const m of r.skipped.slice(0, MAX_WARNED)) this.opts.log.warn(`saved session ${this.opts.path}: ${m}`);
    if (r.skipped.length > MAX_WARNED) this.opts.log.warn(`saved session ${this.opts.path}: ${r.skipped.length - MAX_WARNED} more parts left out (the list is beside the kept save)`);
    const what = `restored in part: ${r.workspaces} of ${saved} workspaces; left out: ${this.skipped.join("; ")}`;
    let kept: string | undefined;
    try {
      kept = await keepAside(this.opts.path, what);
    } catch (e) {
      this.opts.log.error(`could not keep the original save ${this.opts.path}: ${(e as Error).message}`);
    }
    this.kept = kept;
    this.opts.log.warn(
      `the saved session was restored in part (${r.workspaces} of ${saved} workspaces, ${this.skipped.length} parts left out)` +
        (kept ? `; the original save is kept at ${kept} (ws session discard --unreadable deletes it)` : ""),
    );
    return kept;
  }

  /** `session_restore`: rebuild the save into the running server, beside what is there. */
  async restoreNow(): Promise<RestoreResult & { saved_at: string; saved: number; kept?: string }> {
    const bytes = await readSaveBytes(this.opts.path);
    if (!bytes) throw new SaveProblem("corrupt", `no saved session at ${this.opts.path}`);
    const save = this.checked(decode(bytes)); // a bad file is refused here, not moved: the person is looking at it
    const skippedInFile = save.skipped;
    const r = await applySave(this.session, save.body, save.header);
    this.giveAgents(r.agents, r.prompts);
    const kept = await this.reportLeftOut(r, save.body.workspaces.length);
    return { ...r, skipped: [...skippedInFile, ...r.skipped], saved_at: save.header.saved_at, saved: save.body.workspaces.length, ...(kept ? { kept } : {}) };
  }

  // ---- saving ----------------------------------------------------------------------------------

  /** Restored panes get their agents' last statuses back (marked restored), and their queued prompts. */
  private giveAgents(statuses: Map<number, SavedAgent>, prompts: Map<number, SavedPrompt[]>): void {
    const agents = this.opts.agents?.();
    if (!agents) return;
    for (const [pane, a] of statuses) if (this.session.panes.has(pane)) agents.restoreStatus(pane, a);
    for (const [pane, list] of prompts) {
      if (!this.session.panes.has(pane)) continue;
      const n = agents.queue.restore(pane, list);
      if (n < list.length) this.opts.log.warn(`pane ${pane}: ${list.length - n} of its ${list.length} saved prompts left out (over the queue's limits)`);
    }
  }

  start(): void {
    this.giveAgents(this.pendingAgents, this.pendingPrompts);
    this.pendingAgents = new Map();
    this.pendingPrompts = new Map();
    void removeStaleTemps(this.opts.path);
    this.off = this.session.bus.on((e) => this.onEvent(e));
    this.scrollTimer = setInterval(() => this.saveOutput(), this.scrollbackMs);
    this.scrollTimer.unref?.();
    // A restored session is not saved again until it changes: the file on disk already holds it
    // (pane ids in a save only link its layout to its panes), and taking 100 panes' text while
    // their old scrollback is still being parsed would slow the start for nothing. A fresh server
    // saves its first workspace at once.
    if (this.session.workspaces.length && !this.restoredAt) this.changed();
  }

  private onEvent(e: ModelEvent): void {
    if (this.closed) return;
    if (e.type === "pane_output") this.snap.markDirty(e.pane);
    else if (e.type === "pane_closed") this.snap.forget(e.pane);
    // Each event's declaration says whether it changes what a save holds (output is saved as
    // scrollback freshness, above).
    if (savesAfter(e)) this.changed();
  }

  /** Output since the last save is saved every scrollbackMs, once nobody is typing (see
   * TYPING_QUIET_MS); `since`: when this save first fell due. */
  private saveOutput(since = Date.now()): void {
    if (this.quietWait || this.closed || this.paused || !this.snap.scrollbackStale) return;
    const wait = TYPING_QUIET_MS - msSinceInput();
    if (wait > 0 && Date.now() - since < TYPING_WAIT_MAX_MS) {
      this.quietWait = setTimeout(() => {
        this.quietWait = undefined;
        this.saveOutput(since);
      }, wait);
      this.quietWait.unref?.();
      return;
    }
    void this.save().catch(() => {});
  }

  /** The model changed: save after a quiet spell, and never later than maxDelayMs from now. */
  private changed(): void {
    if (this.closed) return;
    this.paused = false;
    const now = Date.now();
    if (!this.timer) this.firstChange = now;
    clearTimeout(this.timer);
    const wait = Math.max(0, Math.min(this.debounceMs, this.firstChange + this.maxDelayMs - now));
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.save().catch(() => {});
    }, wait);
  }

  /** Save now. One save runs at a time; every call during a save shares the one save after it. */
  save(opts: { fresh?: boolean; full?: boolean } = {}): Promise<SaveSummary | undefined> {
    if (!this.running) return this.begin(opts);
    const o = (this.nextOpts ??= {});
    o.fresh ||= opts.fresh;
    o.full ||= opts.full;
    this.next ??= this.running
      .catch(() => {})
      .then(() => {
        const next = this.nextOpts ?? {};
        this.next = undefined;
        this.nextOpts = undefined;
        return this.running ? this.save(next) : this.begin(next);
      });
    return this.next;
  }

  private begin(opts: { fresh?: boolean; full?: boolean }): Promise<SaveSummary | undefined> {
    const p = this.writeOnce(opts).finally(() => {
      if (this.running === p) this.running = undefined;
    });
    this.running = p;
    return p;
  }

  private async writeOnce(opts: { fresh?: boolean; full?: boolean }, retry = true): Promise<SaveSummary | undefined> {
    if (!this.session.workspaces.length) return undefined;
    const t0 = performance.now();
    try {
      const { body, texts, encodeMs } = await this.snap.take(opts);
      const t1 = performance.now();
      const savedAt = new Date();
      const empty = encodeText("");
      const written = await writeStreamed(this.opts.path, body, { ws: this.opts.ws, server: this.opts.server, savedAt }, (p) => texts.get(p.id) ?? empty);
      this.snap.written(written.panes);
      // (Each pane's text is encoded as it is taken; the checksum is made as the file is written.)
      const phases = { capture: Math.round(t1 - t0 - encodeMs), encode: Math.round(encodeMs), write: Math.round(performance.now() - t1) };
      const c = counts(body);
      this.lastSave = { path: this.opts.path, bytes: written.size, ms: Math.round(performance.now() - t0), workspaces: c.workspaces, tabs: c.tabs, panes: c.panes, saved_at: savedAt.toISOString(), phases };
      return this.lastSave;
    } catch (e) {
      this.snap.lost();
      // The last file was removed or changed under us: take every pane's text again, once.
      if (e instanceof StaleSave && retry) return this.writeOnce({ ...opts, full: true }, false);
      this.opts.log.error(`saving the session to ${this.opts.path} failed: ${(e as Error).message}`);
      throw e;
    }
  }

  /** `session_discard`: remove the save. Background saves resume with the next model change. */
  async discard(): Promise<boolean> {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.paused = true;
    await this.running?.catch(() => {});
    await this.next?.catch(() => {});
    return removeSave(this.opts.path);
  }

  /** Before panes stop: keep → a last, fresh save; else the session ends and its save goes. */
  async beforeShutdown(keep: boolean): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    clearInterval(this.scrollTimer);
    clearTimeout(this.quietWait);
    this.off?.();
    await this.running?.catch(() => {});
    await this.next?.catch(() => {});
    if (keep) {
      const s = await this.writeOnce({ fresh: true });
      if (s) this.opts.log.info(`saved ${s.workspaces} workspaces, ${s.tabs} tabs, ${s.panes} panes to ${s.path} (${s.bytes} bytes, ${s.ms} ms)`);
    } else if (this.session.panes.size === 0 && this.restoredAt && Date.now() - this.restoredAt < RESTORE_GRACE_MS) {
      // Every restored pane exited at once (a broken shell, a missing program): that is not a
      // person ending the session, so the save stays for another try.
      this.opts.log.warn(`every restored pane exited within ${RESTORE_GRACE_MS / 1000} s of the restore; keeping the save ${this.opts.path} (ws session discard deletes it)`);
    } else await removeSave(this.opts.path);
  }

  stop(): void {
    this.closed = true;
    clearTimeout(this.timer);
    clearInterval(this.scrollTimer);
    clearTimeout(this.quietWait);
    this.off?.();
  }
}
