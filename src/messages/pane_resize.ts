import { resizePane, panesOf } from "../model/layout";
import { layoutReply } from "../model/views";
import { LAYOUT_REPLY } from "./layout-shared";
import { defineMessage } from "./types";

export default defineMessage({
  type: "pane_resize",
  since: 6,
  grant: "self",
  request: true,
  reply: "layout",
  summary: "Grow a pane by some cells along an axis, moving the nearest split of that axis (as tmux resize-pane does). A pane with no split on that axis is left as it is.",
  fields: {
    pane: { type: "integer", required: true, description: "The pane" },
    direction: { type: "string", required: true, accepted: ["left", "right", "up", "down"], description: "left or right: grow its width; up or down: grow its height. The split between it and its neighbour moves" },
    cells: { type: "integer", default: 1, min: 1, max: 10000, description: "How many cells" },
  },
  replyFields: { ...LAYOUT_REPLY, changed: { type: "boolean", description: "Whether the layout moved" } },
  errors: ["pane_not_found"],
  example: { v: 6, id: 1, type: "pane_resize", pane: 2, direction: "right", cells: 5 },
  cli: { path: "pane resize", args: ["pane", "direction", "cells?"], defaults: { pane: "$WS_PANE_ID" } },
  handle(p, { session }) {
    const { ws, tab } = session.locate(p.pane);
    const axis = p.direction === "left" || p.direction === "right" ? "right" : "below";
    const next = resizePane(tab.layout, p.pane, axis, p.cells, session.layoutArea(), panesOf(tab.layout).length > 1);
    const changed = JSON.stringify(next) !== JSON.stringify(tab.layout);
    if (changed) session.setLayout(ws, tab, next);
    return { ...layoutReply(session, ws, tab), changed };
  },
});
