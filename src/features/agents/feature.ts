// Plugs the agent feature (statuses, ports) into the daemon: one service, registered by name.
import type { Feature } from "../feature";
import { AgentService } from "./service.ts";
import { ScreenWatch } from "./screen-watch.ts";

export default function agentsFeature(): Feature {
  let svc: AgentService | undefined;
  return {
    name: "agents",
    provide(d) {
      const agents = new AgentService(d.session);
      svc = agents;
      d.services.provide("agents", agents);
      d.services.provide("portsOf", (pane) => agents.ports.ports(pane));
    },
    start(d) {
      svc?.start();
      // Agents without hooks: status from their screen, their prompts in the inbox.
      if (svc) svc.screens = new ScreenWatch(d.session, svc, d.services.get("approvals"));
    },
    stop() {
      svc?.screens?.stop();
      svc?.stop();
    },
  };
}
