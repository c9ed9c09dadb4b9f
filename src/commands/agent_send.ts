import { defineMessage } from "./types";
import { UNTIL_DEFAULT, typeToAgent, type AgentWait } from "./agent-typing";
import { WsError } from "../protocol/errors";
import { AGENT_STATUSES } from "./wait_for";

const MAX_WAIT_MS = 86_400_000;

/** `wait` checked and completed (an object field's contents are the message's own to check). */
function waitProblem(v: unknown): string | undefined {
  const w = v as Record<string, unknown>;
  for (const k of Object.keys(w)) if (k !== "until" && k !== "timeout") return `unknown field \`wait.${k}\` (accepted: until, timeout)`;
  if (w.until !== undefined) {
    if (!Array.isArray(w.until) || !w.until.length || !w.until.every((s) => typeof s === "string")) return "`wait.until` must be a non-empty array of statuses";
    const off = w.until.find((s) => !AGENT_STATUSES.includes(s as never) || s === "none");
    if (off !== undefined) return `invalid value in \`wait.until\`: "${off}", expected any of ${AGENT_STATUSES.filter((s) => s !== "none").join(", ")}`;
  }
  if (w.timeout !== undefined && !(Number.isSafeInteger(w.timeout) && (w.timeout as number) >= 0 && (w.timeout as number) <= MAX_WAIT_MS))
    return `\`wait.timeout\` must be an integer from 0 (no limit) to ${MAX_WAIT_MS}`;
  return undefined;
}

export default defineMessage<{ pane: number; text: string; wait?: Partial<AgentWait> }>({
  type: "agent_send",
  since: 4,
  request: true,
  longRunning: true,
  reply: "pane",
  summary:
    "Type text into the agent in the tab holding pane, as a paste, then press Enter. With `wait` (v6) it then waits, in the same request, for the agent to report one of `wait.until`; an agent blocked on a prompt of its own is refused with agent_blocked before anything is typed.",
  fields: {
    pane: { type: "integer", required: true, description: "A pane in the tab (usually the caller's own, `$WS_PANE_ID`)" },
    text: { type: "string", required: true, description: "What to type" },
    wait: {
      type: "object",
      description: `Then wait for the agent's status: until (default ${UNTIL_DEFAULT.join(", ")}), timeout in ms (default 0: no limit). Only a status it reports after the text is typed counts`,
      shape: "{ until?: string[] (blocked | working | done | idle), timeout?: integer }",
      check: waitProblem,
    },
  },
  replyFields: {
    pane: { type: "integer", description: "The agent's pane" },
    status: { type: "string", description: "wait: the status that ended the wait" },
    elapsed_ms: { type: "integer", description: "wait: how long the wait took" },
  },
  errors: ["no_agent", "agent_blocked", "timeout", "pane_exited"],
  example: { v: 4, type: "agent_send", pane: 7, text: "Address these unresolved review comments. …" },
  cli: {
    path: "agent send",
    args: ["text"],
    defaults: { pane: "$WS_PANE_ID" },
    flags: ["pane"],
    switches: { wait: { field: "wait", value: {}, description: `Then wait until the agent is ${UNTIL_DEFAULT.join(", ")}; prints the status` } },
    view: "agentSent",
  },
  handle({ pane, text, wait }, { session, services, signal }) {
    session.pane(pane); // no such pane: the usual pane_not_found error
    const agents = services.get("agents");
    const target = agents?.agentPaneFor(pane);
    if (target === undefined) {
      throw new WsError(`no agent in the tab of pane ${pane} (an agent is a pane whose hooks report to ws; see ws hooks install)`, "no_agent", {
        param: "pane",
        command: "ws hooks install claude",
      });
    }
    if (wait && agents?.status(target)?.status === "blocked")
      throw new WsError(`the agent in pane ${target} is blocked on a prompt (${agents.status(target)?.detail ?? "it asks for an answer"}); typing would answer it`, "agent_blocked", { param: "pane" });
    return typeToAgent(session, target, text, wait && { until: wait.until ?? UNTIL_DEFAULT, timeout: wait.timeout ?? 0 }, signal);
  },
});
