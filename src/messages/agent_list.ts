// agent_list: every reporting agent's row (ws agent list), the Dashboard's rows by another name.
import type { DashboardAgent } from "../features/agents/service";
import { defineMessage, replyTyped } from "./types";

export default defineMessage({
  type: "agent_list",
  since: 6,
  grant: "self",
  scope: "any",
  request: true,
  reply: "agent_list",
  summary: "Every agent that reports, most urgent first: the same rows as the dashboard's `agents`, so scripts can tell agents apart.",
  fields: {},
  replyFields: {
    agents: replyTyped<DashboardAgent[]>()({
      type: "array",
      description:
        "Most urgent first. Each: `pane`, `workspace`, `tab` (its name), `tab_id`, `label`, `agent`? (claude, codex, gemini, …), `workstream`?, `session`? (the agent's own conversation id; a restore resumes it), `status` (blocked, working, done, idle), `detail`?, `secs` (in this status), `restored`? (kept over a respawn or restore, not reported since), `interrupted`? (restored from a save taken mid-turn), `queued`? (prompts queued for it)",
    }),
  },
  example: { v: 6, id: 1, type: "agent_list" },
  cli: { path: "agent list", summary: "Every agent: workstream, tab, pane, kind, session id and status", view: "agentList" },
  handle(_p, { services }) {
    return { type: "agent_list", agents: services.get("agents")?.rows() ?? [] };
  },
});
