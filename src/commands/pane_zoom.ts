import { layoutReply } from "../server/v6-model";
import { LAYOUT_REPLY } from "./layout-shared";
import { defineMessage } from "./types";

export default defineMessage<{ pane: number; mode: "toggle" | "on" | "off" }>({
  type: "pane_zoom",
  since: 6,
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
  handle(p, { session }) {
    session.pane(p.pane);
    const { ws, tab } = session.locate(p.pane);
    const on = p.mode === "on" || (p.mode === "toggle" && tab.zoomed !== p.pane);
    const next = on ? p.pane : undefined;
    const changed = tab.zoomed !== next;
    if (changed) {
      tab.zoomed = next;
      if (on && tab.focused !== p.pane) {
        tab.focused = p.pane;
        session.bus.emit({ type: "pane_focused", workspace: ws.name, tab: tab.id, pane: p.pane });
      }
      session.setLayout(ws, tab, tab.layout); // relayout and publish layout_changed
    }
    return { ...layoutReply(session, ws, tab), changed };
  },
});
