// Plugs the agent feature (statuses, ports) into the daemon: one service, registered by name.
import type { Feature } from "../../server/features";
import type { PortsOf } from "../../server/info";
import { AgentService } from "./service.ts";

export default function agentsFeature(): Feature {
  let svc: AgentService | undefined;
  return {
    name: "agents",
    start(d) {
      svc = new AgentService(d.session);
      d.services.agents = svc;
      d.services.portsOf = ((pane) => svc!.ports.ports(pane)) satisfies PortsOf;
      svc.start();
    },
    stop() {
      svc?.stop();
    },
  };
}
