// The prompt queue (ws agent send --when idle|done): text waits per agent and is typed when the
// agent next reports the end of a turn (done) or that it waits for input (idle), one prompt a turn,
// in order. Bounded per agent, in total and in length; kept over a restart with the session save
// (features/persistence). The agent service feeds it reports; it types into panes itself.
import type { Session } from "../../model/session";
import { WsError } from "../../protocol/errors";
import type { SavedPrompt } from "./saved";
import { log } from "../../log";

/** Prompts waiting for one agent, and for all of them. */
export const MAX_QUEUED_PER_AGENT = 32;
export const MAX_QUEUED = 256;
/** Characters in one queued prompt (it is kept in memory and in the save). */
export const MAX_PROMPT_CHARS = 100_000;

export const WHEN = ["idle", "done"] as const;
export type When = (typeof WHEN)[number];

export interface QueuedPrompt {
  id: number;
  pane: number;
  text: string;
  when: When;
  /** When it was queued, ms since the epoch. */
  at: number;
  /** Called just before it is typed (agent_send's wait starts counting there); not saved. */
  onTyped?: () => void;
}


export class PromptQueue {
  private nextId = 1;
  private byPane = new Map<number, QueuedPrompt[]>();
  /** Panes typed a queued prompt that have not reported a turn's end since: one prompt a turn. */
  private awaiting = new Set<number>();
  private total = 0;

  constructor(
    private session: Session,
    /** Whether the agent in a pane waits for input now (idle or done, reported since it started). */
    private ready: (pane: number) => boolean,
    /** Whether a pane has an agent reporting at all. */
    private isAgent: (pane: number) => boolean,
  ) {}

  /**
   * Queue `text` for the agent in `pane`. A `when: idle` prompt with nothing ahead of it is typed at
   * once when the agent waits for input already. `orType`: a pane without an agent gets it typed at
   * once too (fan-out's start-up fallback: nothing would ever report for it).
   */
  add(pane: number, text: string, when: When, opts: { orType?: boolean; onTyped?: () => void } = {}): { prompt: QueuedPrompt; queued: boolean } {
    if (text.length > MAX_PROMPT_CHARS)
      throw new WsError(`a queued prompt is at most ${MAX_PROMPT_CHARS} characters, this one ${text.length}`, "invalid_params", { param: "text", limit: MAX_PROMPT_CHARS });
    const list = this.byPane.get(pane) ?? [];
    if (list.length >= MAX_QUEUED_PER_AGENT)
      throw new WsError(`the agent in pane ${pane} has ${list.length} prompts queued already, the most one agent may have`, "limit_exceeded", { limit: MAX_QUEUED_PER_AGENT, command: "ws agent queue" });
    if (this.total >= MAX_QUEUED) throw new WsError(`${this.total} prompts are queued already, the most ws keeps`, "limit_exceeded", { limit: MAX_QUEUED, command: "ws agent queue" });
    const prompt: QueuedPrompt = { id: this.nextId++, pane, text, when, at: Date.now(), ...(opts.onTyped ? { onTyped: opts.onTyped } : {}) };
    list.push(prompt);
    this.byPane.set(pane, list);
    this.total++;
    this.session.bus.emit({ type: "prompt_queued", id: prompt.id, pane, when, position: list.length });
    if (opts.orType && !this.isAgent(pane) && list.length === 1) this.deliverHead(pane);
    else this.pump(pane);
    return { prompt, queued: this.byPane.get(pane)?.includes(prompt) ?? false };
  }

  /** Everything queued, oldest first. */
  list(): QueuedPrompt[] {
    return [...this.byPane.values()].flat().sort((a, b) => a.id - b.id);
  }

  count(pane: number): number {
    return this.byPane.get(pane)?.length ?? 0;
  }

  /** Position (1 = next) of a queued prompt in its agent's queue. */
  position(p: QueuedPrompt): number {
    return (this.byPane.get(p.pane)?.indexOf(p) ?? -1) + 1;
  }

  cancel(id: number): QueuedPrompt {
    for (const [pane, list] of this.byPane) {
      const i = list.findIndex((p) => p.id === id);
      if (i < 0) continue;
      const [p] = list.splice(i, 1);
      this.dropped(pane, p!, "cancelled");
      return p!;
    }
    const ids = this.list().map((p) => p.id);
    throw new WsError(`no prompt ${id} is queued (typed already, cancelled, or its pane closed)`, "prompt_not_found", { param: "prompt", available: ids.slice(0, 50) });
  }

  /** The agent in `pane` reported the end of a turn, or that it waits for input: its next prompt. */
  turnEnded(pane: number): void {
    this.awaiting.delete(pane);
    if (this.count(pane)) this.deliverHead(pane);
  }

  /** The pane closed: its prompts go with it. */
  paneClosed(pane: number): void {
    this.awaiting.delete(pane);
    const list = this.byPane.get(pane);
    if (!list) return;
    for (const p of list.splice(0)) this.dropped(pane, p, "pane_closed");
  }

  /** What a save keeps for a pane. */
  saved(pane: number): SavedPrompt[] | undefined {
    const list = this.byPane.get(pane);
    return list?.length ? list.map((p) => ({ text: p.text, when: p.when, at: p.at })) : undefined;
  }

  /** A restored pane's prompts, after any it has, within the limits (the rest are dropped). They
   * wait for the restarted agent to report: it may not take input before it does. */
  restore(pane: number, saved: SavedPrompt[]): number {
    const list = this.byPane.get(pane) ?? [];
    let n = 0;
    for (const s of saved) {
      if (list.length >= MAX_QUEUED_PER_AGENT || this.total >= MAX_QUEUED || s.text.length > MAX_PROMPT_CHARS) break;
      list.push({ id: this.nextId++, pane, text: s.text, when: s.when, at: s.at });
      this.total++;
      n++;
    }
    if (list.length) this.byPane.set(pane, list);
    return n;
  }

  /** Type the head now if the agent waits for input, nothing was typed since its last turn ended,
   * and the head asks for no more than that. */
  private pump(pane: number): void {
    const head = this.byPane.get(pane)?.[0];
    if (head?.when === "idle" && !this.awaiting.has(pane) && this.ready(pane)) this.deliverHead(pane);
  }

  private deliverHead(pane: number): void {
    const list = this.byPane.get(pane);
    const p = list?.shift();
    if (!list || !p) return;
    if (!list.length) this.byPane.delete(pane);
    this.total--;
    const pn = this.session.panes.get(pane);
    if (!pn || pn.exited) return this.session.bus.emit({ type: "prompt_cancelled", id: p.id, pane, reason: "pane_exited" });
    try {
      p.onTyped?.();
    } catch (e) {
      log.error(`prompt ${p.id}: its waiter failed: ${(e as Error).message}`);
    }
    pn.paste(p.text);
    pn.write("\r");
    this.awaiting.add(pane);
    this.session.bus.emit({ type: "prompt_delivered", id: p.id, pane, when: p.when });
  }

  private dropped(pane: number, p: QueuedPrompt, reason: string): void {
    const list = this.byPane.get(pane);
    if (list && !list.length) this.byPane.delete(pane);
    this.total--;
    this.session.bus.emit({ type: "prompt_cancelled", id: p.id, pane, reason });
  }
}
