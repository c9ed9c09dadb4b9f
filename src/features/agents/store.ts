// Per-pane agent status: what each agent is doing, since when, and whether the person has seen it.
// Pure state; the daemon feeds it reports, focus changes and process exits.

import { type AgentSession, type AgentStatus, mapEvent, sessionOf, URGENCY } from "./status-map.ts";

export interface AgentState {
  pane: number;
  agent?: string;
  status: AgentStatus;
  detail?: string;
  /** When the status last changed, ms since the epoch. */
  since: number;
  /** The agent's process, when known: the status goes when it exits. */
  pid?: number;
  /** The agent is the pane's own program (not one run from a shell in it), when known: a respawn
   * or a restore starts it again, so its status is kept over them. */
  own?: boolean;
  /** Kept over a respawn or a restore: the agent has not reported since. */
  restored?: true;
  /** Restored from a save taken while it was working or blocked: that turn was cut off. */
  interrupted?: true;
  /** The agent's own conversation, as its hooks last named it: a restore resumes it. */
  session?: AgentSession;
}

export interface StatusChange {
  pane: number;
  before?: AgentStatus;
  after?: AgentStatus; // undefined: the status was cleared
  state?: AgentState;
}

type Listener = (change: StatusChange) => void;

export class AgentStore {
  private states = new Map<number, AgentState>();
  private listeners = new Set<Listener>();

  get(pane: number): AgentState | undefined {
    return this.states.get(pane);
  }

  all(): AgentState[] {
    return [...this.states.values()];
  }

  onChange(fn: Listener): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  /** Apply one hook report. Returns the change, or null when the status did not move. */
  report(pane: number, agent: string | undefined, event: string, payload: unknown, now = Date.now()): StatusChange | null {
    const prev = this.states.get(pane);
    const t = mapEvent(agent ?? prev?.agent, event, payload, prev?.status);
    const session = sessionOf(payload) ?? prev?.session;
    // An event that moves no status still names the session (a resumed agent's first hook).
    if (!t) {
      if (prev && session && session.id !== prev.session?.id) prev.session = session;
      return null;
    }
    if ("clear" in t) return this.clear(pane);
    return this.set(pane, agent, t.status, t.detail, session, now);
  }

  /** A status seen on the agent's screen (screen-watch.ts): the same change a report makes. */
  screen(pane: number, agent: string, status: AgentStatus, detail?: string, now = Date.now()): StatusChange | null {
    return this.set(pane, agent, status, detail, this.states.get(pane)?.session, now);
  }

  private set(pane: number, agent: string | undefined, status: AgentStatus, detail: string | undefined, session: AgentSession | undefined, now: number): StatusChange | null {
    const prev = this.states.get(pane);
    const t = { status, detail };
    const sameStatus = prev?.status === t.status;
    const next: AgentState = {
      pane,
      agent: agent ?? prev?.agent,
      status: t.status,
      detail: t.detail,
      // Seconds count time in the status, so a run of PreToolUse events keeps one clock.
      since: sameStatus ? prev!.since : now,
      pid: prev?.pid,
      ...(prev?.own !== undefined ? { own: prev.own } : {}),
      ...(session ? { session } : {}),
    };
    this.states.set(pane, next);
    if (sameStatus && prev!.detail === next.detail && prev!.agent === next.agent && !prev!.restored) return null;
    return this.emit({ pane, before: prev?.status, after: next.status, state: next });
  }

  /** Remember the agent's process so its exit can clear the status; `own`: it is the pane's program. */
  setPid(pane: number, pid: number | undefined, own?: boolean): void {
    const s = this.states.get(pane);
    if (s && pid) {
      s.pid = pid;
      if (own !== undefined) s.own = own;
    }
  }

  /** A status kept over a respawn or a restore, marked restored; `pid` is the pane's new program,
   * whose exit clears it. */
  restore(pane: number, last: Pick<AgentState, "agent" | "status" | "detail" | "since" | "session" | "interrupted">, pid: number): StatusChange {
    const prev = this.states.get(pane);
    const next: AgentState = { pane, status: last.status, since: last.since, pid, own: true, restored: true };
    if (last.agent !== undefined) next.agent = last.agent;
    if (last.detail !== undefined) next.detail = last.detail;
    if (last.session) next.session = last.session;
    if (last.interrupted) next.interrupted = true;
    this.states.set(pane, next);
    return this.emit({ pane, before: prev?.status, after: next.status, state: next });
  }

  /** The person looked at the pane: a finished agent is now merely idle. */
  seen(pane: number, now = Date.now()): StatusChange | null {
    const s = this.states.get(pane);
    if (s?.status !== "done") return null;
    const next: AgentState = { ...s, status: "idle", since: now };
    this.states.set(pane, next);
    return this.emit({ pane, before: "done", after: "idle", state: next });
  }

  /** The agent exited or its pane closed. */
  clear(pane: number): StatusChange | null {
    const s = this.states.get(pane);
    if (!s) return null;
    this.states.delete(pane);
    return this.emit({ pane, before: s.status });
  }

  /** Drop panes whose agent process is gone; `alive` is the caller's liveness check. */
  reap(alive: (pid: number) => boolean): StatusChange[] {
    const out: StatusChange[] = [];
    for (const s of [...this.states.values()]) {
      if (s.pid !== undefined && !alive(s.pid)) {
        const c = this.clear(s.pane);
        if (c) out.push(c);
      }
    }
    return out;
  }

  /** Most urgent first (blocked, done, working, idle), longest waiting first within each. */
  ranked(): AgentState[] {
    return this.all().sort((a, b) => URGENCY[a.status] - URGENCY[b.status] || a.since - b.since || a.pane - b.pane);
  }

  private emit(change: StatusChange): StatusChange {
    for (const fn of this.listeners) fn(change);
    return change;
  }
}

export const secsIn = (s: AgentState, now = Date.now()): number => Math.max(0, Math.floor((now - s.since) / 1000));
