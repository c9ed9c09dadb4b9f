// The phone page: the agents and their status, the inbox (Approve/Deny), the queue, and one pane's
// screen, read-only. It asks ws web's JSON API every few seconds; every text from the server goes
// into the page as text (textContent), never as markup. Each part of the page is a section below:
// a function given its element and the latest state; another feature adds one to SECTIONS.
import { notifySwitch } from "./notify-switch";
import { ANSWERED_SHOWN_MS, type QuestionRow, questionsSection } from "./questions";

interface Agent {
  pane: number;
  workspace: string;
  tab: string;
  label?: string;
  agent?: string;
  status: string;
  detail?: string;
  secs: number;
}
interface ApprovalRow {
  id: number;
  pane: number;
  agent?: string;
  workspace?: string;
  tab_name?: string;
  tool: string;
  summary: string;
  waited_ms: number;
}
interface Prompt {
  id: number;
  pane: number;
  position: number;
  when: string;
  text: string;
}
interface PaneRow {
  pane: number;
  workspace: string;
  tab_name: string;
  label: string;
}
export interface PhoneState {
  agents: Agent[];
  panes: PaneRow[];
  approvals: ApprovalRow[];
  questions: QuestionRow[];
  queue: Prompt[];
}

const POLL_MS = 2000;
let paneShown: number | undefined;

function el<K extends keyof HTMLElementTagNameMap>(tag: K, text?: string, cls?: string): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  if (text !== undefined) e.textContent = text;
  if (cls) e.className = cls;
  return e;
}

async function api<T>(path: string, body?: unknown): Promise<T> {
  const r = await fetch(path, body === undefined ? {} : { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  const j = (await r.json()) as T & { error?: string };
  if (!r.ok) throw new Error(j.error ?? `${r.status}`);
  return j;
}

function agents(root: HTMLElement, s: PhoneState): void {
  root.replaceChildren(el("h2", "Agents"));
  if (!s.agents.length) root.append(el("p", "No agents report to ws.", "empty"));
  for (const a of s.agents) {
    const b = el("button", undefined, `agent ${a.status}`);
    b.dataset.pane = String(a.pane);
    b.append(el("span", a.status, "status"), el("span", ` ${a.label || a.agent || "agent"} — ${a.workspace}/${a.tab} (pane ${a.pane})`));
    if (a.detail) b.append(el("div", a.detail, "detail"));
    b.onclick = () => showPane(a.pane);
    root.append(b);
  }
}

/** Approvals answered from this page, by id: what was answered and when. Each stays shown as
 * answered for a while, also after the state poll no longer lists it, which may redraw the inbox
 * between the click and the server's reply. */
const answered = new Map<number, { text: string; at: number }>();

function answeredItem(id: number, text: string): HTMLElement {
  const item = el("div", undefined, "approval");
  item.dataset.approval = String(id);
  item.append(el("div", text, "answered"));
  return item;
}

function inbox(root: HTMLElement, s: PhoneState): void {
  const now = Date.now();
  for (const [id, a] of answered) if (now - a.at > ANSWERED_SHOWN_MS) answered.delete(id);
  const waiting = s.approvals.filter((a) => !answered.has(a.id));
  root.replaceChildren(el("h2", `Inbox (${waiting.length})`));
  for (const [id, a] of answered) root.append(answeredItem(id, a.text));
  if (!waiting.length) root.append(el("p", "Nothing waits for you.", "empty"));
  for (const a of waiting) {
    const item = el("div", undefined, "approval");
    item.dataset.approval = String(a.id);
    item.append(el("div", `${a.agent ?? "agent"} in ${a.workspace ?? "?"}/${a.tab_name ?? "?"} (pane ${a.pane}) wants ${a.tool}:`, "who"), el("pre", a.summary, "summary"));
    const answer = (behavior: "allow" | "deny") => async () => {
      item.classList.add("answering");
      try {
        await api("api/approval", { approval: a.id, behavior });
        const text = behavior === "allow" ? "Approved" : "Denied";
        answered.set(a.id, { text, at: Date.now() });
        // Drawn where the item is now (a redraw may have replaced it meanwhile).
        (root.querySelector(`.approval[data-approval="${a.id}"]`) ?? item).replaceWith(answeredItem(a.id, text));
      } catch (e) {
        item.append(el("div", `Not answered: ${(e as Error).message}`, "error"));
      }
    };
    const approve = el("button", "Approve", "approve");
    approve.onclick = answer("allow");
    const deny = el("button", "Deny", "deny");
    deny.onclick = answer("deny");
    item.append(approve, deny);
    root.append(item);
  }
}

function queue(root: HTMLElement, s: PhoneState): void {
  root.replaceChildren(el("h2", `Queue (${s.queue.length})`));
  if (!s.queue.length) root.append(el("p", "No prompts queued.", "empty"));
  for (const p of s.queue) root.append(el("div", `pane ${p.pane} #${p.position} (when ${p.when}): ${p.text}`, "prompt"));
}

function panes(root: HTMLElement, s: PhoneState): void {
  root.replaceChildren(el("h2", "Panes"));
  for (const p of s.panes) {
    const b = el("button", `${p.workspace}/${p.tab_name}: ${p.label} (pane ${p.pane})`, "pane");
    b.dataset.pane = String(p.pane);
    b.onclick = () => showPane(p.pane);
    root.append(b);
  }
}

/** Each section of the page: its element's id and how it draws the state. */
export const SECTIONS: { id: string; draw: (root: HTMLElement, s: PhoneState) => void }[] = [
  { id: "inbox", draw: inbox },
  { id: "questions", draw: questionsSection((path, body) => api(path, body)) },
  { id: "agents", draw: agents },
  { id: "queue", draw: queue },
  { id: "panes", draw: panes },
];

async function showPane(pane: number): Promise<void> {
  paneShown = pane;
  const root = document.getElementById("pane")!;
  try {
    const r = await api<{ text: string }>(`api/pane?pane=${pane}`);
    root.replaceChildren(el("h2", `Pane ${pane}`), el("pre", r.text, "screen"));
  } catch (e) {
    root.replaceChildren(el("h2", `Pane ${pane}`), el("p", (e as Error).message, "error"));
  }
}

async function refresh(): Promise<void> {
  try {
    const s = await api<PhoneState>("api/state");
    for (const sec of SECTIONS) sec.draw(document.getElementById(sec.id)!, s);
    document.body.dataset.loaded = "true";
    if (paneShown !== undefined) await showPane(paneShown);
  } catch (e) {
    document.getElementById("inbox")!.replaceChildren(el("p", `ws web: ${(e as Error).message}`, "error"));
  }
}

notifySwitch(document.getElementById("notify")!, (path, body) => api(path, body));
refresh();
setInterval(refresh, POLL_MS);
