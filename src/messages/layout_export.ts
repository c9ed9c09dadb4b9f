import { layoutReply } from "../model/views";
import { LAYOUT_REPLY } from "./layout-shared";
import { defineMessage } from "./types";

export default defineMessage({
  type: "layout_export",
  since: 6,
  grant: "workspace",
  request: true,
  reply: "layout",
  summary: "A tab's split tree: directions, ratios, and each pane's label, cwd and command. layout_apply takes the same tree.",
  fields: {
    tab: { type: "integer", description: "The tab's id (from session_snapshot or events)" },
    pane: { type: "integer", description: "A pane in the tab, when tab is left out. Neither: the tab on screen" },
  },
  replyFields: LAYOUT_REPLY,
  errors: ["tab_not_found", "pane_not_found"],
  example: { v: 6, id: 1, type: "layout_export", pane: 1 },
  cli: { path: "layout export", summary: "Print a tab's split tree as JSON (what ws layout apply reads)", defaults: { pane: "$WS_PANE_ID" }, view: "tree" },
  handle(p, { session }) {
    const { ws, tab } = session.resolveTab(p);
    return layoutReply(session, ws, tab);
  },
});
