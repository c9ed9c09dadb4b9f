// The server's model and every operation on it: workspaces → tabs → layouts → panes. Handlers,
// the UI and persistence change the model only through here, and each change is published on the
// event bus.
import { homedir } from "node:os";
import { existsSync, statSync } from "node:fs";
import { Pane } from "../model/pane";
import { findByName, type Tab, type Workspace } from "../model/workspace";
import { leaf, panesOf, paneRects, removePane, splitPane, type Layout, type PaneRect, type Rect } from "../model/layout";
import { WsError, have } from "../protocol/errors";
import { EventBus } from "./events";

export interface NewPaneOptions {
  argv?: string[];
  cwd?: string;
  /** Extra environment for this pane, e.g. WS_WORKSTREAM. */
  env?: Record<string, string>;
  preface?: string;
}

/** A saved tab to rebuild (persistence). Pane numbers in `layout`, `focused` and `zoomed` are keys
 * of `panes`, not live ids: every pane gets a new id. */
export interface RestoreTabSpec {
  name?: string;
  project?: string;
  layout: Layout;
  panes: Map<number, NewPaneOptions & { title?: string }>;
  focused: number;
  zoomed?: number;
}

export interface SessionOptions {
  socketPath: string;
  /** The environment panes inherit (the server's, cleaned). */
  baseEnv: Record<string, string>;
  /** Called when the last pane has gone: the server quits. */
  onEmpty: () => void;
}

/** Environment variables that belong to the server process or a parent ws, never to a pane. */
const NOT_INHERITED = ["BUN_BE_BUN", "WS_SOCKET", "WS_PANE_ID", "WS_WORKSPACE", "WS_WORKSTREAM", "TMUX", "TMUX_PANE"];

export function paneBaseEnv(env: Record<string, string | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) if (v !== undefined && !NOT_INHERITED.includes(k)) out[k] = v;
  out.TERM = "xterm-256color";
  out.COLORTERM = "truecolor";
  out.TERM_PROGRAM = "ws";
  return out;
}

export class Session {
  readonly bus = new EventBus();
  readonly workspaces: Workspace[] = [];
  readonly panes = new Map<number, Pane>();
  /** The attached client's terminal size (or tmux's detached default). */
  size = { cols: 80, rows: 24 };
  current = 0;
  private nextPane = 1;
  private nextTab = 1;
  private nextWorkspace = 1;
  private quitting = false;

  constructor(readonly opts: SessionOptions) {}

  // ---- lookups -------------------------------------------------------------------------------

  get currentWorkspace(): Workspace {
    return this.workspaces[this.current]!;
  }

  activeTab(ws: Workspace): Tab {
    return ws.tabs[ws.active]!;
  }

  workspace(name: string): Workspace {
    const ws = findByName(this.workspaces, name);
    if (!ws) throw new WsError(`no workspace "${name}"${have(this.workspaces.map((w) => w.name))}`, "workspace_not_found", { param: "name", available: this.workspaces.map((w) => w.name) });
    return ws;
  }

  pane(id: number): Pane {
    const p = this.panes.get(id);
    if (!p) throw new WsError(`no pane ${id}${have([...this.panes.keys()])}`, "pane_not_found", { param: "pane", available: [...this.panes.keys()] });
    return p;
  }

  /** Where a pane lives. */
  locate(id: number): { ws: Workspace; tab: Tab } {
    for (const ws of this.workspaces) for (const tab of ws.tabs) if (panesOf(tab.layout).includes(id)) return { ws, tab };
    throw new WsError(`no pane ${id}${have([...this.panes.keys()])}`, "pane_not_found", { param: "pane", available: [...this.panes.keys()] });
  }

  tabName(tab: Tab): string {
    return tab.name ?? this.panes.get(tab.focused)?.label ?? "tab";
  }

  /** A tab by its name or its 1-based number. */
  findTab(ws: Workspace, ref: string): Tab {
    const byName = ws.tabs.find((t) => this.tabName(t) === ref) ?? ws.tabs.find((t) => this.tabName(t).toLowerCase() === ref.toLowerCase());
    if (byName) return byName;
    if (/^\d+$/.test(ref) && Number(ref) >= 1 && Number(ref) <= ws.tabs.length) return ws.tabs[Number(ref) - 1]!;
    const names = ws.tabs.map((t) => this.tabName(t));
    throw new WsError(`no tab "${ref}" in workspace "${ws.name}"${have(names)}`, "tab_not_found", { param: "tab", available: names });
  }

  // ---- geometry ------------------------------------------------------------------------------

  /** The screen area tabs lay their panes out in: below the tab bar, above the status line. */
  layoutArea(): Rect {
    return { x: 0, y: 1, cols: Math.max(1, this.size.cols), rows: Math.max(1, this.size.rows - 2) };
  }

  /** Where each pane of a tab sits on screen. A zoomed pane fills the tab. */
  rects(tab: Tab): PaneRect[] {
    const area = this.layoutArea();
    if (tab.zoomed !== undefined) return [{ pane: tab.zoomed, ...area }];
    return paneRects(tab.layout, area, panesOf(tab.layout).length > 1);
  }

  /** Size every pane of a tab to its cell. */
  relayout(tab: Tab): void {
    for (const r of this.rects(tab)) this.panes.get(r.pane)?.resize(r.cols, r.rows);
  }

  relayoutAll(): void {
    for (const ws of this.workspaces) for (const tab of ws.tabs) this.relayout(tab);
  }

  resizeScreen(cols: number, rows: number): void {
    if (cols === this.size.cols && rows === this.size.rows) return;
    this.size = { cols: Math.max(10, cols), rows: Math.max(4, rows) };
    this.relayoutAll();
    this.bus.emit({ type: "screen_resized", cols: this.size.cols, rows: this.size.rows });
  }

  // ---- creating ------------------------------------------------------------------------------

  private spawnPane(ws: Workspace, o: NewPaneOptions, cols: number, rows: number, id = this.nextPane++): Pane {
    const cwd = usableDir(o.cwd);
    const env = { ...this.opts.baseEnv, ...o.env, WS_SOCKET: this.opts.socketPath, WS_PANE_ID: String(id), WS_WORKSPACE: ws.name, PWD: cwd };
    const shell = this.opts.baseEnv.SHELL || "/bin/sh";
    const argv = o.argv && o.argv.length ? o.argv : [shell];
    const pane = new Pane({ id, argv, command: o.argv ?? [], cwd, env, cols, rows, preface: o.preface });
    pane.onOutput = () => this.bus.emit({ type: "pane_output", pane: id });
    pane.onExit = () => this.paneExited(pane);
    this.panes.set(id, pane);
    return pane;
  }

  newWorkspace(name: string, pane: NewPaneOptions = {}): Workspace {
    const ws: Workspace = { id: this.nextWorkspace++, name, tabs: [], active: 0 };
    this.workspaces.push(ws);
    this.bus.emit({ type: "workspace_created", workspace: ws.name });
    this.newTab(ws, { ...pane, cwd: pane.cwd ?? homedir() });
    return ws;
  }

  newTab(ws: Workspace, o: NewPaneOptions & { name?: string; project?: string; focus?: boolean } = {}): { tab: Tab; pane: Pane } {
    const area = this.layoutArea();
    const pane = this.spawnPane(ws, o, area.cols, area.rows);
    const tab: Tab = { id: this.nextTab++, name: o.name, project: o.project, layout: leaf(pane.id), focused: pane.id };
    ws.tabs.push(tab);
    this.bus.emit({ type: "tab_created", workspace: ws.name, tab: tab.id, name: this.tabName(tab) });
    this.bus.emit({ type: "pane_created", workspace: ws.name, tab: tab.id, pane: pane.id });
    if (o.focus || ws.tabs.length === 1) this.focusTab(ws, tab, o.focus === true);
    return { tab, pane };
  }

  split(target: number, o: NewPaneOptions & { right: boolean; focus: boolean; size?: number }): Pane {
    const { ws, tab } = this.locate(target);
    this.pane(target);
    const id = this.nextPane++;
    tab.layout = splitPane(tab.layout, target, id, o.right ? "right" : "below", this.layoutArea(), o.size);
    if (tab.zoomed !== undefined) tab.zoomed = undefined;
    // Start the program at its final size: a resize racing its start-up may not reach it.
    const rect = this.rects(tab).find((r) => r.pane === id)!;
    const pane = this.spawnPane(ws, o, rect.cols, rect.rows, id);
    this.relayout(tab);
    this.bus.emit({ type: "pane_created", workspace: ws.name, tab: tab.id, pane: pane.id });
    this.bus.emit({ type: "layout_changed", workspace: ws.name, tab: tab.id });
    if (o.focus) this.focusPane(pane.id);
    return pane;
  }

  /** Rebuild a saved tab at the end of `ws`. Each program starts at its cell's size; one that can't
   * start gets the user's shell with a note. Returns the tab and the saved → new pane ids. */
  restoreTab(ws: Workspace, spec: RestoreTabSpec): { tab: Tab; ids: Map<number, number> } {
    const ids = new Map<number, number>();
    const renumber = (l: Layout): Layout => {
      if (l.kind === "split") return { ...l, a: renumber(l.a), b: renumber(l.b) };
      if (!ids.has(l.pane)) ids.set(l.pane, this.nextPane++);
      return leaf(ids.get(l.pane)!);
    };
    const layout = renumber(spec.layout);
    const cells = new Map(paneRects(layout, this.layoutArea(), ids.size > 1).map((r) => [r.pane, r]));
    for (const [old, id] of ids) {
      const o = spec.panes.get(old) ?? {};
      const r = cells.get(id)!;
      let pane: Pane;
      try {
        pane = this.spawnPane(ws, o, r.cols, r.rows, id);
        if (o.title) pane.title = o.title;
      } catch (e) {
        const note = `\x1b[33mws: could not restart ${JSON.stringify(o.argv ?? [])}: ${(e as Error).message}; started a shell instead\x1b[0m\r\n`;
        pane = this.spawnPane(ws, { ...o, argv: [], preface: (o.preface ?? "") + note }, r.cols, r.rows, id);
      }
    }
    const tab: Tab = { id: this.nextTab++, name: spec.name, project: spec.project, layout, focused: ids.get(spec.focused) ?? panesOf(layout)[0]! };
    if (spec.zoomed !== undefined && ids.has(spec.zoomed)) tab.zoomed = ids.get(spec.zoomed);
    ws.tabs.push(tab);
    this.relayout(tab);
    this.bus.emit({ type: "tab_created", workspace: ws.name, tab: tab.id, name: this.tabName(tab) });
    for (const id of ids.values()) this.bus.emit({ type: "pane_created", workspace: ws.name, tab: tab.id, pane: id });
    return { tab, ids };
  }

  /** A new workspace rebuilt from saved tabs (persistence), `active` being the index of its active tab. */
  restoreWorkspace(name: string, tabs: RestoreTabSpec[], active = 0): { ws: Workspace; ids: Map<number, number> } {
    if (!tabs.length) throw new Error(`workspace "${name}" has no tabs to restore`);
    const ws: Workspace = { id: this.nextWorkspace++, name, tabs: [], active: 0 };
    this.workspaces.push(ws);
    this.bus.emit({ type: "workspace_created", workspace: ws.name });
    const ids = new Map<number, number>();
    try {
      for (const t of tabs) for (const [a, b] of this.restoreTab(ws, t).ids) ids.set(a, b);
    } finally {
      if (!ws.tabs.length) {
        this.workspaces.splice(this.workspaces.indexOf(ws), 1);
        this.bus.emit({ type: "workspace_closed", workspace: ws.name });
      }
    }
    ws.active = Math.min(Math.max(0, active), ws.tabs.length - 1);
    return { ws, ids };
  }

  // ---- focus ---------------------------------------------------------------------------------

  focusWorkspace(ws: Workspace): void {
    const i = this.workspaces.indexOf(ws);
    if (i < 0 || i === this.current) return;
    this.current = i;
    this.bus.emit({ type: "workspace_focused", workspace: ws.name });
  }

  focusTab(ws: Workspace, tab: Tab, showWorkspace = true): void {
    const i = ws.tabs.indexOf(tab);
    if (i < 0) return;
    if (showWorkspace) this.focusWorkspace(ws);
    if (ws.active !== i) {
      ws.active = i;
      this.bus.emit({ type: "tab_focused", workspace: ws.name, tab: tab.id });
    }
  }

  focusPane(id: number): void {
    const { ws, tab } = this.locate(id);
    this.focusTab(ws, tab);
    if (tab.zoomed !== undefined && tab.zoomed !== id) {
      tab.zoomed = undefined;
      this.relayout(tab);
      this.bus.emit({ type: "layout_changed", workspace: ws.name, tab: tab.id });
    }
    if (tab.focused !== id) {
      tab.focused = id;
      this.bus.emit({ type: "pane_focused", workspace: ws.name, tab: tab.id, pane: id });
    }
  }

  // ---- closing -------------------------------------------------------------------------------

  private totalPanes(): number {
    return this.panes.size;
  }

  /** Close a pane and stop its program. Closing the last pane in ws is an error. */
  closePane(id: number): void {
    this.pane(id);
    if (this.totalPanes() <= 1) throw new WsError("can't close the last pane in ws", "last_pane");
    this.removePane(id, true);
  }

  closeTab(ws: Workspace, tab: Tab): void {
    if (this.workspaces.length === 1 && ws.tabs.length === 1) throw new WsError("can't close the last tab in ws", "last_pane");
    for (const id of panesOf(tab.layout)) this.removePane(id, true);
  }

  closeWorkspace(ws: Workspace): void {
    if (this.workspaces.length === 1) throw new WsError(`can't close the only workspace ("${ws.name}")`, "last_pane");
    for (const tab of [...ws.tabs]) for (const id of panesOf(tab.layout)) this.removePane(id, true);
  }

  private paneExited(pane: Pane): void {
    if (!this.panes.has(pane.id)) return;
    this.bus.emit({ type: "pane_exited", pane: pane.id, exit_code: pane.exitCode, signal: pane.exitSignal });
    this.removePane(pane.id, false);
  }

  /** Take a pane out of its tab; an emptied tab or workspace closes; no panes left: quit. */
  private removePane(id: number, kill: boolean): void {
    const pane = this.panes.get(id);
    if (!pane) return;
    let where: { ws: Workspace; tab: Tab } | undefined;
    try {
      where = this.locate(id);
    } catch {}
    this.panes.delete(id);
    if (kill) pane.kill("SIGHUP");
    pane.close(); // its unparsed output is dropped now; the emulator goes with the program
    this.bus.emit({ type: "pane_closed", pane: id, workspace: where?.ws.name, tab: where?.tab.id });
    if (where) {
      const { ws, tab } = where;
      const rest = removePane(tab.layout, id);
      if (rest) {
        tab.layout = rest;
        if (tab.zoomed === id) tab.zoomed = undefined;
        if (tab.focused === id) tab.focused = panesOf(rest)[0]!;
        this.relayout(tab);
        this.bus.emit({ type: "layout_changed", workspace: ws.name, tab: tab.id });
      } else this.removeTab(ws, tab);
    }
    if (this.panes.size === 0) this.quitWhenEmpty();
  }

  private removeTab(ws: Workspace, tab: Tab): void {
    const i = ws.tabs.indexOf(tab);
    if (i < 0) return;
    ws.tabs.splice(i, 1);
    if (ws.active >= ws.tabs.length || ws.active > i) ws.active = Math.max(0, ws.active - 1);
    this.bus.emit({ type: "tab_closed", workspace: ws.name, tab: tab.id });
    if (ws.tabs.length === 0) {
      const wi = this.workspaces.indexOf(ws);
      this.workspaces.splice(wi, 1);
      if (this.current >= this.workspaces.length || this.current > wi) this.current = Math.max(0, this.current - 1);
      this.bus.emit({ type: "workspace_closed", workspace: ws.name });
    }
  }

  private quitWhenEmpty(): void {
    if (this.quitting) return;
    this.quitting = true;
    this.opts.onEmpty();
  }

  /** Stop every pane's process group (server shutdown). */
  killAll(signal: NodeJS.Signals = "SIGHUP"): Promise<unknown> {
    this.quitting = true;
    const waits: Promise<unknown>[] = [];
    for (const p of this.panes.values()) {
      p.kill(signal);
      waits.push(p.pty.exited);
    }
    return Promise.all(waits);
  }

  // ---- projects ------------------------------------------------------------------------------

  renameProject(from: string, to: string): void {
    for (const ws of this.workspaces)
      for (const tab of ws.tabs)
        if (tab.project === from) {
          tab.project = to;
          this.bus.emit({ type: "tab_renamed", workspace: ws.name, tab: tab.id, project: to });
        }
  }

  renameTab(ws: Workspace, tab: Tab, name: string | undefined): void {
    tab.name = name || undefined;
    this.bus.emit({ type: "tab_renamed", workspace: ws.name, tab: tab.id, name: this.tabName(tab) });
  }

  /** Put a tab at a position among its workspace's tabs; the active tab stays the active one. */
  moveTab(ws: Workspace, tab: Tab, index: number): void {
    const from = ws.tabs.indexOf(tab);
    if (from < 0) return;
    const active = ws.tabs[ws.active];
    ws.tabs.splice(from, 1);
    ws.tabs.splice(Math.max(0, Math.min(index, ws.tabs.length)), 0, tab);
    ws.active = Math.max(0, ws.tabs.indexOf(active!));
    this.bus.emit({ type: "layout_changed", workspace: ws.name, tab: tab.id });
  }

  setLayout(ws: Workspace, tab: Tab, layout: Layout): void {
    tab.layout = layout;
    this.relayout(tab);
    this.bus.emit({ type: "layout_changed", workspace: ws.name, tab: tab.id });
  }
}

/** A cwd the program can start in: the one asked for when it is a directory, else $HOME. */
function usableDir(dir: string | undefined): string {
  try {
    if (dir && statSync(dir).isDirectory()) return dir;
  } catch {}
  return existsSync(homedir()) ? homedir() : "/";
}
