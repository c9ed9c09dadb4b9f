// new_workstream: a task in its own git worktree and tab, from a template (ws new). At v1–v5 it is
// answered `ok` and done afterwards, as the spec says; sent at v6 it is a request, so the CLI can
// print the new tab's pane or say why not (not a repo, a branch that exists, a path taken, …).
import { WsError } from "../protocol/errors";
import { panesOf } from "../model/layout";
import { MAX_PROMPT_CHARS } from "../features/agents/queue";
import { PANE_START_ERRORS, defineMessage } from "./types";

export default defineMessage({
  type: "new_workstream",
  since: 1,
  grant: "control",
  request: false,
  requestFrom: 6,
  longRunning: true,
  reply: "pane",
  summary:
    "Open a workstream from a template: a git worktree (a new branch `name` from the template's base, an existing `branch`, or PR `pr`'s head), the template's files copied and its setup run there, then its tab, every pane with WS_WORKSTREAM set. Sent at v6 it replies once the tab is open, or with the error (docs/workstreams.md).",
  fields: {
    template: { type: "string", required: true, description: "Template name (ws templates list)" },
    name: { type: "string", name: true, required: true, description: "Workstream name" },
    branch: { type: "string", description: "Existing branch to check out. Without it, a new branch named `name`" },
    pr: { type: "integer", min: 1, description: "Pull request to check out instead" },
    project: { type: "string", name: true, description: "Project slug to link it to" },
    repo: { type: "string", description: "v6: a directory in the git checkout to use when neither the template nor the project names a repo (older servers ignore it)" },
    prompt: { type: "string", description: "v6: the agent's first prompt, queued (agent_send `when: idle`): typed once the agent reports it waits for input. `-` in the CLI reads it from stdin" },
  },
  replyFields: {
    pane: { type: "integer", description: "The agent's pane: the first of the template's `agent` (or `grants`) panes, else the new tab's focused pane" },
    workstream: { type: "string", description: "The workstream's name" },
    worktree: { type: "string", description: "The worktree (as `dir`)" },
    prompt: { type: "integer", optional: true, description: "The queued prompt's id, when `prompt` was given (ws agent queue)" },
    workspace: { type: "string", description: "The tab's workspace" },
    tab: { type: "integer", description: "The tab's id" },
    dir: { type: "string", description: "The worktree" },
    branch: { type: "string", optional: true, description: "Its branch" },
  },
  errors: ["project_not_found", "not_a_repo", "branch_exists", "branch_not_found", "path_taken", "workstream_exists", "template_not_found", "template_invalid", "git_failed", "setup_failed", "path_escapes", "unsupported", ...PANE_START_ERRORS],
  example: { v: 1, type: "new_workstream", template: "design-system-pr", name: "pr-101", pr: 101 },
  cli: {
    path: "new",
    summary: "Open a workstream: a git worktree and a tab laid out by TEMPLATE (ws new default NAME)",
    args: ["template", "name"],
    defaults: { repo: "$PWD" },
    run: "newWorkstream",
  },
  async handle(p, { services, session }) {
    const svc = services.get("workstreams");
    if (!svc) throw new WsError("workstreams are not supported by this ws build", "unsupported");
    if (p.project !== undefined) services.get("projects")?.check(p.project);
    const agents = services.get("agents");
    if (p.prompt !== undefined) {
      if (!agents) throw new WsError("agents are not supported by this ws build: no prompt can be queued", "unsupported");
      if (p.prompt.length > MAX_PROMPT_CHARS) throw new WsError(`a prompt is at most ${MAX_PROMPT_CHARS} characters, this one ${p.prompt.length}`, "invalid_params", { param: "prompt", limit: MAX_PROMPT_CHARS });
    }
    const r = await svc.create(p);
    // The template's agent pane (marked `agent`, or given grants), else the pane the person sees.
    const pane = panesOf(r.tab.layout).find((id) => session.panes.get(id)?.startGrants !== undefined) ?? r.tab.focused;
    // Typed when the agent first reports it waits for input, through the queue (ws agent queue).
    const queued = p.prompt !== undefined && p.prompt !== "" ? agents!.queue.add(pane, p.prompt, "idle").prompt.id : undefined;
    return { type: "pane", pane, workspace: r.ws.name, tab: r.tab.id, workstream: p.name, dir: r.dir, worktree: r.dir, branch: r.branch, ...(queued !== undefined ? { prompt: queued } : {}) };
  },
});
