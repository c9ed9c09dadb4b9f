// fan_compare: a review tab diffing a fan's candidates side by side (ws fan compare NAME).
import type { CompareRow } from "../features/workstreams/fan";
import { defineMessage, PANE_START_ERRORS, replyTyped } from "./types";
import { fansOf } from "./fan-shared";

export default defineMessage({
  type: "fan_compare",
  since: 6,
  grant: "control",
  request: true,
  longRunning: true,
  reply: "pane",
  summary:
    "Open a review tab that shows each open candidate's changes against the fan's base side by side, one pane each: its worktree as it is now, committed, uncommitted and untracked work alike (the changes fan_status counts), with git difftool in Neovim's diff mode when nvim is on the server's PATH, else git diff. The panes stay when the diff ends; a compare opened before closes, and fan_keep closes this one.",
  fields: {
    name: { type: "string", name: true, required: true, description: "The fan, or one of its candidates' workstreams (ws fan: the workstream this runs in when not given)" },
  },
  replyFields: {
    pane: { type: "integer", description: "The new tab's focused pane" },
    workspace: { type: "string", description: "The tab's workspace" },
    tab: { type: "integer", description: "The tab's id" },
    tool: { type: "string", description: "nvim or git" },
    candidates: replyTyped<CompareRow[]>()({ type: "object[]", description: "Each pane's candidate, left to right: {k, workstream, tree (its worktree's state, the diff's right side), files, added, removed, paths (at most 1000)}" }),
  },
  errors: ["not_a_workstream", "unsupported", ...PANE_START_ERRORS],
  example: { v: 6, type: "fan_compare", name: "login" },
  cli: { path: "fan compare", summary: "Open a tab showing each candidate's changes against the base side by side, uncommitted and untracked work included (Neovim's diff mode when there)", args: ["name?"], run: "checkpoint", view: "pane" },
  async handle(p, { services }) {
    const r = await fansOf(services).compare(p.name);
    return { type: "pane", pane: r.tab.focused, workspace: r.ws.name, tab: r.tab.id, tool: r.tool, candidates: r.candidates };
  },
});
