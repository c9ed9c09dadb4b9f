// The daemon's side of checkpoints: one at each turn an agent starts in a workstream (its
// UserPromptSubmit hook report) and at ws checkpoint save; list, diff and restore; pruning by the
// template's policy; removal at ws done. One git job at a time per workstream, so numbers never
// race, and at most one save waiting behind it however fast hooks come (bounded).
import type { Session } from "../../model/session";
import type { Workstream } from "../../model/workstream";
import { WsError } from "../../protocol/errors";
import {
  type Checkpoint, type CheckpointPolicy, DEFAULT_POLICY, diffCheckpoints, listCheckpoints, pruneCheckpoints,
  removeCheckpoints, type Restored, restoreFiles, saveCheckpointTree,
} from "./checkpoints";

/** Hook events that start an agent's turn. (Codex's notify sends no turn start: only ws checkpoint save.) */
const TURN_STARTS = new Set(["UserPromptSubmit"]);

export class Checkpointer {
  private queues = new Map<string, Promise<unknown>>();
  /** A save queued and not yet started, per workstream: a later one shares it. */
  private waitingSave = new Map<string, Promise<Checkpoint | undefined>>();

  constructor(private session: Session) {}

  /** The workstream's template policy, kept on the workstream (so a save and restart keep it too). */
  policy(w: Workstream): CheckpointPolicy {
    return w.checkpoints ?? DEFAULT_POLICY;
  }

  /** Run fn after every job queued for this workstream before it. */
  private queued<T>(ws: string, fn: () => Promise<T>): Promise<T> {
    const before = this.queues.get(ws) ?? Promise.resolve();
    const job = before.catch(() => undefined).then(fn);
    const tail = job.catch(() => undefined);
    this.queues.set(ws, tail);
    tail.then(() => this.queues.get(ws) === tail && this.queues.delete(ws));
    return job;
  }

  /** A hook report: a turn starting in a workstream's pane checkpoints it, in the background. */
  reported(pane: number, event: string, payload: unknown): void {
    if (!TURN_STARTS.has(event)) return;
    const w = this.session.workstreamOfPane(pane) ?? this.session.workstreams.get(this.session.panes.get(pane)?.env.WS_WORKSTREAM ?? "");
    if (!w || w.review) return;
    const prompt = payload && typeof payload === "object" && typeof (payload as { prompt?: unknown }).prompt === "string" ? (payload as { prompt: string }).prompt : "";
    this.save(w, prompt || `${event}`).catch((e) => console.error(`ws: checkpoint of workstream ${w.name}: ${(e as Error).message}`));
  }

  /** Checkpoint the worktree now (undefined: unchanged since the last one). */
  save(w: Workstream, text: string): Promise<Checkpoint | undefined> {
    const waiting = this.waitingSave.get(w.name);
    if (waiting) return waiting;
    const job = this.queued(w.name, async () => {
      this.waitingSave.delete(w.name);
      return (await this.record(w, text)).checkpoint;
    });
    this.waitingSave.set(w.name, job);
    return job;
  }

  /** Save, announce and prune (inside the queue). */
  private async record(w: Workstream, text: string): Promise<{ checkpoint?: Checkpoint; tree: string }> {
    const r = await saveCheckpointTree(w.dir, w.name, text);
    if (r.checkpoint) {
      const c = r.checkpoint;
      this.session.bus.emit({ type: "checkpoint_saved", workstream: w.name, n: c.n, commit: c.commit, files: c.files, text: c.text });
      await pruneCheckpoints(w.dir, w.name, this.policy(w));
    }
    return r;
  }

  list(w: Workstream): Promise<Checkpoint[]> {
    return this.queued(w.name, () => listCheckpoints(w.dir, w.name));
  }

  diff(w: Workstream, from: number, to?: number): Promise<{ diff: string; truncated: boolean }> {
    return this.queued(w.name, () => diffCheckpoints(w.dir, w.name, from, to));
  }

  /** Put the worktree back to checkpoint n, checkpointing the present state first (so the
   * restore can be undone). `working`: the workstream's agent is mid-turn. */
  restore(w: Workstream, n: number, o: { force: boolean; working: boolean }): Promise<{ saved?: number } & Restored> {
    if (o.working && !o.force)
      throw new WsError(`the agent in workstream "${w.name}" is working: wait for it to finish (or interrupt it), or give --force`, "agent_working");
    return this.queued(w.name, async () => {
      const before = await this.record(w, `before restore to checkpoint ${n}`);
      const r = await restoreFiles(w.dir, w.name, n, before.tree);
      return { ...(before.checkpoint ? { saved: before.checkpoint.n } : {}), ...r };
    });
  }

  /** ws done: remove the workstream's refs (after any job of its still running). */
  async remove(w: Workstream): Promise<void> {
    await this.queued(w.name, () => removeCheckpoints(w.repo, w.name)).catch((e) => console.error(`ws: removing checkpoints of ${w.name}: ${(e as Error).message}`));
  }
}
