// The approvals inbox: permission requests from agents' PermissionRequest hooks, held in the server
// (never on disk: after a restart the hooks fall back to the agents' own dialogs) until a person
// answers in ws, the agent moves on (its own dialog answered), the hook gives up, or it goes away.
// Each one is answered exactly once; every end is published as approval_resolved with who ended it.
import type { Session } from "../../model/session";
import { WsError } from "../../protocol/errors";
import { safeText } from "../../safe-text";
import { workstreamsOf } from "../workstreams/table";

/** Requests waiting at once; the next hook is refused at once and its agent's dialog decides. */
export const MAX_PENDING = 64;
/** Characters of the tool's input kept for the inbox (what it wants to run or write). */
export const MAX_SUMMARY = 2000;

export type Behavior = "allow" | "deny";
/** Who ended a request: a person in ws, the person on ws web's pages, the agent (its own dialog was
 * answered, or it moved on), the hook's time limit, or the hook went away (killed, or its agent exited). */
export type ResolvedBy = "ws" | "web" | "agent" | "timeout" | "gone";
/** Where a person answered: the attached client or the CLI, or ws web's pages. */
export type AnsweredIn = "ws" | "web";

export interface Decision {
  behavior: Behavior | "none";
  message?: string;
  by: ResolvedBy;
}

export interface Approval {
  id: number;
  pane: number;
  agent?: string;
  tool: string;
  /** What it wants, as safe one-line text, cut at MAX_SUMMARY. */
  summary: string;
  tool_use_id?: string;
  created: number;
  deadline: number;
  settle(d: Decision): void;
  /** A prompt seen on an agent's screen (no hook waits): a person's answer is typed into its pane
   * by this, which throws, typing nothing, when the pane no longer shows that prompt. */
  respond?: (behavior: Behavior) => void;
}

// Events after which a pending request can no longer be the agent's open question: its dialog was
// answered (the tool ran, or the turn ended), or a new prompt came.
const MOVED_ON = new Set(["PostToolUse", "PostToolUseFailure", "PermissionDenied", "UserPromptSubmit", "Stop", "SessionEnd"]);

/** The tool's input as a person wants to read it: the command, the file, else the JSON. */
export function summarize(tool: string, input: unknown): string {
  let text: string;
  const o = input && typeof input === "object" ? (input as Record<string, unknown>) : undefined;
  if (typeof o?.command === "string") text = o.command;
  else if (typeof o?.file_path === "string") text = typeof o.content === "string" ? `${o.file_path}: ${o.content}` : o.file_path;
  else if (typeof o?.url === "string") text = o.url;
  else text = input === undefined ? tool : JSON.stringify(input) ?? "";
  const flat = safeText(text.replace(/\s+/g, " ").trim());
  return flat.length > MAX_SUMMARY ? `${flat.slice(0, MAX_SUMMARY - 1)}…` : flat;
}

export class ApprovalService {
  private pending = new Map<number, Approval>();
  private nextId = 1;
  private off: () => void;

  constructor(private session: Session) {
    this.off = session.bus.on((e) => {
      if (e.type === "pane_closed" || e.type === "pane_exited") this.endPane(e.pane, "gone");
    });
  }

  stop(): void {
    this.off();
    for (const a of [...this.pending.values()]) this.finish(a, { behavior: "none", by: "gone" });
  }

  /** Oldest first. */
  list(): Approval[] {
    return [...this.pending.values()];
  }

  get count(): number {
    return this.pending.size;
  }

  /**
   * A hook's request: resolves with the decision when someone gives one, when the agent moves on,
   * at `timeoutMs`, or (signal) when the hook's connection closes.
   */
  request(o: { pane: number; agent?: string; payload: unknown; timeoutMs: number; signal?: AbortSignal; onId?: (id: number) => void }): Promise<Decision> {
    if (this.pending.size >= MAX_PENDING)
      throw new WsError(`${MAX_PENDING} approvals are waiting already; this one is left to the agent's own dialog`, "limit_exceeded", { limit: MAX_PENDING });
    if (o.signal?.aborted) return Promise.resolve({ behavior: "none", by: "gone" });
    const p = o.payload && typeof o.payload === "object" ? (o.payload as Record<string, unknown>) : {};
    const tool = typeof p.tool_name === "string" ? safeText(p.tool_name).slice(0, 200) : "?";
    const now = Date.now();
    const { promise, resolve } = Promise.withResolvers<Decision>();
    const a: Approval = {
      id: this.nextId++,
      pane: o.pane,
      ...(o.agent ? { agent: safeText(o.agent).slice(0, 64) } : {}),
      tool,
      summary: summarize(tool, p.tool_input),
      ...(typeof p.tool_use_id === "string" ? { tool_use_id: p.tool_use_id } : {}),
      created: now,
      deadline: now + o.timeoutMs,
      settle: resolve,
    };
    this.pending.set(a.id, a);
    o.onId?.(a.id);
    const timer = setTimeout(() => this.finish(a, { behavior: "none", by: "timeout" }), o.timeoutMs);
    const onAbort = () => this.finish(a, { behavior: "none", by: "gone" });
    o.signal?.addEventListener("abort", onAbort, { once: true });
    promise.finally(() => {
      clearTimeout(timer);
      o.signal?.removeEventListener("abort", onAbort);
    });
    this.session.bus.emit({ type: "approval_requested", ...this.view(a, now) });
    return promise;
  }

  /**
   * A permission prompt seen on the screen of an agent without hooks (features/agents/screen-watch.ts):
   * it waits in the inbox while the prompt is shown (`withdraw` ends it), and a person's answer is
   * `respond`'s typing. Undefined when the inbox is full (the person answers in the pane).
   */
  screenPrompt(o: { pane: number; agent: string; tool: string; summary: string; respond: (behavior: Behavior) => void }): Approval | undefined {
    if (this.pending.size >= MAX_PENDING) return undefined;
    const now = Date.now();
    const flat = safeText(o.summary.replace(/\s+/g, " ").trim());
    const a: Approval = {
      id: this.nextId++,
      pane: o.pane,
      agent: safeText(o.agent).slice(0, 64),
      tool: safeText(o.tool).slice(0, 200),
      summary: flat.length > MAX_SUMMARY ? `${flat.slice(0, MAX_SUMMARY - 1)}…` : flat,
      created: now,
      deadline: Infinity,
      settle: () => {},
      respond: o.respond,
    };
    this.pending.set(a.id, a);
    this.session.bus.emit({ type: "approval_requested", ...this.view(a, now) });
    return a;
  }

  /** The agent moved on from a screen prompt (its screen no longer shows it). */
  withdraw(id: number): void {
    const a = this.pending.get(id);
    if (a) this.finish(a, { behavior: "none", by: "agent" });
  }

  /** A person's answer. Throws not_found when it is no longer waiting; a screen prompt's answer
   * throws prompt_not_shown, typing nothing, when its pane shows it no more (the item ends). */
  answer(id: number, behavior: Behavior, message?: string, by: AnsweredIn = "ws"): Approval {
    const a = this.pending.get(id);
    if (!a)
      throw new WsError(`no approval ${id} is waiting (answered, given up, or from before a restart)`, "approval_not_found", {
        available: [...this.pending.keys()],
        command: "ws inbox",
      });
    try {
      a.respond?.(behavior);
    } catch (e) {
      this.finish(a, { behavior: "none", by: "agent" });
      throw e;
    }
    this.finish(a, { behavior, ...(message !== undefined ? { message } : {}), by });
    return a;
  }

  /** A hook report from the pane: the agent moved on, so its own dialog (or a rule) answered. */
  report(pane: number, event: string, payload: unknown): void {
    if (!MOVED_ON.has(event)) return;
    const id = payload && typeof payload === "object" ? (payload as { tool_use_id?: unknown }).tool_use_id : undefined;
    for (const a of [...this.pending.values()]) {
      if (a.pane !== pane) continue;
      // A tool event names its tool use: only that request is over (others may run in parallel).
      if (typeof id === "string" && a.tool_use_id !== undefined && event.startsWith("PostToolUse") && a.tool_use_id !== id) continue;
      this.finish(a, { behavior: "none", by: "agent" });
    }
  }

  private endPane(pane: number, by: ResolvedBy): void {
    for (const a of [...this.pending.values()]) if (a.pane === pane) this.finish(a, { behavior: "none", by });
  }

  private finish(a: Approval, d: Decision): void {
    if (!this.pending.delete(a.id)) return; // answered once only
    a.settle(d);
    this.session.bus.emit({
      type: "approval_resolved",
      id: a.id,
      pane: a.pane,
      behavior: d.behavior,
      by: d.by,
      ...(d.message !== undefined ? { message: d.message } : {}),
    });
  }

  /** The public fields of one request, with where its pane is. */
  view(a: Approval, now = Date.now()) {
    const at = this.session.where(a.pane);
    const workstream = workstreamsOf(this.session).ofPane(a.pane)?.name;
    return {
      id: a.id,
      pane: a.pane,
      ...(a.agent ? { agent: a.agent } : {}),
      ...(at ? { workspace: at.ws.name, tab: at.tab.id, tab_name: this.session.tabName(at.tab) } : {}),
      ...(workstream ? { workstream } : {}),
      tool: a.tool,
      summary: a.summary,
      waited_ms: now - a.created,
      // A screen prompt waits as long as it is shown.
      ...(Number.isFinite(a.deadline) ? { timeout_ms: Math.max(0, a.deadline - now) } : {}),
    };
  }
}
