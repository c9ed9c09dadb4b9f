// wait_for: block until a condition holds (the engine: src/messages/waits.ts). Each condition's own
// required fields are in `condition.requires`, so validation, `describe` and the docs show them and
// the handler gets them typed; the wire stays one flat object.
import { SOURCES } from "../model/text-sources";
import { CHECK_BUDGET_MS } from "../patterns/regex-pool";
import { MAX_PATTERN_LENGTH } from "../patterns/user-pattern";
import { waitFor } from "./waits";
import type { Fields, Static } from "../protocol/schema";
import { defineMessage, replyTyped, type MessageCli, type ReplyFields } from "./types";

export const CONDITIONS = ["output", "exit", "idle", "workspace_exists", "pane_exists", "agent_status", "command_finished"] as const;
export const AGENT_STATUSES = ["blocked", "working", "done", "idle", "none"] as const;

/** The fields each condition needs besides `condition` (checked in this order). */
const CONDITION_NEEDS = {
  output: ["pane", "pattern"],
  exit: ["pane"],
  idle: ["pane", "idle_ms"],
  workspace_exists: ["workspace"],
  pane_exists: ["pane"],
  agent_status: ["pane", "statuses"],
  command_finished: ["pane"],
} as const satisfies Record<(typeof CONDITIONS)[number], readonly string[]>;

const WAIT_FIELDS = {
  condition: { type: "string", required: true, accepted: CONDITIONS, requires: CONDITION_NEEDS, description: "What to wait for" },
  pane: { type: "integer", description: "The pane to watch" },
  workspace: { type: "string", description: "The workspace name (workspace_exists; exact, then ignoring case)" },
  pattern: {
    type: "string",
    description: `output: a JavaScript regular expression (at most ${MAX_PATTERN_LENGTH} characters), matched against the source's lines joined with \\n, multiline (^ and $ match at each line's start and end); a check that takes over ${CHECK_BUDGET_MS} ms ends the wait with regex_timeout`,
  },
  ignore_case: { type: "boolean", default: false, description: "output: match ignoring case" },
  new: {
    type: "boolean",
    default: false,
    description:
      "output: match only text written after the wait starts (from the cursor's place then on), not what the pane already shows; without it the pane's whole text counts, a command line just typed included",
  },
  source: {
    type: "string",
    default: "recent",
    accepted: SOURCES,
    description: "output: what to match against (as pane_read); recent includes the scrollback, so output that scrolled away still matches",
  },
  idle_ms: { type: "integer", min: 1, max: 86_400_000, description: "idle: how long the pane must have been quiet" },
  statuses: { type: "string[]", accepted: AGENT_STATUSES, description: "agent_status: the statuses that end the wait; none means no agent reports" },
  timeout: { type: "integer", default: 30000, min: 0, max: 86_400_000, description: "Give up after this many ms, with code timeout; 0: no limit" },
} as const satisfies Fields;

/** wait_for's parameters as validated: one shape per condition, its own fields required. */
export type WaitParams = Static<typeof WAIT_FIELDS>;

/** What a wait answers: the condition and how long it took, then each condition's own fields. */
export const WAIT_REPLY = {
  condition: { type: "string", description: "The condition that held" },
  elapsed_ms: { type: "integer", description: "How long the wait took" },
  pane: { type: "integer", optional: true, description: "The pane (pane conditions)" },
  match: { type: "string", optional: true, description: "output: the text that matched" },
  groups: replyTyped<(string | null)[]>()({ type: "array", optional: true, description: "output: the regex's capture groups" }),
  line: { type: "integer", optional: true, description: "output: the 1-based source line where the match starts" },
  exit_code: { type: "integer|null", optional: true, description: "exit: the exit code (null when a signal ended it or the pane was closed); command_finished: the command's exit status" },
  command: { type: "string", optional: true, description: "command_finished: the command line, when the shell's marks show it" },
  signal: { type: "string|null", optional: true, description: "exit: the signal that ended it" },
  closed: { type: "boolean", optional: true, description: "exit: true when the pane was closed rather than its program exiting" },
  idle_ms: { type: "integer", optional: true, description: "idle: how long it has been quiet" },
  workspace: { type: "string", optional: true, description: "workspace_exists: the workspace's name; pane_exists: the pane's workspace" },
  tab: { type: "integer", optional: true, description: "pane_exists: the pane's tab" },
  status: { type: "string", optional: true, description: "agent_status: the status that matched" },
} as const satisfies ReplyFields;

export default defineMessage({
  type: "wait_for",
  since: 6,
  grant: "self",
  request: true,
  longRunning: true,
  reply: "wait_result",
  summary:
    "Block until a condition holds, then reply; `timeout` ends it with code timeout. It is woken by the events that can change its answer, never by polling. output: the pane's text (scrollback included) matches a regex, checked at once and then on new output; exit: the pane's program exits; idle: the pane has printed nothing for idle_ms; workspace_exists / pane_exists; agent_status: the pane's agent status is one of statuses; command_finished: the pane's shell finishes its next command (shell integration, docs/shell-integration.md).",
  fields: WAIT_FIELDS,
  replyFields: WAIT_REPLY,
  errors: ["timeout", "regex_timeout", "busy", "pane_not_found", "pane_exited", "unsupported"],
  example: { v: 6, id: 1, type: "wait_for", condition: "output", pane: 3, pattern: "build (ok|failed)", timeout: 120000 },
  cli: (
    [
      {
        path: "wait output",
        summary: "Until a pane's text matches a regex: by default all of it (scrollback and the command line just typed included); --new: only text written after the wait starts. To type a command and wait for its output, `ws pane send PANE TEXT --enter --wait-output PATTERN` (or `ws run` at a shell prompt)",
        args: ["pane", "pattern"],
        flags: ["new", "ignore_case", "source", "timeout"],
        fixed: { condition: "output" },
        view: "wait",
      },
      {
        path: "wait exit",
        summary: "Until a pane's program exits; prints its exit code and exits with it",
        args: ["pane"],
        flags: ["timeout"],
        fixed: { condition: "exit" },
        view: "wait",
        status: "exit_code",
      },
      { path: "wait idle", summary: "Until a pane has printed nothing for IDLE_MS milliseconds", args: ["pane", "idle_ms"], flags: ["timeout"], fixed: { condition: "idle" }, view: "wait" },
      { path: "wait workspace", summary: "Until a workspace exists", args: ["workspace"], flags: ["timeout"], fixed: { condition: "workspace_exists" }, view: "wait" },
      { path: "wait pane", summary: "Until a pane exists", args: ["pane"], flags: ["timeout"], fixed: { condition: "pane_exists" }, view: "wait" },
      {
        path: "wait agent",
        summary: "Until a pane's agent status is one of some (comma-separated)",
        args: ["pane", "statuses"],
        flags: ["timeout"],
        fixed: { condition: "agent_status" },
        view: "wait",
      },
      {
        path: "wait command",
        summary: "Until a pane's shell finishes its next command; prints its exit status and exits with it",
        args: ["pane"],
        flags: ["timeout"],
        fixed: { condition: "command_finished" },
        view: "wait",
        status: "exit_code",
      },
    ] satisfies MessageCli[]
  ).map((c) => ({ ...c, defaults: { timeout: 0 } })),
  handle: (p, ctx) => waitFor(p, ctx),
});
