import { WsError } from "../protocol/errors";
import { defineMessage, replyTyped } from "./types";

export default defineMessage({
  type: "session_save",
  since: 6,
  grant: "control",
  request: true,
  reply: "session_saved",
  summary: "Save the session now (ws session save). Replies with where, how big and what it holds.",
  fields: {
    full: { type: "boolean", default: false, description: "Take every pane's text again, not only that of panes with new output since the last save" },
  },
  replyFields: {
    path: { type: "string", description: "The save file" },
    bytes: { type: "integer", description: "Its size" },
    ms: { type: "integer", description: "How long the save took" },
    workspaces: { type: "integer", description: "Workspaces saved" },
    tabs: { type: "integer", description: "Tabs saved" },
    panes: { type: "integer", description: "Panes saved" },
    saved_at: { type: "string", description: "When, as an ISO 8601 time" },
    phases: replyTyped<{ capture: number; encode: number; write: number }>()({ type: "object", optional: true, description: "`capture`, `encode`, `write`: milliseconds spent taking the text, encoding and writing (with fsync)" }),
  },
  errors: ["unsupported"],
  // 100 panes of 10,000 lines each taken afresh (`full`) can outlast the 10 s answer deadline on a
  // loaded machine.
  longRunning: true,
  example: { v: 6, type: "session_save" },
  cli: { path: "session save", view: "saved" },
  async handle(p: { full: boolean }, { services }) {
    const svc = services.get("persistence");
    if (!svc) throw new WsError("this server does not save sessions", "unsupported");
    const s = await svc.save({ fresh: true, full: p.full });
    if (!s) throw new WsError("nothing to save", "invalid_request");
    return { type: "session_saved", ...s };
  },
});
