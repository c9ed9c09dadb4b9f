// approval_answer: a person allows or denies a waiting request (ws approve, ws deny). A person verb
// (server/trust.ts): refused on every pane's socket, and on the main socket from a process inside a
// ws pane or one gone before it could be placed (docs/security.md "Approvals").
import { WsError } from "../protocol/errors";
import { defineMessage } from "./types";

export const MAX_MESSAGE = 2000;

export default defineMessage({
  type: "approval_answer",
  since: 6,
  grant: "person",
  request: true,
  reply: "approval_answered",
  summary:
    "Allow or deny a waiting permission request; its hook prints the decision to its agent (a prompt ws saw on the screen of an agent without hooks: the keys that agent's prompt takes are typed into its pane, after checking that the pane still shows that same prompt; otherwise prompt_not_shown, and nothing is typed). A person verb: refused with forbidden on the panes' socket, and when the connecting process runs inside a ws pane (an agent must not answer its own or another agent's request) or is gone before the server can tell: answer from the attached client or a terminal outside ws.",
  fields: {
    approval: { type: "integer", required: true, description: "The request's id (ws inbox)" },
    behavior: { type: "string", required: true, accepted: ["allow", "deny"], description: "The answer" },
    message: { type: "string", description: `deny: the reason, which the agent reads (at most ${MAX_MESSAGE} characters)` },
    by: { type: "string", default: "ws", accepted: ["ws", "web"], description: "Where the person answered: ws (the attached client, the CLI) or web (ws web's pages); approval_resolved's `by` records it" },
  },
  replyFields: {
    approval: { type: "integer", description: "The request answered" },
    pane: { type: "integer", description: "Its agent's pane" },
    behavior: { type: "string", description: "The answer given" },
    by: { type: "string", description: "Where it was answered: ws or web" },
  },
  errors: ["approval_not_found", "prompt_not_shown", "forbidden", "invalid_params"],
  example: { v: 6, id: 1, type: "approval_answer", approval: 4, behavior: "deny", message: "not on main" },
  cli: [
    { path: "approve", summary: "Allow a waiting permission request (ws inbox lists them)", args: ["approval"], fixed: { behavior: "allow" }, flags: [], view: "approvalAnswered" },
    { path: "deny", summary: "Deny a waiting permission request, optionally saying why", args: ["approval"], fixed: { behavior: "deny" }, flags: ["message"], view: "approvalAnswered" },
  ],
  handle(p, { services }) {
    if (p.message !== undefined && p.message.length > MAX_MESSAGE)
      throw new WsError(`message must be at most ${MAX_MESSAGE} characters, got ${p.message.length}`, "invalid_params", { param: "message" });
    const approvals = services.get("approvals");
    if (!approvals) throw new WsError("this build has no approvals inbox", "unsupported");
    const a = approvals.answer(p.approval, p.behavior, p.behavior === "deny" ? p.message : undefined, p.by);
    return { type: "approval_answered", approval: a.id, pane: a.pane, behavior: p.behavior, by: p.by };
  },
});
