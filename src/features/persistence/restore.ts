// Rebuilding a save into the live model: the same workspaces, tabs, layouts and focus; each pane's
// command restarted in its directory (a shell pane gets a fresh shell); old scrollback shown above
// the new program, marked as restored. Restored at start, panes, tabs and workspaces keep their
// saved ids (and WS_PANE_ID with them); restored into a running server, a part whose id this server
// has given out already gets a new one (Session.promiseIds).
import type { NewPaneOptions, RestoreTabSpec, Session } from "../../model/session";
import type { SaveBody, SavedAgent, SavedPane, SavedPrompt, SaveHeader } from "./format";
import { safeText } from "../../safe-text";
import { panesOf } from "../../model/layout";
import { yieldTurn } from "../../model/pace";
import { resumeArgv } from "../agents/resume";
import { workstreamsOf } from "../workstreams/table";

function when(iso: string | undefined): string {
  const d = iso ? new Date(iso) : undefined;
  if (!d || Number.isNaN(d.getTime())) return "earlier";
  const p = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`;
}

/** The text a restored pane starts with: its old scrollback, then a dim marker line. (The pane's
 * own history keeps as many of its last lines as any pane keeps, as it did before.) The scrollback
 * is plain text (a save keeps no colours), yet it goes to the pane's emulator: a control character
 * in it (a hand-made or tampered save's `ESC]0;…BEL`) would run there as a sequence and retitle the
 * tab, answer a query, move the cursor. It is shown visibly instead (^[, ^G), as text. */
export function preface(p: SavedPane, savedAt?: string, resumed?: string): string {
  const marker = `\x1b[0;2m── restored (saved ${when(savedAt)})${resumed ? `, ${resumed}` : ""} ──\x1b[0m\r\n`;
  return (p.scrollback ? safeText(p.scrollback).replaceAll("\n", "\r\n") + "\r\n" : "") + marker;
}

/** The command that starts the pane's agent resumed, when its agent reported a session. */
export function resumedCommand(p: SavedPane): string[] | undefined {
  const a = p.agent;
  if (!a?.session || p.resume === false) return undefined;
  return resumeArgv({ command: p.command, agent: a.agent, session: a.session, transcript: a.transcript, template: p.resume });
}

function paneOptions(p: SavedPane, savedAt?: string): NewPaneOptions & { title?: string; name?: string } {
  const resumed = resumedCommand(p);
  const note = resumed && `${p.agent?.agent ?? "agent"} session ${p.agent!.session} resumed${p.agent!.status === "working" || p.agent!.status === "blocked" || p.agent!.interrupted ? " (its turn was interrupted)" : ""}`;
  const o: NewPaneOptions & { title?: string; name?: string } = { argv: resumed ?? [...p.command], cwd: p.cwd, env: { ...p.env }, preface: preface(p, savedAt, note) };
  if (p.resume !== undefined) o.resume = p.resume;
  if (p.workstream) o.env!.WS_WORKSTREAM = p.workstream;
  if (p.keep) o.keep = true;
  if (p.grants) o.grants = p.grants;
  // A boxed pane comes back boxed, and a pane saved unboxed stays so whatever keys.toml says now.
  o.box = p.box ? { ...p.box } : false;
  if (p.label) o.name = p.label;
  // A restarted program keeps its title until it sets one; a fresh shell is not what ran before.
  if (p.command.length && p.name) o.title = p.name;
  return o;
}

export interface RestoreResult {
  /** Workspaces rebuilt (new ones, and existing ones that got saved tabs): true counts. */
  workspaces: number;
  tabs: number;
  panes: number;
  /** Saved pane id → new pane id. */
  ids: Map<number, number>;
  /** The saved agent statuses, by new pane id. */
  agents: Map<number, SavedAgent>;
  /** The saved prompt queues, by new pane id. */
  prompts: Map<number, SavedPrompt[]>;
  /** Each workspace or tab of the save that was left out, and why. */
  skipped: string[];
}

export interface RestoreProgress {
  done: number;
  of: number;
  panes: number;
}

export interface ApplyOptions {
  /** Called before each pane starts: gives the thread back (see Session.restoreTabPaced). */
  pace?: () => Promise<void>;
  /** Called after each saved workspace, rebuilt or not. */
  progress?: (p: RestoreProgress) => void;
}


/**
 * Build `body` (as checked by decode) into the session, a pane at a time (`pace`). Into an empty
 * session (server start) it takes the saved screen size too. Into a live one (`ws session restore`),
 * a saved workspace whose name exists gets the saved tabs added after its own.
 */
export async function applySave(session: Session, body: SaveBody, header?: SaveHeader, o: ApplyOptions = {}): Promise<RestoreResult> {
  const pace = o.pace ?? yieldTurn;
  const fresh = session.workspaces.length === 0;
  if (fresh) session.setClientSize(body.size.cols, body.size.rows);
  session.promiseIds(savedIds(body), body.next_ids);
  try {
    return await build(session, body, header, fresh, pace, o);
  } finally {
    session.forgetPromisedIds();
  }
}

/** Every id the save holds, by kind. */
function savedIds(body: SaveBody): { pane: number[]; tab: number[]; workspace: number[] } {
  const out = { pane: [] as number[], tab: [] as number[], workspace: [] as number[] };
  for (const w of body.workspaces) {
    if (w.id !== undefined) out.workspace.push(w.id);
    for (const t of w.tabs) {
      if (t.id !== undefined) out.tab.push(t.id);
      for (const p of t.panes) out.pane.push(p.id);
    }
  }
  return out;
}

async function build(session: Session, body: SaveBody, header: SaveHeader | undefined, fresh: boolean, pace: () => Promise<void>, o: ApplyOptions): Promise<RestoreResult> {
  const ids = new Map<number, number>();
  const skipped: string[] = [];
  let tabs = 0;
  let workspaces = 0;
  // Saved ids are unique in a save this ws wrote; a hand-made one may repeat them across tabs.
  let panes = 0;
  const started = new Set<number>();
  let currentName: string | undefined;
  for (const [wi, w] of body.workspaces.entries()) {
    const specs: RestoreTabSpec[] = w.tabs.map((t) => ({
      id: t.id,
      name: t.name,
      project: t.project,
      layout: t.layout,
      panes: new Map(t.panes.map((p) => [p.id, paneOptions(p, header?.saved_at)])),
      focused: t.focused,
      zoomed: t.zoomed,
    }));
    const existing = fresh ? undefined : session.findWorkspace(w.name);
    let name = w.name;
    if (existing) {
      let added = 0;
      for (const [ti, spec] of specs.entries()) {
        try {
          const built = await session.restoreTabPaced(existing, spec, pace);
          for (const [a, b] of built.ids) ids.set(a, b), started.add(b);
          panes += built.ids.size;
          added++;
        } catch (e) {
          skipped.push(`workspace ${JSON.stringify(w.name)} tab ${ti + 1} left out: ${(e as Error).message}`);
        }
      }
      name = existing.name;
      tabs += added;
      if (added) workspaces++;
    } else {
      try {
        const r = await session.restoreWorkspace(w.name, specs, w.active, pace, w.id);
        for (const tab of r.ws.tabs) for (const id of panesOf(tab.layout)) started.add(id);
        for (const [a, b] of r.ids) ids.set(a, b);
        panes += r.panes;
        skipped.push(...r.skipped);
        tabs += r.ws.tabs.length;
        workspaces++;
      } catch (e) {
        skipped.push(`workspace ${JSON.stringify(w.name)} left out: ${(e as Error).message}`);
      }
    }
    if (wi === body.current) currentName = name;
    o.progress?.({ done: wi + 1, of: body.workspaces.length, panes });
  }
  if (currentName !== undefined) {
    const ws = session.findWorkspace(currentName);
    if (ws) session.focusWorkspace(ws);
  }
  restoreWorkstreams(session, body, started);
  const agents = new Map<number, SavedAgent>();
  const prompts = new Map<number, SavedPrompt[]>();
  for (const w of body.workspaces)
    for (const t of w.tabs)
      for (const p of t.panes) {
        const id = ids.get(p.id);
        if (id === undefined || !started.has(id)) continue;
        if (p.agent) agents.set(id, p.agent);
        if (p.prompts?.length) prompts.set(id, p.prompts);
      }
  return { workspaces, tabs, panes, ids, agents, prompts, skipped };
}

/** The saved workstreams, each linked to the restored tab whose panes carry its WS_WORKSTREAM
 * (none when that tab is gone: ws done still removes its worktree). One already open is kept. */
function restoreWorkstreams(session: Session, body: SaveBody, restored: Set<number>): void {
  for (const w of body.workstreams ?? []) {
    if (workstreamsOf(session).has(w.name)) continue;
    let tab: number | undefined;
    for (const id of restored)
      if (session.panes.get(id)?.env.WS_WORKSTREAM === w.name) {
        tab = session.where(id)?.tab.id;
        if (tab !== undefined) break;
      }
    workstreamsOf(session).add({ ...w, ...(tab !== undefined ? { tab } : {}) });
  }
}
