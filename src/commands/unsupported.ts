// Messages of the spec whose features (workstream templates, Neovim, project handoff, PR
// review) this build does not have yet. They are registered so they validate and are described;
// non-requests are accepted and logged, requests answer an error saying so.
import { WsError } from "../protocol/errors";
import { defineMessage } from "./types";

const notHere = (what: string) => new WsError(`${what} are not supported by this ws build`, "unsupported");

export const newWorkstream = defineMessage({
  type: "new_workstream",
  since: 1,
  request: false,
  summary: "Open a workstream from a template (not supported by this build: logged and ignored).",
  fields: {
    template: { type: "string", required: true, description: "Template name" },
    name: { type: "string", name: true, required: true, description: "Workstream name" },
    branch: { type: "string", description: "Existing branch to check out. Without it, a new branch named `name`" },
    pr: { type: "integer", description: "Pull request to check out instead" },
    project: { type: "string", name: true, description: "Project slug to link it to" },
  },
  example: { v: 1, type: "new_workstream", template: "design-system-pr", name: "pr-101", pr: 101 },
  handle(p) {
    console.error(`new_workstream ${JSON.stringify(p)}: workstream templates are not supported by this build`);
  },
});

export const workstreamDone = defineMessage({
  type: "workstream_done",
  since: 2,
  request: true,
  reply: "ok",
  summary: "Finish a workstream: close its tab and remove its git worktree.",
  fields: {
    name: { type: "string", name: true, description: "The workstream's name" },
    pane: { type: "integer", description: "A pane in the workstream's tab, used when name is missing" },
    force: { type: "boolean", default: false, description: "Remove it even with uncommitted or unpushed work" },
  },
  example: { v: 2, type: "workstream_done", name: "pr-101" },
  handle(p: { name?: string; pane?: number }, { session }) {
    if (p.name === undefined && p.pane === undefined) throw new WsError("give name or pane", "invalid_params", { param: "name" });
    if (p.pane !== undefined) session.pane(p.pane);
    throw new WsError(p.name !== undefined ? `no workstream "${p.name}" (have: none)` : `pane ${p.pane} is not in a workstream`, "not_a_workstream");
  },
});

export const openReview = defineMessage({
  type: "open_review",
  since: 3,
  request: true,
  reply: "pane",
  summary: "Open a review tab from a template (not supported by this build).",
  fields: {
    workspace: { type: "string", name: true, required: true, description: "Workspace for the tab, made if missing" },
    title: { type: "string", name: true, required: true, description: "The tab's name" },
    name: { type: "string", name: true, required: true, description: "Workstream name that identifies the review" },
    template: { type: "string", required: true, description: "Template that lays out the tab" },
    repo: { type: "string", required: true, description: "The main clone" },
    dir: { type: "string", required: true, description: "The review's worktree, where panes start" },
    branch: { type: "string", description: "The PR's branch, for PR status" },
    vars: { type: "pairs", default: [], description: "Template placeholders" },
    fresh: { type: "boolean", default: false, description: "Replace an open tab for the same name" },
    focus: { type: "boolean", default: true, description: "Switch to the tab" },
  },
  handle() {
    throw notHere("review templates");
  },
});
