import { layoutReply } from "../model/views";
import { LAYOUT_REPLY } from "./layout-shared";
import { defineMessage } from "./types";

export default defineMessage({
  type: "pane_swap",
  since: 6,
  grant: "workspace",
  request: true,
  reply: "layout",
  summary: "Swap two panes of one tab: the split shape and ratios stay, the panes (and their running programs) change places.",
  fields: {
    pane: { type: "integer", required: true, description: "One pane" },
    with: { type: "integer", required: true, description: "The other pane, in the same tab" },
  },
  replyFields: LAYOUT_REPLY,
  errors: ["pane_not_found", "cross_tab"],
  example: { v: 6, id: 1, type: "pane_swap", pane: 2, with: 3 },
  cli: { path: "pane swap", args: ["pane", "with"], defaults: { pane: "$WS_PANE_ID" } },
  handle(p, { session }) {
    const { ws, tab } = session.swapPanes(p.pane, p.with);
    return layoutReply(session, ws, tab);
  },
});
