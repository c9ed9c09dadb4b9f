// Typing a prompt into an agent's pane and, if asked, waiting for the status it reports next and
// the turn's answer: agent_send's core, shared with project_handoff (which asks several agents at
// once). A queued prompt (agent_send's `when`) waits the same way from the moment it is typed.
import type { Session } from "../model/session";
import { WsError } from "../protocol/errors";
import type { ReplyFields, ReplyOf } from "./types";
import { type Waiting, waiting } from "./waiting";

export interface AgentWait {
  until: string[];
  /** ms; 0 waits without a limit. */
  timeout: number;
}

/** Where a wait finds the turn's answer (the agents service). */
export interface TurnAnswers {
  reportSeq(): number;
  answerSince(pane: number, seq: number): Promise<{ answer: string; truncated: boolean } | undefined>;
}

/** agent_send's reply (project_handoff reads the same from each agent it asks). */
export const AGENT_SENT_REPLY = {
  pane: { type: "integer", description: "The agent's pane" },
  status: { type: "string", optional: true, description: "wait: the status that ended the wait" },
  elapsed_ms: { type: "integer", optional: true, description: "wait: how long the wait took (from the typing)" },
  answer: { type: "string", optional: true, description: "wait: the agent's final message for the turn, when its hooks give one (Claude Code's Stop payload or transcript, Codex's notify)" },
  answer_truncated: { type: "boolean", optional: true, description: "wait: true when the answer was cut to its limit" },
  prompt: { type: "integer", optional: true, description: "when: the queued prompt's id (ws agent queue cancel ID)" },
  queued: { type: "boolean", optional: true, description: "when: still waiting in the queue (false: typed at once)" },
} as const satisfies ReplyFields;

export type AgentSent = ReplyOf<"pane", typeof AGENT_SENT_REPLY>;

/** What a wait waits for when it names no statuses: the agent's turn is over, or it asks something. */
export const UNTIL_DEFAULT = ["done", "idle", "blocked"];

/** Type `text` into the agent in pane `target` as a paste, then Enter; with `wait`, answer once it
 * reports one of `wait.until` (a `pane` reply with `status`, `elapsed_ms` and the turn's `answer`). */
export function typeToAgent(session: Session, target: number, text: string, wait?: AgentWait, signal?: AbortSignal, answers?: TurnAnswers): AgentSent | Promise<AgentSent> {
  const p = session.pane(target);
  const type = () => {
    p.paste(text);
    p.write("\r");
  };
  if (!wait) {
    type();
    return { type: "pane", pane: target };
  }
  return awaitTurn(session, target, wait, {
    signal,
    answers,
    start: (typed) => {
      typed();
      type();
    },
  });
}

/**
 * Wait for the agent in `target` to report one of `wait.until` after the prompt is typed, which
 * `start` arranges: it calls `typed()` as the prompt goes in (at once, or when a queue types it).
 * A turn that ends (done, idle) brings its answer when the agent's hooks gave one.
 */
export function awaitTurn(
  session: Session,
  target: number,
  wait: AgentWait,
  o: { signal?: AbortSignal; answers?: TurnAnswers; extra?: { prompt: number }; notYet?: string; start: (typed: () => void, w: Waiting<AgentSent>) => void },
): Promise<AgentSent> {
  const { until, timeout } = wait;
  let began: number | undefined;
  let seq = 0;
  const timedOut = () =>
    new WsError(
      began === undefined && o.notYet
        ? `timed out after ${timeout} ms; ${o.notYet}`
        : `the text was typed; timed out after ${timeout} ms waiting for the agent in pane ${target} to be ${until.join(" or ")}`,
      "timeout",
    );
  return waiting<AgentSent>({ signal: o.signal, timeoutMs: timeout, timedOut }, (w) => {
    const { finish, onFinish } = w;
    // Listening before typing: a report that follows at once is not missed.
    onFinish(
      session.bus.on((e) => {
        if (!("pane" in e) || e.pane !== target) return;
        if (e.type === "pane_closed") finish(new WsError(`pane ${target} closed while waiting for its agent`, "pane_exited", { param: "pane" }));
        // With the agents service: every report after the typing, changed status or not (not the
        // one whose turn's end let a queued prompt in, nor the person's look turning done into idle).
        else if (e.type === (o.answers ? "agent_report" : "agent_status") && "status" in e && began !== undefined && e.status !== null && until.includes(e.status)) {
          if (o.answers && o.answers.reportSeq() <= seq) return;
          const reply: AgentSent = { type: "pane", pane: target, ...o.extra, status: e.status, elapsed_ms: Date.now() - began };
          if ((e.status !== "done" && e.status !== "idle") || !o.answers) return finish(reply);
          o.answers.answerSince(target, seq).then(
            (a) => finish(a ? { ...reply, answer: a.answer, ...(a.truncated ? { answer_truncated: true } : {}) } : reply),
            () => finish(reply),
          );
        }
      }),
    );
    o.start(() => {
      if (w.finished()) return;
      began = Date.now();
      seq = o.answers?.reportSeq() ?? 0;
    }, w);
  });
}
