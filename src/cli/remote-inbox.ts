// ws inbox -H a -H b (or --all-hosts): every host's waiting approvals, then its questions (ws
// ask), each in one list, oldest first, each row naming its host, so `ws -H HOST approve ID` or
// `ws -H HOST answer ID ANSWER` answers it there (ids are per host). Hosts
// are asked in parallel, each with its own deadline, as the merged dashboard does.
import { globals, print, printResult } from "./common";
import { askedHosts, askHost, HOST_TIMEOUT_MS } from "./remote-dashboard";

interface Approval {
  id: number;
  pane: number;
  agent?: string;
  workspace?: string;
  tab_name?: string;
  workstream?: string;
  tool: string;
  summary: string;
  waited_ms: number;
  [k: string]: unknown;
}
/** A question (ws ask) a host holds; an older ws's reply has none. */
interface Question {
  id: number;
  pane?: number;
  workspace?: string;
  tab_name?: string;
  workstream?: string;
  question: string;
  choices: string[];
  waited_ms: number;
  [k: string]: unknown;
}
type HostResult = { host: string; ok: true; approvals: Approval[]; questions: Question[] } | { host: string; ok: false; error: string };

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** What is wrong with a host's approval_list reply, or undefined: each row is printed and sorted. */
function badInbox(r: Record<string, unknown>): string | undefined {
  if (!Array.isArray(r.approvals)) return "approvals is not a list";
  for (const [i, a] of r.approvals.entries()) {
    if (!isObj(a)) return `approvals[${i}] is not an object`;
    for (const k of ["id", "pane"] as const) if (!Number.isSafeInteger(a[k])) return `approvals[${i}].${k} is not a whole number`;
    for (const k of ["tool", "summary"] as const) if (typeof a[k] !== "string") return `approvals[${i}].${k} is not a string`;
    if (typeof a.waited_ms !== "number" || !Number.isFinite(a.waited_ms)) return `approvals[${i}].waited_ms is not a number`;
    for (const k of ["agent", "workspace", "tab_name", "workstream"] as const)
      if (a[k] !== undefined && typeof a[k] !== "string") return `approvals[${i}].${k} is not a string`;
  }
  if (r.questions === undefined) return undefined;
  if (!Array.isArray(r.questions)) return "questions is not a list";
  for (const [i, q] of r.questions.entries()) {
    if (!isObj(q)) return `questions[${i}] is not an object`;
    if (!Number.isSafeInteger(q.id) || (q.pane !== undefined && !Number.isSafeInteger(q.pane))) return `questions[${i}].id or pane is not a whole number`;
    if (typeof q.question !== "string" || !Array.isArray(q.choices) || !q.choices.every((c) => typeof c === "string")) return `questions[${i}] has no question or choices`;
    if (typeof q.waited_ms !== "number" || !Number.isFinite(q.waited_ms)) return `questions[${i}].waited_ms is not a number`;
    for (const k of ["workspace", "tab_name", "workstream"] as const) if (q[k] !== undefined && typeof q[k] !== "string") return `questions[${i}].${k} is not a string`;
  }
  return undefined;
}

async function inboxOf(host: string): Promise<HostResult> {
  try {
    const r = await askHost(host, { v: 6, id: 1, type: "approval_list" }, globals.timeoutMs || HOST_TIMEOUT_MS);
    if (r.type !== "approvals") return { host, ok: false, error: String(r.message ?? `unexpected reply ${String(r.type)}`) };
    const bad = badInbox(r);
    if (bad) return { host, ok: false, error: `bad reply (${bad})` };
    return { host, ok: true, approvals: r.approvals as Approval[], questions: (r.questions as Question[] | undefined) ?? [] };
  } catch (e) {
    return { host, ok: false, error: (e as Error).message };
  }
}

export async function mergedInbox(): Promise<void> {
  const hosts = askedHosts();
  const results = await Promise.all(hosts.map(inboxOf));
  const approvals = results
    .flatMap((r) => (r.ok ? r.approvals.map((a) => ({ host: r.host, ...a })) : []))
    .sort((a, b) => b.waited_ms - a.waited_ms || a.host.localeCompare(b.host) || a.id - b.id);
  const questions = results
    .flatMap((r) => (r.ok ? r.questions.map((q) => ({ host: r.host, ...q })) : []))
    .sort((a, b) => b.waited_ms - a.waited_ms || a.host.localeCompare(b.host) || a.id - b.id);
  const down = results.filter((r) => !r.ok) as Extract<HostResult, { ok: false }>[];
  if (down.length === hosts.length) process.exitCode = 1;
  if (globals.json)
    return printResult("approvals", { hosts: results.map((r) => (r.ok ? { host: r.host, ok: true } : { host: r.host, ok: false, error: r.error })), approvals, questions });
  const w = Math.max(...hosts.map((h) => h.length));
  // Other machines' text: print makes it terminal-safe, whatever their ws did.
  const lines = [
    ...down.map((r) => `${r.host.padEnd(w)}  unreachable: ${r.error.split("\n")[0]}`),
    ...approvals.map((a) => {
      const where = [a.workspace, a.tab_name, a.workstream].filter((x) => x !== undefined).join("/");
      const shown = a.summary.length > 100 ? `${a.summary.slice(0, 99)}…` : a.summary;
      return `${a.host.padEnd(w)}  ${a.id}  ${a.agent ?? "agent"} in pane ${a.pane}${where ? ` (${where})` : ""}  ${a.tool}: ${shown}  waited ${Math.round(a.waited_ms / 1000)}s`;
    }),
    ...questions.map((q) => {
      const where = [q.workspace, q.tab_name, q.workstream].filter((x) => x !== undefined).join("/");
      const from = q.pane !== undefined ? `pane ${q.pane}${where ? ` (${where})` : ""}` : "a script";
      const choices = q.choices.length ? q.choices.map((c, i) => `${i + 1}: ${c}`).join(", ") : "any answer";
      return `${q.host.padEnd(w)}  question ${q.id}  ${from} asks: ${q.question}  [${choices}]  waited ${Math.round(q.waited_ms / 1000)}s`;
    }),
  ];
  if (lines.length) print(lines.join("\n"));
  if (approvals.length) print(`answer one with: ws -H HOST approve ID, or ws -H HOST deny ID --message TEXT`);
  if (questions.length) print(`answer a question with: ws -H HOST answer ID ANSWER`);
}
