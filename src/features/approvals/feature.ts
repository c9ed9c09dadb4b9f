// Plugs the approvals inbox into the daemon: one service, registered by name.
import type { Feature } from "../feature";
import { ApprovalService } from "./service";

export default function approvalsFeature(): Feature {
  let svc: ApprovalService | undefined;
  return {
    name: "approvals",
    provide(d) {
      svc = new ApprovalService(d.session);
      d.services.provide("approvals", svc);
    },
    stop() {
      svc?.stop();
    },
  };
}
