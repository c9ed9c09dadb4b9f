// Grants: what a connection may do over the socket (docs/security.md "Grants"). Each pane has a
// level; a connection on the panes' socket is the pane its peer runs in and carries it. The levels are ordered
// (report < self < workspace < control); person verbs sit above every level and no pane ever
// holds them: they are for the person's main socket alone.

export const GRANT_LEVELS = ["report", "self", "workspace", "control"] as const;
export type GrantLevel = (typeof GRANT_LEVELS)[number];

/** What a message needs: a level, or "person" (answered only on the main socket, from outside every pane). */
export type Grant = GrantLevel | "person";

/** What each grant allows, for describe, help and refusals. */
export const GRANT_MEANING: Record<Grant, string> = {
  report: "agent hooks only: report, approval_request and its own prompt queue, for its own pane",
  self: "read, wait on, type into, split and close its own pane and the panes it created; notify; list panes",
  workspace: "the same over every pane, tab and layout of its own workspace",
  control: "every pane, tab and workspace (a person's shell pane), still without the person's verbs",
  person: "a person verb: only the person's main socket, from outside every pane (approve, deny, raise grants, attach, config reload, interface commands, quit, discard the session)",
};

/** A pane a person opens. */
export const PERSON_PANE_DEFAULT: GrantLevel = "control";
/** A pane a template marks as an agent, a fan candidate, and any pane while an agent runs in it. */
export const AGENT_DEFAULT: GrantLevel = "self";

export const rank = (g: Grant): number => (g === "person" ? GRANT_LEVELS.length : GRANT_LEVELS.indexOf(g));

/** Whether a connection holding `have` may send a message that needs `need`. */
export const allows = (have: GrantLevel, need: Grant): boolean => need !== "person" && rank(have) >= rank(need);

export const lowest = (a: GrantLevel, b: GrantLevel): GrantLevel => (rank(a) <= rank(b) ? a : b);

export function isGrantLevel(s: unknown): s is GrantLevel {
  return typeof s === "string" && (GRANT_LEVELS as readonly string[]).includes(s);
}
