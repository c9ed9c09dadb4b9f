import { defineMessage, ok } from "./types";

export default defineMessage({
  type: "pane_border",
  since: 6,
  grant: "self",
  request: true,
  reply: "ok",
  summary:
    "tmux's pane-border-format and pane-border-status, as the tmux shim sets them: with its tab's status `top` or `bottom`, a pane's label row shows its format (its own, else the tab's, else tmux's default) expanded and styled as tmux draws it; with `off` or none, ws's own label. Omitted fields are left as they are; an empty format clears it.",
  fields: {
    pane: { type: "integer", required: true, description: "The pane (and, for `tab_format` and `status`, its tab)" },
    format: { type: "string", description: "The pane's own format (tmux's `set-option -p pane-border-format`)" },
    tab_format: { type: "string", description: "The tab's format, for its panes without their own (`set-option -w pane-border-format`)" },
    status: { type: "string", accepted: ["top", "bottom", "off"], description: "The tab's pane-border-status; `bottom` is drawn in the same row as `top` (ws's label rows are above their panes)" },
  },
  errors: ["pane_not_found"],
  example: { v: 6, id: 1, type: "pane_border", pane: 3, format: "#[fg=blue,bold] #{pane_title} #[default]" },
  handle(p, { session }) {
    session.setPaneBorder(p.pane, { format: p.format, tabFormat: p.tab_format, status: p.status as "top" | "bottom" | "off" | undefined });
    return ok();
  },
});
