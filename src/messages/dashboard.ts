import type { DashboardWorkstream } from "../features/workstreams/service";
import type { DashboardAgent, DashboardPort } from "../features/agents/service";
import { defineMessage, replyTyped } from "./types";

/** How long the dashboard waits for PR statuses gh has not told yet (later asks use what is known). */
const PR_WAIT_MS = 3000;

export default defineMessage({
  type: "dashboard",
  since: 5,
  grant: "self",
  scope: "any",
  request: true,
  reply: "dashboard",
  summary: "What's happening: agents (most urgent first), workstreams and ports.",
  fields: {},
  replyFields: {
    agents: replyTyped<DashboardAgent[]>()({
      type: "array",
      description:
        "Most urgent first. Each: `pane`, `workspace`, `tab` (its name), `tab_id`, `label`, `agent`? (claude, codex, gemini, …), `workstream`?, `session`? (the agent's own conversation id; a restore resumes it), `status` (blocked, working, done, idle), `detail`?, `secs` (in this status), `restored`? (kept over a respawn or restore, not reported since), `interrupted`? (restored from a save taken mid-turn), `queued`? (prompts queued for it); the same rows as agent_list",
    }),
    workstreams: replyTyped<DashboardWorkstream[]>()({ type: "array", description: "Each: `name`, `workspace`, `pane`, `branch`?, `pr`?; at v6 also `ahead` (commits no remote branch has) and `pushed`" }),
    ports: replyTyped<DashboardPort[]>()({ type: "array", description: "Listening TCP ports. Each: `port`, `pane`, `workspace`, `tab`, `command`" }),
  },
  example: { v: 5, type: "dashboard" },
  cli: { path: "dashboard", view: "dashboard" },
  async handle(_p, { services, version }) {
    const agents = services.get("agents");
    const base = agents?.dashboard() ?? { agents: [], workstreams: [], ports: [] };
    const workstreams = (await services.get("workstreams")?.rows(PR_WAIT_MS, { ship: (version ?? 5) >= 6 })) ?? base.workstreams;
    return { type: "dashboard", ...base, workstreams };
  },
});
