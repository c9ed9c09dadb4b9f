import { layoutReply } from "../model/views";
import { LAYOUT_REPLY } from "./layout-shared";
import { defineMessage } from "./types";

export default defineMessage({
  type: "pane_zoom",
  since: 6,
  grant: "self",
  request: true,
  reply: "layout",
  summary: "Show a pane alone, filling its tab (zoom), or put the tab's layout back.",
  fields: {
    pane: { type: "integer", required: true, description: "The pane" },
    mode: { type: "string", default: "toggle", accepted: ["toggle", "on", "off"], description: "on: zoom it; off: unzoom its tab; toggle: whichever it is not" },
  },
  replyFields: { ...LAYOUT_REPLY, changed: { type: "boolean", description: "Whether the zoom changed" } },
  errors: ["pane_not_found"],
  example: { v: 6, id: 1, type: "pane_zoom", pane: 2, mode: "on" },
  cli: { path: "pane zoom", args: ["pane", "mode?"], defaults: { pane: "$WS_PANE_ID" } },
  handle(p, { session }) {
    const changed = session.zoom(p.pane, p.mode);
    const { ws, tab } = session.locate(p.pane);
    return { ...layoutReply(session, ws, tab), changed };
  },
});
