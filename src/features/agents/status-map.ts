// The one table that turns an agent CLI's hook events into a pane status.
// To teach ws another agent CLI, add a table to TABLES; nothing else changes.

export type AgentStatus = "blocked" | "working" | "done" | "idle";

/** What a hook event does to a pane's status. */
export type Transition =
  | { status: AgentStatus; detail?: string }
  | { clear: true } // the agent session ended: the pane loses its status
  | null; // the event says nothing about status

type Payload = Record<string, unknown>;
type Rule = (payload: Payload, prev: AgentStatus | undefined) => Transition;

const str = (v: unknown): string | undefined => (typeof v === "string" && v !== "" ? v : undefined);

/** First line, cut short: details are shown in a tab bar and a dashboard row. */
export function shorten(text: string | undefined, max = 80): string | undefined {
  if (!text) return undefined;
  const line = text.trim().split("\n", 1)[0]!.trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line || undefined;
}

const to = (status: AgentStatus, detail?: string): Transition => ({ status, ...(detail ? { detail } : {}) });

// "Claude is waiting for your input" arrives ~60 s after Stop; it must not turn an
// idle (already seen) pane back into a fresh `done`, nor re-raise a notification.
const waitingForInput: Rule = (_p, prev) => (prev === "idle" ? to("idle") : to("done"));

// Claude Code hooks: JSON on stdin with session_id, cwd, hook_event_name and per-event fields
// (tool_name for tool events; message and notification_type for Notification; reason for SessionEnd).
const claude: Record<string, Rule> = {
  SessionStart: () => to("idle"),
  UserPromptSubmit: () => to("working"),
  PreToolUse: (p) => to("working", str(p.tool_name)),
  PostToolUse: () => to("working"),
  PostToolUseFailure: () => to("working"),
  PreCompact: () => to("working", "compacting"),
  PermissionRequest: (p) => to("blocked", str(p.tool_name) ? `permission: ${str(p.tool_name)}` : "permission"),
  Notification: (p, prev) => {
    const kind = str(p.notification_type);
    const message = shorten(str(p.message));
    // Older Claude Code versions send no notification_type: fall back to the message text.
    if (kind === "permission_prompt" || (!kind && /permission/i.test(message ?? ""))) {
      return to("blocked", message ?? "permission");
    }
    if (kind === "elicitation_dialog") return to("blocked", message ?? "question");
    if (kind === "idle_prompt" || (!kind && /waiting for your input/i.test(message ?? ""))) {
      return waitingForInput(p, prev);
    }
    return null; // auth_success and other informational notifications
  },
  Stop: () => to("done"),
  // A subagent finishing means the main agent carries on; it never ends a turn by itself.
  SubagentStop: (_p, prev) => (prev === undefined || prev === "working" ? to("working") : null),
  SessionEnd: () => ({ clear: true }),
};

// Codex `notify`: one JSON argument whose `type` names the event, e.g.
// {"type":"agent-turn-complete","thread-id":…,"turn-id":…,"cwd":…,"input-messages":[…],"last-assistant-message":…}
const codex: Record<string, Rule> = {
  "agent-turn-complete": (p) => to("done", shorten(str(p["last-assistant-message"]))),
  "approval-requested": (p) => to("blocked", shorten(str(p.message) ?? str(p.command)) ?? "approval"),
  "user-input-requested": () => to("done"),
};

// Gemini CLI hooks: JSON on stdin like Claude Code's (session_id, transcript_path, cwd,
// hook_event_name, timestamp); a turn runs from BeforeAgent to AfterAgent.
const gemini: Record<string, Rule> = {
  SessionStart: () => to("idle"),
  BeforeAgent: () => to("working"),
  BeforeTool: (p) => to("working", str(p.tool_name)),
  AfterAgent: () => to("done"),
  Notification: (p) => (str(p.notification_type) === "ToolPermission" ? to("blocked", shorten(str(p.message)) ?? "permission") : null),
  SessionEnd: () => ({ clear: true }),
};

const TABLES: Record<string, Record<string, Rule>> = { claude, codex, gemini };

/** The agent's own conversation, as its hooks name it: what a restore resumes. */
export interface AgentSession {
  id: string;
  /** Where the agent writes the conversation (Claude Code's and Gemini CLI's transcript_path). */
  transcript?: string;
}

/** A session id is a name ws hands back to the agent as one argv word: a UUID-like word only. */
export const SESSION_ID = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/;

/** The session a hook payload names: Claude Code's and Gemini CLI's `session_id` (with
 * `transcript_path`), Codex's notify `thread-id`. */
export function sessionOf(payload: unknown): AgentSession | undefined {
  if (!payload || typeof payload !== "object" || Array.isArray(payload)) return undefined;
  const p = payload as Payload;
  const id = str(p.session_id) ?? str(p["thread-id"]) ?? str(p.thread_id);
  if (!id || !SESSION_ID.test(id)) return undefined;
  const t = str(p.transcript_path);
  return { id, ...(t && t.length <= 4096 && !/[\x00-\x1f\x7f]/.test(t) ? { transcript: t } : {}) };
}

/**
 * The transition for `event` from `agent`. An unknown or missing agent name falls back to
 * any table that knows the event, so `ws report Stop` works without `--agent`.
 */
export function mapEvent(
  agent: string | undefined,
  event: string,
  payload: unknown,
  prev?: AgentStatus,
): Transition {
  const p = payload && typeof payload === "object" && !Array.isArray(payload) ? (payload as Payload) : {};
  // hasOwn: event and agent names come from outside and must not reach Object.prototype.
  const own = agent && Object.hasOwn(TABLES, agent) && Object.hasOwn(TABLES[agent]!, event);
  const table = own ? TABLES[agent!] : Object.values(TABLES).find((t) => Object.hasOwn(t, event));
  const rule = table?.[event];
  return rule ? rule(p, prev) : null;
}

/** Urgency order for the dashboard: who needs the person first. */
export const URGENCY: Record<AgentStatus, number> = { blocked: 0, done: 1, working: 2, idle: 3 };
