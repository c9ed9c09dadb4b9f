// fan_start: one task raced by N agents (ws fan N TEMPLATE NAME PROMPT): N workstreams NAME-1…NAME-N
// from one base commit, a tab each (or tiled in one), and the same prompt into each agent once it
// reports ready, through the prompt queue (agent_send's `when: idle` path: typed at once when the
// agent waits for input, else when it next does).
import type { FanOpened } from "../features/workstreams/fan";
import { panesOf } from "../model/layout";
import { tabWhere } from "../model/session-lookups";
import { AGENT_DEFAULT } from "../protocol/grants";
import { defineMessage, PANE_START_ERRORS, replyTyped } from "./types";
import { fansOf } from "./fan-shared";
import { typeToAgent } from "./agent-typing";
import { MAX_CANDIDATES } from "../features/workstreams/fan";

export default defineMessage({
  type: "fan_start",
  since: 6,
  grant: "control",
  request: true,
  longRunning: true,
  reply: "fan_started",
  summary:
    "Race one task on several agents: `count` workstreams NAME-1…NAME-N from one base commit, each laid out by the template in its own tab (or all tiled in one tab), and `prompt` typed into each agent once it reports ready (or after the template's startup_ms). Replies once the tabs are open; the prompts follow (event fan_started, then fan_candidate_done as each agent finishes a turn).",
  fields: {
    count: { type: "integer", required: true, min: 1, max: MAX_CANDIDATES, description: "How many candidates (1: a single workstream NAME-1 with the fan's layout, prompt and status)" },
    template: { type: "string", required: true, description: "Template name (ws templates list)" },
    name: { type: "string", name: true, required: true, description: "The fan's name: its workstreams are NAME-1…NAME-N" },
    prompt: { type: "string", required: true, description: "What every agent is asked" },
    tiled: { type: "boolean", default: false, description: "All candidates side by side in one tab instead of a tab each" },
    project: { type: "string", name: true, description: "Project slug to link them to" },
    repo: { type: "string", description: "A directory in the git checkout to use when neither the template nor the project names a repo" },
  },
  replyFields: {
    fan: { type: "string", description: "The fan's name" },
    base: { type: "string", description: "The commit every candidate's branch starts from" },
    candidates: replyTyped<FanOpened[]>()({ type: "object[]", description: "Each {k, workstream, branch, dir, pane, workspace, tab}" }),
  },
  errors: ["invalid_params", "limit_exceeded", "project_not_found", "not_a_repo", "branch_exists", "path_taken", "workstream_exists", "template_not_found", "template_invalid", "git_failed", "setup_failed", "path_escapes", "unsupported", ...PANE_START_ERRORS],
  example: { v: 6, type: "fan_start", count: 3, template: "claude", name: "login", prompt: "Fix the login timeout" },
  cli: {
    path: "fan",
    summary: "Race a task on N agents: workstreams NAME-1…NAME-N from one base, the same prompt typed into each",
    args: ["count", "template", "name", "prompt"],
    flags: ["tiled", "project", "repo"],
    defaults: { repo: "$PWD" },
    view: "fanStarted",
  },
  async handle(p, { services, session }) {
    const fans = fansOf(services);
    if (p.project !== undefined) services.get("projects")?.check(p.project);
    const queue = services.get("agents")?.queue;
    const r = await fans.start(p, (pane, text) => {
      // A pane with no agent reporting (the template's start-up time ran out) gets it typed at once.
      if (queue) queue.add(pane, text, "idle", { orType: true });
      else void typeToAgent(session, pane, text);
    });
    // Each candidate runs an agent: its panes get the agent default.
    const grants = services.get("grants");
    for (const o of r.opened) for (const id of panesOf(tabWhere(session, o.tab)?.tab.layout ?? { kind: "pane", pane: o.pane })) grants?.set(id, AGENT_DEFAULT, AGENT_DEFAULT);
    return { type: "fan_started", fan: r.fan.name, base: r.fan.base, candidates: r.opened };
  },
});
