import { defineMessage, ok } from "./types";

export default defineMessage({
  type: "pane_focus",
  since: 5,
  grant: "workspace",
  request: true,
  reply: "ok",
  summary: "Switch to a pane: its workspace, its tab and the pane.",
  fields: { pane: { type: "integer", required: true, description: "The pane" } },
  example: { v: 5, type: "pane_focus", pane: 12 },
  cli: { path: "pane focus", args: ["pane"], defaults: { pane: "$WS_PANE_ID" } },
  handle({ pane }, { session }) {
    session.pane(pane);
    session.focusPane(pane);
    return ok();
  },
});
