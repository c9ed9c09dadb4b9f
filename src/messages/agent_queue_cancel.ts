// agent_queue_cancel: take a prompt out of an agent's queue before it is typed (ws agent queue cancel ID).
import { WsError } from "../protocol/errors";
import { defineMessage } from "./types";

export default defineMessage({
  type: "agent_queue_cancel",
  since: 6,
  grant: "self",
  scope: "any",
  request: true,
  reply: "prompt_cancelled",
  summary: "Take a queued prompt out of its agent's queue before it is typed; those behind it move up.",
  fields: {
    prompt: { type: "integer", required: true, description: "The prompt's id (ws agent queue)" },
  },
  replyFields: {
    prompt: { type: "integer", description: "The prompt taken out" },
    pane: { type: "integer", description: "Its agent's pane" },
  },
  errors: ["prompt_not_found"],
  example: { v: 6, id: 1, type: "agent_queue_cancel", prompt: 3 },
  cli: { path: "agent queue cancel", summary: "Take a queued prompt out before it is typed (ws agent queue lists them)", args: ["prompt"], view: "promptCancelled" },
  handle({ prompt }, { services }) {
    const queue = services.get("agents")?.queue;
    if (!queue) throw new WsError("this build has no prompt queue", "unsupported");
    const p = queue.cancel(prompt);
    return { type: "prompt_cancelled", prompt: p.id, pane: p.pane };
  },
});
