import { defineMessage } from "./types";
import type { AgentService } from "../features/agents/service";

export default defineMessage({
  type: "dashboard",
  since: 5,
  request: true,
  reply: "dashboard",
  summary: "What's happening: agents (most urgent first), workstreams and ports.",
  fields: {},
  example: { v: 5, type: "dashboard" },
  cli: { path: "dashboard", view: "dashboard" },
  handle(_p, { services }) {
    const agents = services.agents as AgentService | undefined;
    return { type: "dashboard", ...(agents?.dashboard() ?? { agents: [], workstreams: [], ports: [] }) };
  },
});
