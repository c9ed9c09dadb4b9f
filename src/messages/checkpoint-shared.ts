// What the checkpoint_* messages share: finding the workstream, and whether its agent is working.
import { panesOf } from "../model/layout";
import type { Session } from "../model/session";
import type { Workstream } from "../features/workstreams/workstream";
import { WsError, type ErrorCode } from "../protocol/errors";
import type { Services } from "../features/services";
import { workstreamsOf as workstreamTable } from "../features/workstreams/table";

export const CHECKPOINT_ERRORS: readonly ErrorCode[] = ["not_a_workstream", "pane_not_found", "git_failed", "unsupported"];

export function workstreamsOf(services: Services, p: { name?: string; pane?: number }) {
  const svc = services.get("workstreams");
  if (!svc) throw new WsError("workstreams are not supported by this ws build", "unsupported");
  return { svc, w: svc.resolve(p) };
}

/** Whether an agent in the workstream's tab is mid-turn. */
export function agentWorking(session: Session, services: Services, w: Workstream): boolean {
  const agents = services.get("agents");
  const at = workstreamTable(session).tabOf(w);
  if (!agents || !at) return false;
  return panesOf(at.tab.layout).some((pane) => agents.status(pane)?.status === "working");
}
