import { defineMessage, ok } from "./types";

export default defineMessage({
  type: "pane_close",
  since: 2,
  grant: "self",
  request: true,
  reply: "ok",
  summary: "Close a pane and stop what runs in it. An emptied tab or workspace closes too; closing the last pane is an error.",
  fields: { pane: { type: "integer", required: true, description: "The pane id" } },
  example: { v: 2, type: "pane_close", pane: 4 },
  cli: { path: "pane close", args: ["pane"], defaults: { pane: "$WS_PANE_ID" } },
  handle({ pane }, { session }) {
    session.closePane(pane);
    return ok();
  },
});
