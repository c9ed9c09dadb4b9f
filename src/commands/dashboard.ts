import { defineMessage } from "./types";

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
    const agents = services.get("agents");
    return { type: "dashboard", ...(agents?.dashboard() ?? { agents: [], workstreams: [], ports: [] }) };
  },
});
