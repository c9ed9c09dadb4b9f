// Typing a prompt into an agent's pane and, if asked, waiting for the status it reports next:
// agent_send's core, shared with project_handoff (which asks several agents at once).
import type { Session } from "../model/session";
import { WsError } from "../protocol/errors";
import type { Reply } from "./types";
import { waiting } from "./waiting";

export interface AgentWait {
  until: string[];
  /** ms; 0 waits without a limit. */
  timeout: number;
}

/** What a wait waits for when it names no statuses: the agent's turn is over, or it asks something. */
export const UNTIL_DEFAULT = ["done", "idle", "blocked"];

/** Type `text` into the agent in pane `target` as a paste, then Enter; with `wait`, answer once it
 * reports one of `wait.until` (a `pane` reply with `status` and `elapsed_ms`). */
export function typeToAgent(session: Session, target: number, text: string, wait?: AgentWait, signal?: AbortSignal): Reply | Promise<Reply> {
  const p = session.pane(target);
  if (!wait) {
    p.paste(text);
    p.write("\r");
    return { type: "pane", pane: target };
  }
  const { until, timeout } = wait;
  const began = Date.now();
  const timedOut = () => new WsError(`the text was typed; timed out after ${timeout} ms waiting for the agent in pane ${target} to be ${until.join(" or ")}`, "timeout");
  return waiting({ signal, timeoutMs: timeout, timedOut }, ({ finish, onFinish }) => {
    // Listening before typing: a report that follows at once is not missed.
    onFinish(
      session.bus.on((e) => {
        if (!("pane" in e) || e.pane !== target) return;
        if (e.type === "pane_closed") finish(new WsError(`pane ${target} closed while waiting for its agent`, "pane_exited", { param: "pane" }));
        else if (e.type === "agent_status" && e.status !== null && until.includes(e.status)) finish({ type: "pane", pane: target, status: e.status, elapsed_ms: Date.now() - began });
      }),
    );
    p.paste(text);
    p.write("\r");
  });
}
