import { layoutReply } from "../model/views";
import { LAYOUT_PRESETS } from "../model/layout-presets";
import { LAYOUT_REPLY } from "./layout-shared";
import { defineMessage } from "./types";

export default defineMessage({
  type: "layout_select",
  since: 6,
  grant: "workspace",
  request: true,
  reply: "layout",
  summary:
    "Arrange a tab's panes in one of tmux's preset layouts (tmux select-layout): the same panes, running on, in their order; main-* give the first pane the main place. A zoomed tab is unzoomed.",
  fields: {
    tab: { type: "integer", description: "The tab's id" },
    pane: { type: "integer", description: "A pane in the tab, when tab is left out. Neither: the tab on screen" },
    layout: { type: "string", required: true, accepted: LAYOUT_PRESETS, description: "even-horizontal: side by side; even-vertical: stacked; main-vertical: the first on the left, the rest stacked on the right; main-horizontal: the first on top, the rest side by side below; tiled: a grid" },
    main_width: { type: "integer", min: 1, max: 9999, description: "main-vertical: the first pane's width (default 80, tmux's main-pane-width)" },
    main_height: { type: "integer", min: 1, max: 9999, description: "main-horizontal: the first pane's height (default 24, tmux's main-pane-height)" },
  },
  replyFields: LAYOUT_REPLY,
  errors: ["tab_not_found", "pane_not_found"],
  example: { v: 6, id: 1, type: "layout_select", pane: 3, layout: "main-vertical" },
  cli: { path: "layout select", args: ["layout"], defaults: { pane: "$WS_PANE_ID" }, summary: "Arrange a tab's panes as one of tmux's layouts (even-horizontal, even-vertical, main-vertical, main-horizontal, tiled)" },
  handle(p, { session }) {
    const { ws, tab } = session.resolveTab(p);
    session.arrange(ws, tab, p.layout, { width: p.main_width, height: p.main_height });
    return layoutReply(session, ws, tab);
  },
});
