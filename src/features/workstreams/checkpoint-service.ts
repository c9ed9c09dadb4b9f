// The daemon's side of checkpoints: one as each turn an agent starts in a workstream (its
// UserPromptSubmit or BeforeAgent hook report) and one as it ends (Stop, agent-turn-complete,
// AfterAgent), each marked with the turn's number and at ws checkpoint save; list, diff and restore; pruning by the
// template's policy; removal at ws done. One git job at a time per workstream, so numbers never
// race, and at most one save waiting behind it however fast hooks come (bounded).
import type { Session } from "../../model/session";
import type { Workstream } from "./workstream";
import { WsError } from "../../protocol/errors";
import {
  type Checkpoint, type CheckpointPolicy, checkpointRoot, DEFAULT_POLICY, diffCheckpoints, listCheckpoints, type Place,
  pruneCheckpoints, removeCheckpoints, type Restored, restoreFiles, saveCheckpointTree, type TurnMark,
} from "./checkpoints";
import { log } from "../../log";
import { type WorkstreamTable, workstreamsOf } from "./table";

/** Hook events that start an agent's turn: Claude Code's UserPromptSubmit, Gemini CLI's BeforeAgent
 * (both carry `prompt`). Codex's notify sends no turn start. */
const TURN_STARTS = new Set(["UserPromptSubmit", "BeforeAgent"]);
/** Hook events that end one: Claude Code's Stop (no prompt: the turn's start had it), Codex's
 * agent-turn-complete (`input-messages`, the last the prompt), Gemini CLI's AfterAgent (`prompt`). */
const TURN_ENDS = new Set(["Stop", "agent-turn-complete", "AfterAgent"]);
/** Turn reports one workstream may have waiting behind its running git job (a start and an end). */
export const MAX_TURN_REPORTS_WAITING = 2;

/** The prompt a hook payload carries, if any. */
function promptOf(payload: unknown): string {
  if (!payload || typeof payload !== "object") return "";
  const p = payload as { prompt?: unknown; "input-messages"?: unknown };
  if (typeof p.prompt === "string") return p.prompt;
  const inputs = p["input-messages"];
  if (Array.isArray(inputs) && typeof inputs.at(-1) === "string") return inputs.at(-1) as string;
  return "";
}

export class Checkpointer {
  private queues = new Map<string, Promise<unknown>>();
  /** A save queued and not yet started, per workstream: a later one shares it. */
  private waitingSave = new Map<string, Promise<Checkpoint | undefined>>();

  /** `root`: the directory of the workstreams' shadow repositories (checkpoints.ts). */
  /** The session's workstreams (table.ts). */
  private get table(): WorkstreamTable {
    return workstreamsOf(this.session);
  }

  constructor(
    private session: Session,
    private root = checkpointRoot(),
  ) {}

  /** The workstream's checkpoints' place: its worktree (or, `repo`, its repository's checkout). */
  private at(w: Workstream, repo = false): Place {
    return { root: this.root, dir: repo ? w.repo : w.dir, ws: w.name };
  }

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

  /** Each workstream's turn now: its number and prompt (set as it starts, read as it ends). */
  private turns = new Map<string, { turn: number; prompt: string }>();
  /** Turn reports queued and not yet started, per workstream. */
  private waitingTurns = new Map<string, number>();

  /** A hook report: a turn starting or ending in a workstream's pane checkpoints it, in the background. */
  reported(pane: number, event: string, payload: unknown): void {
    const starts = TURN_STARTS.has(event);
    if (!starts && !TURN_ENDS.has(event)) return;
    const w = this.table.ofPane(pane) ?? this.table.get(this.session.panes.get(pane)?.env.WS_WORKSTREAM ?? "");
    if (!w || w.review) return;
    const prompt = promptOf(payload);
    const failed = (e: unknown) => log.error(`checkpoint of workstream ${w.name}: ${(e as Error).message}`);
    // Bounded: an agent reporting turns faster than git checkpoints them has its extra reports dropped.
    const waiting = this.waitingTurns.get(w.name) ?? 0;
    if (waiting >= MAX_TURN_REPORTS_WAITING) return;
    this.waitingTurns.set(w.name, waiting + 1);
    this.queued(w.name, async () => {
      const left = (this.waitingTurns.get(w.name) ?? 1) - 1;
      if (left > 0) this.waitingTurns.set(w.name, left);
      else this.waitingTurns.delete(w.name);
      // The turn's number: one past the last known (kept here, else in the checkpoints' trailers).
      const known = this.turns.get(w.name);
      const last = known?.turn ?? Math.max(0, ...(await listCheckpoints(this.at(w))).map((c) => c.turn ?? 0));
      if (starts) {
        const turn = last + 1;
        this.turns.set(w.name, { turn, prompt });
        await this.record(w, prompt || event, { turn, after: false });
      } else {
        const turn = Math.max(last, 1);
        const text = known?.prompt || prompt;
        await this.record(w, `after turn ${turn}${text ? `: ${text.trim().split("\n", 1)[0]}` : ""}`, { turn, after: true });
      }
    }).catch(failed);
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
  private async record(w: Workstream, text: string, mark?: TurnMark): Promise<{ checkpoint?: Checkpoint; tree: string }> {
    const r = await saveCheckpointTree(this.at(w), text, mark);
    if (r.checkpoint) {
      const c = r.checkpoint;
      this.session.bus.emit({ type: "checkpoint_saved", workstream: w.name, n: c.n, commit: c.commit, files: c.files, text: c.text });
      await pruneCheckpoints(this.at(w), this.policy(w));
    }
    return r;
  }

  list(w: Workstream): Promise<Checkpoint[]> {
    return this.queued(w.name, () => listCheckpoints(this.at(w)));
  }

  diff(w: Workstream, from: number, to?: number): Promise<{ diff: string; truncated: boolean }> {
    return this.queued(w.name, () => diffCheckpoints(this.at(w), from, to));
  }

  /** Put the worktree back to checkpoint n, checkpointing the present state first (so the
   * restore can be undone). `working`: the workstream's agent is mid-turn. */
  restore(w: Workstream, n: number, o: { force: boolean; working: boolean }): Promise<{ saved?: number } & Restored> {
    if (o.working && !o.force)
      throw new WsError(`the agent in workstream "${w.name}" is working: wait for it to finish (or interrupt it), or give --force`, "agent_working");
    return this.queued(w.name, async () => {
      const before = await this.record(w, `before restore to checkpoint ${n}`);
      const r = await restoreFiles(this.at(w), n, before.tree);
      return { ...(before.checkpoint ? { saved: before.checkpoint.n } : {}), ...r };
    });
  }

  /** ws done: remove the workstream's shadow (after any job of its still running). */
  async remove(w: Workstream): Promise<void> {
    await this.queued(w.name, () => removeCheckpoints(this.at(w, true))).catch((e) => log.error(`removing checkpoints of ${w.name}: ${(e as Error).message}`));
  }
}
