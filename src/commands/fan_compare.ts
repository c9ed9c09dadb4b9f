// fan_compare: a review tab diffing a fan's candidates side by side (ws fan compare NAME).
import { defineMessage, PANE_START_ERRORS } from "./types";
import { fansOf } from "./fan-shared";

export default defineMessage({
  type: "fan_compare",
  since: 6,
  grant: "control",
  request: true,
  reply: "pane",
  summary:
    "Open a review tab that diffs a fan's candidates side by side: candidate 1's branch against each other candidate's, one pane each, with git difftool in Neovim's diff mode when nvim is on the server's PATH, else git diff. The panes stay when the diff ends.",
  fields: {
    name: { type: "string", name: true, required: true, description: "The fan, or one of its candidates' workstreams (ws fan: the workstream this runs in when not given)" },
  },
  replyFields: {
    pane: { type: "integer", description: "The new tab's focused pane" },
    workspace: { type: "string", description: "The tab's workspace" },
    tab: { type: "integer", description: "The tab's id" },
    tool: { type: "string", description: "nvim or git" },
    pairs: { type: "string[][]", description: "The branches each pane diffs, [a, b], left to right" },
  },
  errors: ["not_a_workstream", "unsupported", ...PANE_START_ERRORS],
  example: { v: 6, type: "fan_compare", name: "login" },
  cli: { path: "fan compare", summary: "Open a tab diffing the candidates' branches side by side (Neovim's diff mode when there)", args: ["name?"], run: "checkpoint", view: "pane" },
  handle(p, { services }) {
    const r = fansOf(services).compare(p.name);
    return { type: "pane", pane: r.tab.focused, workspace: r.ws.name, tab: r.tab.id, tool: r.tool, pairs: r.pairs };
  },
});
