// What the person sees of agents on the attached terminal: marks in the tab bar and status line,
// a bell and a desktop notification (OSC 9 and OSC 777) when an agent becomes blocked or done, and
// the on-screen Dashboard (prefix a, or the `dashboard` command). Runs after the ui feature.

import { envInt } from "../../model/limits";
import type { Feature } from "../feature";
import { notificationBytes } from "../../protocol/notification";
import { controlChars } from "../../safe-text";
import type { UiService } from "../services";
import type { AgentService } from "./service.ts";
import type { DashboardWorkstream } from "../workstreams/service";
import { shipText } from "../workstreams/ship-text";
import { URGENCY, type AgentStatus } from "./status-map.ts";
import { agentRowText } from "./row.ts";
import type { ApprovalService } from "../approvals/service";
import { answerKey, needsYouBadge, needsYouRows, type NeedsYouRow, questionKey, type QuestionRow, questionRows, typeAnswer } from "../approvals/ui";
import type { QuestionService } from "../approvals/questions";

const MARK: Partial<Record<AgentStatus, string>> = { blocked: "!", done: "✓" };

/** Which notifications to send: WS_AGENT_NOTIFY="bell,osc9,osc777" (the default) or "off". */
export function notifyKinds(env = process.env): Set<string> {
  const v = (env.WS_AGENT_NOTIFY ?? "bell,osc9,osc777").toLowerCase();
  return new Set(v === "off" || v === "none" ? [] : v.split(/[\s,]+/).filter(Boolean));
}

const ago = (s: number) => (s < 60 ? `${s}s` : s < 3600 ? `${Math.floor(s / 60)}m` : `${Math.floor(s / 3600)}h`);
const BUTTONS = ["new-tab", "new-workspace", "new-workstream", "switch-workspace", "help"];

const clean = (s: string) => s.replace(controlChars(), "");

export const DASHBOARD_TITLE = "Dashboard (Enter goes there or runs it; q closes)";

/** What a shown Dashboard holds: its lines, and which of them are inbox rows (by line index). */
export interface DashboardView {
  lines: string[];
  asks: Map<number, NeedsYouRow>;
}

/**
 * Where the selection goes when the Dashboard is drawn again under the person's eyes: on the same
 * request if it still waits, else on the section's header (where y and n do nothing, so a key
 * meant for a request that just went never answers the next one); below the inbox, on the same
 * line moved by as many lines as the inbox grew or shrank.
 */
export function keptSelection(prev: DashboardView, selected: number, next: DashboardView): number {
  const row = prev.asks.get(selected);
  if (row) return [...next.asks].find(([, r]) => r.id === row.id)?.[0] ?? 0;
  const oldAgents = prev.lines.indexOf("Agents");
  const newAgents = next.lines.indexOf("Agents");
  if (selected < oldAgents) return 0;
  return Math.min(next.lines.length - 1, Math.max(0, selected + newAgents - oldAgents));
}

/** How long the Dashboard ignores y and n after anything but the person's prefix key opened it. */
export const DASHBOARD_ANSWER_DELAY_MS = envInt("WS_DASHBOARD_ANSWER_DELAY_MS", 1000);

/** `workstreams`: the rows as known now (PR statuses a moment old; the screen never waits on gh).
 * `prev`: the Dashboard on screen and its selection, when this draws it again (a request came or went). */
export function showDashboard(
  ui: UiService,
  agents: AgentService,
  workstreams: DashboardWorkstream[] = [],
  approvals?: ApprovalService,
  prev?: { view: DashboardView; selected: number },
  answersFrom = 0,
  questions?: QuestionService,
): DashboardView {
  const d = agents.dashboard();
  const lines: string[] = [];
  const actions: (() => void)[] = [];
  const add = (line: string, act: () => void = () => {}) => (lines.push(line), actions.push(act));
  const go = (pane: number) => () => ui.session.focusPane(pane);
  // The inbox first (features/approvals/ui.ts): y allows, n denies, Enter goes to the pane.
  const asks = new Map<number, NeedsYouRow>();
  const needs = approvals ? needsYouRows(approvals) : [];
  // Agents blocked on a question of their own (no request in the inbox): Enter answers it in its pane.
  const asking = new Set(needs.map((r) => r.pane));
  const blockedOnOwn = d.agents.filter((a) => a.status === "blocked" && !asking.has(a.pane));
  // Questions asked with ws ask: 1–9 picks a choice, Enter types the answer.
  const asked = new Map<number, QuestionRow>();
  const askedRows = questions ? questionRows(questions) : [];
  if (needs.length || blockedOnOwn.length || askedRows.length) add(`Needs you (y allows, n denies, Enter goes to the pane${askedRows.length ? "; a question: 1–9 picks, Enter types the answer" : ""})`);
  for (const r of needs) (asks.set(lines.length, r), add(r.line, go(r.pane)));
  for (const r of askedRows) (asked.set(lines.length, r), add(r.line, () => questions && typeAnswer(questions, r, (label, submit) => ui.ask(label, "", submit))));
  for (const a of blockedOnOwn) add(`! ${ago(a.secs).padStart(4)}  ${a.workspace} / ${a.label} (pane ${a.pane})  ${a.detail ?? "waits for you"}`, go(a.pane));
  add("Agents");
  for (const a of d.agents) {
    const mark = MARK[a.status] ?? " ";
    // The row `ws dashboard` and `ws agent list` print, made from the same fields (row.ts).
    add(`${mark} ${clean(agentRowText(a))}`, go(a.pane));
  }
  if (!d.agents.length) add("  none reporting: ws hooks install claude");
  add("Workstreams");
  for (const w of workstreams) add(`  ${w.name}  ${w.workspace} (pane ${w.pane})${w.branch ? `  ${w.branch}` : ""}${shipText(w) ? `  ${shipText(w)}` : ""}${w.pr ? `  ${w.pr}` : ""}`, go(w.pane));
  if (!workstreams.length) add("  none: ws new TEMPLATE NAME");
  add("Ports");
  for (const p of d.ports) add(`  ${String(p.port).padStart(5)}  ${p.workspace} / ${p.tab} (pane ${p.pane})  ${p.command}`, go(p.pane));
  if (!d.ports.length) add("  none");
  add("Commands");
  for (const name of BUTTONS) add(`  [ ${name} ]`, () => ui.run(name));
  // Start on the most urgent agent, else the first workstream, else the first button.
  const agentsAt = lines.indexOf("Agents");
  const view = { lines, asks };
  const selected = prev
    ? keptSelection(prev.view, prev.selected, view)
    : needs.length || blockedOnOwn.length || askedRows.length
      ? 1
      : d.agents.length
        ? agentsAt + 1
        : workstreams.length
          ? lines.indexOf("Workstreams") + 1
          : lines.indexOf("Commands") + 1;
  const onChar = (ch: string, i: number) => {
    if (performance.now() < answersFrom) return false;
    if (questions && asked.has(i)) return questionKey(questions, asked.get(i), ch);
    return approvals ? answerKey(approvals, asks.get(i), ch, (label, submit) => ui.ask(label, "", submit)) : false;
  };
  ui.pick(DASHBOARD_TITLE, lines, selected, (i) => actions[i]?.(), undefined, approvals || questions ? onChar : undefined);
  return view;
}

export default function agentsUiFeature(): Feature {
  const off: (() => void)[] = [];
  return {
    name: "agents-ui",
    start(d) {
      const ui = d.services.get("ui");
      const agents = d.services.get("agents");
      if (!ui || !agents) return;
      const kinds = notifyKinds();
      const approvals = d.services.get("approvals");
      const questions = d.services.get("questions");
      ui.tabBadge = (panes) => {
        let best: AgentStatus | undefined;
        for (const p of panes) {
          const st = agents.status(p)?.status;
          if (st && MARK[st] && (best === undefined || URGENCY[st] < URGENCY[best])) best = st;
        }
        return best && MARK[best];
      };
      ui.statusBadge = () => {
        const n = { blocked: 0, done: 0 };
        for (const a of agents.store.all()) if (a.status === "blocked" || a.status === "done") n[a.status]++;
        const parts = [needsYouBadge((approvals?.count ?? 0) + (questions?.count ?? 0)) ?? "", n.blocked ? `! ${n.blocked} blocked` : "", n.done ? `✓ ${n.done} done` : ""].filter(Boolean);
        return parts.length ? ` ${parts.join("  ")} ` : undefined;
      };
      const workstreams = d.services.get("workstreams");
      // The Dashboard each client last drew: redrawn while on its screen when a request comes or
      // goes, so its Needs you rows are live. Opened by anything but the person's own prefix key
      // (run_command, a root binding, a button), y and n wait a moment (`answersFrom`): a
      // keystroke meant for a prompt a pane just showed can't land on an approval.
      const shown = new WeakMap<object, { view: DashboardView; answersFrom: number }>();
      const client = () => ui.servedKey ?? ui;
      ui.dashboard = () => {
        const answersFrom = ui.fromPrefixKey ? 0 : performance.now() + DASHBOARD_ANSWER_DELAY_MS;
        shown.set(client(), { view: showDashboard(ui, agents, workstreams?.rowsNow(), approvals, undefined, answersFrom, questions), answersFrom });
      };
      const redrawOne = () => {
        const selected = ui.pickShown?.(DASHBOARD_TITLE);
        const last = shown.get(client());
        if (selected === undefined || !last) return;
        last.view = showDashboard(ui, agents, workstreams?.rowsNow(), approvals, { view: last.view, selected }, last.answersFrom, questions);
      };
      const redraw = () => (ui.eachClient ? ui.eachClient(redrawOne) : redrawOne());
      // prefix !: the next blocked agent after `after`, in pane order, round the end.
      ui.nextBlockedAgent = (after) => {
        // The oldest permission request waiting in the inbox comes first (features/approvals).
        const oldest = approvals?.list()[0]?.pane;
        if (oldest !== undefined && oldest !== after && d.session.panes.has(oldest)) return oldest;
        const blocked = agents.store.all().filter((a) => a.status === "blocked" && d.session.panes.has(a.pane)).map((a) => a.pane).sort((a, b) => a - b);
        return blocked.find((p) => after === undefined || p > after) ?? blocked[0];
      };
      // Name the agent as the tab bar does: the tab's name says more than the program's.
      const where = (pane: number) => {
        const at = d.session.where(pane);
        return at ? d.session.tabName(at.tab) : "agent";
      };
      off.push(
        d.session.bus.on((e) => {
          const inbox = e.type === "approval_requested" || e.type === "approval_resolved" || e.type === "question_asked" || e.type === "question_answered";
          if (inbox) redraw();
          if (e.type === "agent_status" || inbox) ui.invalidate();
          if (e.type === "question_asked" && ui.client && kinds.size)
            ui.sendRaw(notificationBytes(kinds, "ws", `${e.pane !== undefined ? `${where(e.pane)} (pane ${e.pane})` : "a script"} asks: ${e.question}`));
          if (e.type === "agent_attention" && ui.client && kinds.size) {
            const what = e.status === "blocked" ? `needs you${e.detail ? `: ${e.detail}` : ""}` : "is done";
            ui.sendRaw(notificationBytes(kinds, "ws", `${where(e.pane)} (pane ${e.pane}) ${what}`));
          }
        }),
      );
    },
    stop() {
      for (const f of off.splice(0)) f();
    },
  };
}
