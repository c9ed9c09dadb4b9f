import { defineMessage } from "./types";

export default defineMessage({
  type: "report",
  since: 1,
  grant: "report",
  request: false,
  summary: "An agent lifecycle event from a hook (ws report).",
  fields: {
    pane: { type: "integer", required: true, description: "The pane the agent runs in (`WS_PANE_ID`)" },
    agent: { type: "string", description: "Which agent CLI sent it, such as `claude` or `codex`" },
    event: { type: "string", required: true, description: "The hook's event name, such as `UserPromptSubmit` or `Stop`" },
    payload: { type: "any", default: null, description: "The hook's JSON input, passed through as is" },
  },
  example: { v: 1, type: "report", pane: 3, agent: "claude", event: "Stop", payload: { session_id: "abc" } },
  handle({ pane, agent, event, payload }, { services }) {
    services.get("agents")?.report(pane, agent, event, payload);
    // A turn starting in a workstream checkpoints it; the report was answered already, and the
    // checkpoint runs in the background.
    services.get("workstreams")?.checkpoints.reported(pane, event, payload);
    services.get("approvals")?.report(pane, event, payload);
  },
});
