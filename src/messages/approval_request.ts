// approval_request: an agent's PermissionRequest hook (`ws approval-hook`) asks a person, through
// ws's inbox, and waits. The reply says allow, deny, or none (nobody answered in ws: the agent's
// own dialog decides). Closing the connection withdraws the request.
import { defineMessage } from "./types";

export const MAX_TIMEOUT_MS = 3_600_000;

export default defineMessage({
  type: "approval_request",
  since: 6,
  grant: "report",
  request: true,
  longRunning: true,
  reply: "approval_decision",
  summary:
    "Put an agent's permission request in the inbox and wait for a person's answer (the hook `ws approval-hook` sends it). The reply comes when someone answers in ws (approval_answer), when the agent moves on (its own dialog was answered), when the pane closes, or at `timeout`; `behavior` none means the agent's own dialog decides. Closing the connection withdraws the request. Requests live in the server only: a restart forgets them.",
  fields: {
    pane: { type: "integer", required: true, description: "The pane the agent runs in (`WS_PANE_ID`)" },
    agent: { type: "string", description: "Which agent CLI asks, such as `claude`" },
    payload: { type: "any", default: null, description: "The hook's JSON input as the agent gave it (`tool_name`, `tool_input`, `tool_use_id`, …)" },
    timeout: { type: "integer", default: 300000, min: 1, max: MAX_TIMEOUT_MS, description: "Give up after this many ms and answer none" },
  },
  replyFields: {
    approval: { type: "integer", optional: true, description: "The request's id (as approval_list showed it)" },
    behavior: { type: "string", description: "allow, deny, or none (nobody answered in ws)" },
    message: { type: "string", optional: true, description: "deny: the reason the person gave" },
    by: { type: "string", description: "Who ended it: ws, web (a person on ws web's pages), agent (its own dialog answered, or it moved on), timeout, gone (the pane closed)" },
  },
  errors: ["pane_not_found", "limit_exceeded", "unsupported"],
  example: { v: 6, id: 1, type: "approval_request", pane: 3, agent: "claude", payload: { tool_name: "Bash", tool_input: { command: "rm -rf build" } }, timeout: 300000 },
  async handle(p, { session, services, signal }) {
    session.pane(p.pane);
    const approvals = services.get("approvals");
    if (!approvals) return { type: "approval_decision", behavior: "none", by: "gone" };
    let id = 0;
    const d = await approvals.request({ pane: p.pane, agent: p.agent, payload: p.payload, timeoutMs: p.timeout, signal, onId: (n) => (id = n) });
    return { type: "approval_decision", approval: id, behavior: d.behavior, ...(d.message !== undefined ? { message: d.message } : {}), by: d.by };
  },
});
