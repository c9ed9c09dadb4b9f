import { defineMessage } from "./types";
import { AGENT_SENT_REPLY, UNTIL_DEFAULT, awaitTurn, typeToAgent, type AgentWait } from "./agent-typing";
import { WsError } from "../protocol/errors";
import { typed } from "../protocol/schema";
import { AGENT_STATUSES } from "./wait_for";
import { panesOf } from "../model/layout";
import type { Session } from "../model/session";
import type { Tab } from "../model/workspace";
import type { AgentService } from "../features/agents/service";
import { MAX_PROMPT_CHARS, WHEN, type When } from "../features/agents/queue";
import { workstreamsOf } from "../features/workstreams/table";

const MAX_WAIT_MS = 86_400_000;

/** `wait` checked and completed (an object field's contents are the message's own to check). */
function waitProblem(v: unknown): string | undefined {
  const w = v as Record<string, unknown>;
  for (const k of Object.keys(w)) if (k !== "until" && k !== "timeout") return `unknown field \`wait.${k}\` (accepted: until, timeout)`;
  if (w.until !== undefined) {
    if (!Array.isArray(w.until) || !w.until.length || !w.until.every((s) => typeof s === "string")) return "`wait.until` must be a non-empty array of statuses";
    const off = w.until.find((s) => !AGENT_STATUSES.includes(s as never) || s === "none");
    if (off !== undefined) return `invalid value in \`wait.until\`: "${off}", expected any of ${AGENT_STATUSES.filter((s) => s !== "none").join(", ")}`;
  }
  if (w.timeout !== undefined && !(Number.isSafeInteger(w.timeout) && (w.timeout as number) >= 0 && (w.timeout as number) <= MAX_WAIT_MS))
    return `\`wait.timeout\` must be an integer from 0 (no limit) to ${MAX_WAIT_MS}`;
  return undefined;
}

/** The agent `to` names: a pane (`7`, tmux's `%7`) that is an agent itself; a tab (tmux's `@3`,
 * or its name) or a workstream (its name): the tab's focused pane if it is an agent, else its first. */
function agentByRef(session: Session, agents: AgentService | undefined, to: string): number {
  const noAgent = (what: string, extra = ""): never => {
    throw new WsError(`no agent in ${what}${extra} (an agent is a pane whose hooks report to ws; see ws hooks install)`, "no_agent", { param: "to", command: "ws dashboard" });
  };
  const inTab = (tab: Tab, what: string): number => {
    const isAgent = (id: number) => agents?.status(id) !== undefined;
    if (isAgent(tab.focused)) return tab.focused;
    return panesOf(tab.layout).find(isAgent) ?? noAgent(what);
  };
  const pane = /^%?(\d+)$/.exec(to);
  if (pane) {
    const id = Number(pane[1]);
    session.pane(id); // no such pane: pane_not_found
    if (agents?.status(id) === undefined) noAgent(`pane ${id}`, `: --to names the agent's own pane; --pane ${id} names the asking pane and sends to the agent in its tab`);
    return id;
  }
  const tabId = /^@(\d+)$/.exec(to);
  if (tabId) return inTab(session.tabById(Number(tabId[1])).tab, `tab @${tabId[1]}`);
  const w = workstreamsOf(session).get(to);
  if (w) {
    const at = workstreamsOf(session).tabOf(w);
    if (!at) throw new WsError(`workstream "${to}" has no open tab`, "no_agent", { param: "to" });
    return inTab(at.tab, `workstream "${to}"'s tab`);
  }
  const tabs = session.workspaces.flatMap((ws) => ws.tabs.filter((t) => session.tabName(t) === to).map((tab) => ({ ws, tab })));
  if (tabs.length > 1) throw new WsError(`${tabs.length} tabs are named "${to}" (${tabs.map((t) => `@${t.tab.id} in ${t.ws.name}`).join(", ")}): name one by its id, --to @N`, "invalid_params", { param: "to" });
  if (tabs.length === 1) return inTab(tabs[0]!.tab, `tab "${to}"`);
  throw new WsError(`no pane, tab or workstream "${to}" (--to takes a pane id, @TAB, a tab's name or a workstream's)`, "invalid_params", { param: "to" });
}

export default defineMessage({
  type: "agent_send",
  since: 4,
  grant: "self",
  request: true,
  longRunning: true,
  reply: "pane",
  summary:
    "Type text into an agent, as a paste, then press Enter: the agent `to` names (v6), or the agent in the tab holding `pane` (the asking pane, as hooks send). With `when` (v6) the text joins the agent's prompt queue instead and is typed when the agent next waits for input (`idle`: at once if it does now) or ends a turn (`done`), one prompt a turn, in order. With `wait` (v6) it then waits, in the same request, for the agent to report one of `wait.until`, and a turn that ends brings the agent's final message as `answer`; without `when`, an agent blocked on a prompt of its own is refused with agent_blocked before anything is typed.",
  fields: {
    pane: { type: "integer", requiredBefore: 6, description: "The asking pane (usually the caller's own, `$WS_PANE_ID`): the text goes to an agent in its tab, never to the pane itself. Needed without `to`" },
    to: { type: "string", description: "The agent itself (v6): its pane (`7`), or a tab (`@3` or its name) or a workstream (its name) whose focused agent, else first agent, gets the text" },
    text: { type: "string", required: true, description: `What to type (queued: at most ${MAX_PROMPT_CHARS} characters)` },
    when: {
      type: "string",
      accepted: [...WHEN],
      description: "Queue it (v6): typed when the agent next waits for input (idle; at once if it does now and nothing is queued ahead) or next ends a turn (done). ws agent queue lists the queue",
    },
    wait: typed<Partial<AgentWait>>()({
      type: "object",
      description: `Then wait for the agent's status: until (default ${UNTIL_DEFAULT.join(", ")}), timeout in ms (default 0: no limit). Only a status it reports after the text is typed counts`,
      shape: "{ until?: string[] (blocked | working | done | idle), timeout?: integer }",
      check: waitProblem,
    }),
  },
  replyFields: AGENT_SENT_REPLY,
  errors: ["no_agent", "agent_blocked", "timeout", "pane_exited", "pane_not_found", "tab_not_found", "limit_exceeded"],
  example: { v: 4, type: "agent_send", pane: 7, text: "Address these unresolved review comments. …" },
  cli: {
    path: "agent send",
    args: ["text"],
    flags: ["to", "pane", "when"],
    // Inside a pane, --pane defaults to it unless --to names the agent (agent-cmds.ts).
    run: "agentSend",
    switches: { wait: { field: "wait", value: {}, description: `Then wait until the agent is ${UNTIL_DEFAULT.join(", ")}; prints its answer (its final message for the turn), else the status` } },
    view: "agentSent",
  },
  handle({ pane, to, text, wait, when }, { session, services, signal, version }) {
    const agents = services.get("agents");
    let target: number | undefined;
    // v1–v5 lines ignore fields they did not have.
    if (to !== undefined && (version ?? 0) >= 6) target = agentByRef(session, agents, to);
    else {
      if (pane === undefined) throw new WsError("which agent? give `to` (the agent's pane, tab or workstream) or `pane` (the asking pane: the agent in its tab)", "invalid_params", { param: "to" });
      session.pane(pane); // no such pane: the usual pane_not_found error
      target = agents?.agentPaneFor(pane);
      // v1–v5 lines keep the refusal they always got (test/protocol-compat.test.ts).
      if (target === undefined && (version ?? 0) < 6)
        throw new WsError(`no agent in the tab of pane ${pane} (an agent is a pane whose hooks report to ws; see ws hooks install)`, "no_agent", { param: "pane", command: "ws hooks install claude" });
      if (target === undefined) {
        // The dashboard's pane number given as --pane: say which form was meant.
        const itself = agents?.status(pane) !== undefined ? `; pane ${pane} is an agent itself: --to ${pane} sends to it` : "; --to PANE names the agent's own pane";
        throw new WsError(`no agent in the tab of pane ${pane} besides it (--pane names the asking pane${itself})`, "no_agent", {
          param: "pane",
          command: agents?.status(pane) !== undefined ? `ws agent send --to ${pane}` : "ws hooks install claude",
        });
      }
    }
    const w = wait && { until: wait.until ?? UNTIL_DEFAULT, timeout: wait.timeout ?? 0 };
    if (when !== undefined && (version ?? 0) >= 6 && agents) return queue(session, agents, target, text, when as When, w, signal);
    if (wait && agents?.status(target)?.status === "blocked")
      throw new WsError(`the agent in pane ${target} is blocked on a prompt (${agents.status(target)?.detail ?? "it asks for an answer"}); typing would answer it`, "agent_blocked", { param: "pane" });
    return typeToAgent(session, target, text, w, signal, agents);
  },
});

/** `when`: the text joins the agent's queue; with a wait, the wait starts when it is typed. */
function queue(session: Session, agents: AgentService, target: number, text: string, when: When, wait: AgentWait | undefined, signal: AbortSignal | undefined) {
  if (!wait) {
    const { prompt, queued } = agents.queue.add(target, text, when);
    return { type: "pane" as const, pane: target, prompt: prompt.id, queued };
  }
  let id = 0;
  return awaitTurn(session, target, wait, {
    signal,
    answers: agents,
    get extra() {
      return { prompt: id };
    },
    get notYet() {
      return `prompt ${id} is still queued for the agent in pane ${target} (ws agent queue cancel ${id})`;
    },
    start: (typed, w) => {
      try {
        id = agents.queue.add(target, text, when, { onTyped: typed }).prompt.id;
      } catch (e) {
        w.finish(e as WsError); // a full queue: refused, and the wait's listener undone
      }
    },
  });
}
