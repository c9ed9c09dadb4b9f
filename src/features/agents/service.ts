// The daemon's agent feature: hook reports in, statuses kept per pane, the person's attention out
// (bus events the UI draws and rings for), plus the dashboard's lists, agent_send's target, the
// prompt queue (queue.ts) it feeds turn ends to, and each turn's answer (answer.ts).

import type { Session } from "../../model/session";
import { panesOf } from "../../model/layout";
import { PortWatch } from "../port-watch.ts";
import { processAlive } from "../../platform/process-alive";
import { foregroundPid } from "../../model/process-info";
import { mapEvent, SESSION_ID } from "./status-map.ts";
import type { AgentRow } from "./row.ts";
import type { SavedAgent } from "./saved";
import { PromptQueue } from "./queue.ts";
import { type AnswerSource, answerSource, readAnswer } from "./answer.ts";
import { type AgentState, AgentStore, type StatusChange, secsIn } from "./store.ts";
import { workstreamsOf } from "../workstreams/table";

export type DashboardAgent = AgentRow;
export interface DashboardPort {
  port: number;
  pane: number;
  workspace: string;
  tab: string;
  command: string;
}
export interface Dashboard {
  agents: DashboardAgent[];
  workstreams: { name: string; workspace: string; pane: number; branch?: string; pr?: string }[];
  ports: DashboardPort[];
}

const REAP_MS = 2000;

export class AgentService {
  readonly store = new AgentStore();
  readonly ports: PortWatch;
  private reaper: ReturnType<typeof setInterval> | undefined;
  private off: (() => void)[] = [];
  private learning = new Set<number>();
  readonly queue: PromptQueue;
  /** Reports taken so far: a turn's answer counts for a wait only if it came after the prompt. */
  private reports = 0;
  /** Each pane's last turn end (done): which report, and where its answer is. */
  private turns = new Map<number, { seq: number; src: AnswerSource }>();
  /** Agents without hooks, watched on screen (screen-watch.ts); set when the feature starts. */
  screens: { reload(): string[]; stop(): void } | undefined;
  /** Panes whose agent reports through hooks: their screen is not read for a status. */
  private hooked = new Set<number>();

  constructor(private session: Session) {
    this.queue = new PromptQueue(
      session,
      (pane) => {
        const s = this.store.get(pane);
        // A restored status is the agent's before the restart: the new one may not take input yet.
        return !!s && !s.restored && (s.status === "idle" || s.status === "done");
      },
      (pane) => this.store.get(pane) !== undefined,
    );
    this.ports = new PortWatch(() => new Map([...session.panes].map(([id, p]) => [id, { pid: p.pid, foreground: p.foregroundPid }])), {
      onChange: (panes) => session.bus.emit({ type: "ports_changed", panes }),
    });
    this.off.push(
      this.store.onChange((c) => {
        if (c.after === undefined) this.hooked.delete(c.pane); // that agent is gone
        this.publish(c);
      }),
      session.bus.on((e) => {
        // A kept pane outlives its program (`keep`): its agent ended with it.
        if (e.type === "pane_closed" || e.type === "pane_exited") this.store.clear(e.pane);
        if (e.type === "pane_closed") {
          this.queue.paneClosed(e.pane);
          this.turns.delete(e.pane);
        }
        // A respawned pane runs its agent again: its last status stays (marked restored).
        if (e.type === "pane_respawned") this.respawned(e.pane);
        // Bringing a pane on screen is the person looking at it.
        if (e.type === "pane_focused" || e.type === "tab_focused" || e.type === "workspace_focused") this.markSeen();
        // So is typing into it.
        if (e.type === "pane_input") this.store.seen(e.pane);
      }),
    );
  }

  start(): void {
    this.ports.start();
    this.reaper ??= setInterval(() => this.store.reap(processAlive), REAP_MS);
    (this.reaper as { unref?: () => void }).unref?.();
  }

  stop(): void {
    this.ports.stop();
    clearInterval(this.reaper);
    this.reaper = undefined;
    for (const f of this.off.splice(0)) f();
  }

  /** A hook report (`report` message). Unknown panes are ignored: the reply was already ok. */
  report(pane: number, agent: string | undefined, event: string, payload: unknown): void {
    const p = this.session.panes.get(pane);
    if (!p) return;
    const seq = ++this.reports;
    this.hooked.add(pane);
    const prev = this.store.get(pane);
    const t = mapEvent(agent ?? prev?.agent, event, payload, prev?.status);
    const ready = !!t && "status" in t && (t.status === "done" || t.status === "idle");
    // Before the status is published: a wait that ends on it reads this turn's answer.
    const src = ready && t.status === "done" ? answerSource(payload) : {};
    if (src.text !== undefined || src.transcript !== undefined) this.turns.set(pane, { seq, src });
    // The turn is over, or the agent waits for input: the next queued prompt goes in. Before the
    // status is published, so a prompt given on that status (fan-out's) queues behind it.
    if (ready) this.queue.turnEnded(pane);
    // A `done` in the pane already on screen stays done: the person may be away. It turns idle
    // on their next look (a focus change onto it).
    this.store.report(pane, agent, event, payload);
    if (t && "status" in t) this.session.bus.emit({ type: "agent_report", pane, status: t.status });
    // Learn the agent's process while it is in the foreground, so its exit clears the status.
    if (this.store.get(pane) && this.store.get(pane)!.pid === undefined && !this.learning.has(pane)) {
      this.learning.add(pane); // one look per pane, however fast the hooks come
      foregroundPid(p.pid)
        .then((pid) => this.store.get(pane)?.pid === undefined && this.store.setPid(pane, pid, pid === p.pid))
        .finally(() => this.learning.delete(pane));
    }
  }

  /** Whether the agent in `pane` reports through hooks (its screen then says nothing). */
  hasHooks(pane: number): boolean {
    return this.hooked.has(pane);
  }

  /**
   * A status read from the screen of an agent without hooks (screen-watch.ts), given when what
   * the screen shows changes: kept, published and fed to the queue as a hook's report would be.
   * Waiting for input after a turn (or after a prompt) is that turn's end: done. `pid` is the
   * agent's process (its exit clears the status); `own`: it is the pane's own program.
   */
  screenStatus(pane: number, agent: string, status: "idle" | "working" | "blocked", detail: string | undefined, pid: number, own: boolean): void {
    if (this.hooked.has(pane) || !this.session.panes.has(pane)) return;
    const prev = this.store.get(pane);
    const ended = status === "idle" && !!prev && !prev.restored && (prev.status === "working" || prev.status === "blocked" || prev.status === "done");
    const next = ended ? "done" : status;
    ++this.reports;
    // As for a report: the queue's next prompt goes in before the status is published.
    if (next === "idle" || next === "done") this.queue.turnEnded(pane);
    this.store.screen(pane, agent, next, detail);
    this.store.setPid(pane, pid, own);
    this.session.bus.emit({ type: "agent_report", pane, status: next });
  }

  /** The pane the person sees focused: current workspace, its active tab, that tab's focused pane. */
  onScreen(): number | undefined {
    const ws = this.session.workspaces[this.session.current];
    return ws ? ws.tabs[ws.active]?.focused : undefined;
  }

  markSeen(): void {
    const pane = this.onScreen();
    if (pane !== undefined) this.store.seen(pane);
  }

  /** The count of reports so far (a mark for answerSince). */
  reportSeq(): number {
    return this.reports;
  }

  /** The answer of the agent's last turn in `pane`, if that turn ended after report `seq`. */
  async answerSince(pane: number, seq: number): Promise<{ answer: string; truncated: boolean } | undefined> {
    const t = this.turns.get(pane);
    return t && t.seq > seq ? readAnswer(t.src) : undefined;
  }

  status(pane: number): AgentState | undefined {
    return this.store.get(pane);
  }

  /** Whether a pane's agent is its own program, so that starting the pane's program again starts
   * the agent again (unknown: the pane runs a program, not a shell). */
  private ownAgent(pane: number): boolean {
    const s = this.store.get(pane);
    const p = this.session.panes.get(pane);
    if (!s || !p) return false;
    return s.own ?? (s.pid === undefined && p.command.length > 0);
  }

  /** The status a save keeps for a pane: its agent's last report, when a restore starts that agent again. */
  savedStatus(pane: number): SavedAgent | undefined {
    const s = this.store.get(pane);
    if (!s || !this.ownAgent(pane)) return undefined;
    return {
      status: s.status,
      since: s.since,
      ...(s.agent !== undefined ? { agent: s.agent } : {}),
      ...(s.detail !== undefined ? { detail: s.detail } : {}),
      ...(s.session ? { session: s.session.id, ...(s.session.transcript ? { transcript: s.session.transcript } : {}) } : {}),
      ...(s.interrupted ? { interrupted: true as const } : {}),
    };
  }

  /** A restored pane gets its agent's last status back, marked restored, until the agent reports
   * or the pane's program exits. */
  restoreStatus(pane: number, saved: SavedAgent): void {
    const p = this.session.panes.get(pane);
    if (!p || p.exited) return;
    const session = saved.session && SESSION_ID.test(saved.session) ? { id: saved.session, ...(saved.transcript ? { transcript: saved.transcript } : {}) } : undefined;
    // Saved mid-turn (working, or blocked on the person): the server going down cut that turn off.
    const interrupted = saved.interrupted || saved.status === "working" || saved.status === "blocked";
    this.store.restore(pane, { ...saved, session, ...(interrupted ? { interrupted: true as const } : {}) }, p.pid);
  }

  /** Agents working now (mid-turn or waiting on the person): what a restart would cut off. */
  busy(): AgentRow[] {
    return this.rows().filter((a) => !a.restored && (a.status === "working" || a.status === "blocked"));
  }

  private respawned(pane: number): void {
    const s = this.store.get(pane);
    const p = this.session.panes.get(pane);
    if (!s || !p) return;
    if (this.ownAgent(pane) && !p.exited) this.store.restore(pane, s, p.pid);
    else this.store.clear(pane); // an agent run from the shell is gone with it
  }

  /** agent_send's target: the tab's focused pane if it is an agent, else its first agent; never `from`. */
  agentPaneFor(from: number): number | undefined {
    const { tab } = this.session.locate(from);
    const isAgent = (id: number) => id !== from && this.store.get(id) !== undefined;
    if (isAgent(tab.focused)) return tab.focused;
    return panesOf(tab.layout).find(isAgent);
  }

  /** Every reporting agent's row (row.ts), most urgent first: the one builder behind the
   * Dashboard on screen, `ws dashboard` (and --json) and `ws agent list`. */
  rows(now = Date.now()): AgentRow[] {
    const agents: AgentRow[] = [];
    for (const s of this.store.ranked()) {
      const w = this.session.where(s.pane);
      const p = this.session.panes.get(s.pane);
      if (!w || !p) continue;
      const workstream = workstreamsOf(this.session).ofPane(s.pane)?.name;
      agents.push({
        pane: s.pane,
        workspace: w.ws.name,
        tab: this.session.tabName(w.tab),
        tab_id: w.tab.id,
        label: p.label,
        ...(s.agent ? { agent: s.agent } : {}),
        ...(workstream ? { workstream } : {}),
        ...(s.session ? { session: s.session.id } : {}),
        status: s.status,
        ...(s.detail ? { detail: s.detail } : {}),
        secs: secsIn(s, now),
        ...(s.restored ? { restored: true as const } : {}),
        ...(s.interrupted ? { interrupted: true as const } : {}),
        ...(this.queue.count(s.pane) ? { queued: this.queue.count(s.pane) } : {}),
      });
    }
    return agents;
  }

  dashboard(now = Date.now()): Dashboard {
    const where = (pane: number) => this.session.where(pane);
    const agents = this.rows(now);
    const ports: DashboardPort[] = [];
    for (const [pane, list] of this.ports.entries()) {
      const w = where(pane);
      const p = this.session.panes.get(pane);
      if (!w || !p) continue;
      for (const l of list) {
        ports.push({ port: l.port, pane, workspace: w.ws.name, tab: this.session.tabName(w.tab), command: l.command || p.label });
      }
    }
    ports.sort((a, b) => a.port - b.port || a.pane - b.pane);
    return { agents, workstreams: [], ports };
  }

  private publish(c: StatusChange): void {
    this.session.bus.emit({ type: "agent_status", pane: c.pane, status: c.after ?? null, before: c.before ?? null, detail: c.state?.detail });
    // The person is wanted: the UI rings the bell and sends OSC 9/777 on this event.
    if ((c.after === "blocked" || c.after === "done") && c.before !== c.after) {
      this.session.bus.emit({ type: "agent_attention", pane: c.pane, status: c.after, detail: c.state?.detail });
    }
  }
}
