// Rebuilding a save into the live model: the same workspaces, tabs, layouts and focus; each pane's
// command restarted in its directory (a shell pane gets a fresh shell); old scrollback shown above
// the new program, marked as restored. Panes get new ids (and WS_PANE_ID with them).
import type { NewPaneOptions, RestoreTabSpec, Session } from "../../model/session";
import type { SaveBody, SavedPane, SaveHeader } from "./format";

function when(iso: string | undefined): string {
  const d = iso ? new Date(iso) : undefined;
  if (!d || Number.isNaN(d.getTime())) return "earlier";
  const p = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`;
}

/** The text a restored pane starts with: its old scrollback, then a dim marker line. (The pane's
 * own history keeps as many of its last lines as any pane keeps, as it did before.) */
export function preface(p: SavedPane, savedAt?: string): string {
  const marker = `\x1b[0;2m── restored (saved ${when(savedAt)}) ──\x1b[0m\r\n`;
  return (p.scrollback ? p.scrollback.replaceAll("\n", "\r\n") + "\r\n" : "") + marker;
}

function paneOptions(p: SavedPane, savedAt?: string): NewPaneOptions & { title?: string; name?: string } {
  const o: NewPaneOptions & { title?: string; name?: string } = { argv: [...p.command], cwd: p.cwd, env: { ...p.env }, preface: preface(p, savedAt) };
  if (p.workstream) o.env!.WS_WORKSTREAM = p.workstream;
  if (p.keep) o.keep = true;
  if (p.label) o.name = p.label;
  // A restarted program keeps its title until it sets one; a fresh shell is not what ran before.
  if (p.command.length && p.name) o.title = p.name;
  return o;
}

export interface RestoreResult {
  workspaces: number;
  tabs: number;
  panes: number;
  /** Saved pane id → new pane id. */
  ids: Map<number, number>;
}

/**
 * Build `body` (as checked by decode) into the session. Into an empty session (server start) it
 * takes the saved screen size too. Into a live one (`ws session restore`), a saved workspace whose
 * name exists gets the saved tabs added after its own.
 */
export function applySave(session: Session, body: SaveBody, header?: SaveHeader): RestoreResult {
  const fresh = session.workspaces.length === 0;
  if (fresh) session.resizeScreen(body.size.cols, body.size.rows);
  const ids = new Map<number, number>();
  let tabs = 0;
  let currentName: string | undefined;
  for (const [wi, w] of body.workspaces.entries()) {
    const specs: RestoreTabSpec[] = w.tabs.map((t) => ({
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
      for (const spec of specs) for (const [a, b] of session.restoreTab(existing, spec).ids) ids.set(a, b);
      name = existing.name;
    } else {
      try {
        const r = session.restoreWorkspace(w.name, specs, w.active);
        for (const [a, b] of r.ids) ids.set(a, b);
      } catch (e) {
        console.error(`ws: could not restore workspace "${w.name}": ${(e as Error).message}`);
        continue;
      }
    }
    tabs += specs.length;
    if (wi === body.current) currentName = name;
  }
  if (currentName !== undefined) {
    const ws = session.findWorkspace(currentName);
    if (ws) session.focusWorkspace(ws);
  }
  restoreWorkstreams(session, body, new Set(ids.values()));
  return { workspaces: body.workspaces.length, tabs, panes: ids.size, ids };
}

/** The saved workstreams, each linked to the restored tab whose panes carry its WS_WORKSTREAM
 * (none when that tab is gone: ws done still removes its worktree). One already open is kept. */
function restoreWorkstreams(session: Session, body: SaveBody, restored: Set<number>): void {
  for (const w of body.workstreams ?? []) {
    if (session.workstreams.has(w.name)) continue;
    let tab: number | undefined;
    for (const id of restored)
      if (session.panes.get(id)?.env.WS_WORKSTREAM === w.name) {
        tab = session.where(id)?.tab.id;
        if (tab !== undefined) break;
      }
    session.addWorkstream({ ...w, ...(tab !== undefined ? { tab } : {}) });
  }
}
