// The server's model and every operation on it: workspaces → tabs → layouts → panes. Handlers,
// the UI and persistence change the model only through here, and each change is published on the
// event bus. The Session is the one writer's façade: the look-ups (session-lookups.ts), the
// geometry (session-geometry.ts), the ids (session-ids.ts), a pane's life (pane-lifecycle.ts),
// building tabs (tab-builder.ts) and moving panes (pane-move.ts) are their own modules, the last
// two carrying out their steps through the Session's own writes (session-writes.ts).
// It is one piece (over 500 lines) because it is the model's one writer: every change and its
// event are here.
import { homedir } from "node:os";
import type { Pane } from "./pane";
import type { Tab, Workspace } from "./workspace";
import { leaf, panesOf, paneRects, removePane, splitPane, swapPanes, type Layout } from "./layout";
import { WsError } from "../protocol/errors";
import { checkName } from "../protocol/names";
import { MAX_PANES, MAX_PANES_PER_REQUEST } from "./limits";
import { checkFileRoom } from "./fd-limit";
import { SessionView } from "./session-view";
import { type TreeNode } from "./tree";
import { clampClientSize } from "./client-size";
import type { NewPaneOptions } from "./launch";
import { popupRects, type Popup } from "./popup";
import { locateInLayout } from "./session-lookups";
import { sizePanes } from "./session-geometry";
import { IdCounters } from "./session-ids";
import { runNow, runPaced, TabBuilder, type RestoreTabSpec } from "./tab-builder";
import { presetLayout, type LayoutPreset } from "./layout-presets";
import type { TerminalReport } from "../protocol/terminal-report";
import { coloursFrom, setTerminalColours } from "./terminal-colours";
import { afterExit, PaneLauncher, wirePane, type LaunchOptions } from "./pane-lifecycle";
import { movePane, type MoveTarget } from "./pane-move";
import { renamePane, setForeground, setPaneBorder, type BorderSettings } from "./pane-labels";
import type { SessionWrites } from "./session-writes";

export type { NewPaneOptions } from "./launch";
export type { RestoreTabSpec, TabSpec } from "./tab-builder";
export type { MoveTarget } from "./pane-move";
export { FAILED_START_MS } from "./pane-lifecycle";

export interface SessionOptions extends LaunchOptions {
  /** Called when the last pane has gone: the server quits. */
  onEmpty: () => void;
  /** Panes at most at once (default MAX_PANES). */
  maxPanes?: number;
}

export class Session extends SessionView {
  private readonly ids = new IdCounters();
  private quitting = false;
  private readonly maxPanes: number;
  private readonly launcher: PaneLauncher;
  /** The Session's own writes, for the modules that carry out its bigger operations. */
  private readonly writes: SessionWrites = {
    session: this,
    bus: this.bus,
    ids: this.ids,
    checkRoom: (n, perRequest) => this.checkRoom(n, perRequest),
    checkLaunch: (o, at) => this.checkLaunch(o, at),
    checkLive: (ws) => this.checkLive(ws),
    start: (ws, o, cols, rows, id) => this.launcher.start(ws.name, o, cols, rows, id),
    adopt: (pane) => this.adopt(pane),
    createWorkspace: (name, param, savedId) => this.createWorkspace(name, param, savedId),
    insertWorkspace: (ws, param) => this.insertWorkspace(ws, param),
    insertTab: (ws, tab, panes) => this.insertTab(ws, tab, panes),
    takeFromLayout: (ws, tab, id) => this.takeFromLayout(ws, tab, id),
    removeTab: (ws, tab) => this.removeTab(ws, tab),
    paneExited: (pane) => this.paneExited(pane),
  };
  private readonly builder = new TabBuilder(this.writes);

  constructor(readonly opts: SessionOptions) {
    super();
    this.maxPanes = opts.maxPanes ?? MAX_PANES;
    this.launcher = new PaneLauncher(opts);
  }

  /** Refuse a workspace that has closed (a caller that waited may still hold it). */
  private checkLive(ws: Workspace): void {
    if (!this.workspaces.includes(ws)) throw new WsError(`workspace "${ws.name}" has closed`, "workspace_not_found", { param: "workspace" });
  }

  /** Refuse a workspace name that breaks the naming rule or that another workspace has (`self`
   * may keep its own): every way a workspace is made or renamed asks here. */
  private checkWorkspaceName(name: string, param: string, self?: Workspace): void {
    checkName(param, name);
    const other = this.findWorkspace(name);
    if (other && other !== self) throw new WsError(`there is a workspace "${other.name}" already`, "workspace_exists", { param });
  }

  // ---- geometry ------------------------------------------------------------------------------

  /** Show or hide the bars: every pane is sized to the area they leave, as a resize does. */
  setBars(on: boolean): void {
    if (on === this.barsShown) return;
    this.barsShown = on;
    this.relayoutAll();
    this.bus.emit({ type: "client_resized", cols: this.size.cols, rows: this.size.rows });
  }

  /** What the attached terminal said about itself (undefined: none attached): panes' colour
   * queries are answered from it (terminal-colours.ts). */
  setClientTerminal(r: TerminalReport | undefined): void {
    setTerminalColours(coloursFrom(r));
  }

  relayout(tab: Tab): void {
    sizePanes(tab, this.layoutArea(), this.panes);
  }

  relayoutAll(): void {
    for (const ws of this.workspaces) for (const tab of ws.tabs) this.relayout(tab);
  }

  /** The attached client's terminal size, clamped (client-size.ts): every tab is laid out again. */
  setClientSize(cols: number, rows: number): void {
    const size = clampClientSize(cols, rows);
    if (size.cols === this.size.cols && size.rows === this.size.rows) return;
    this.clientSize = size;
    this.relayoutAll();
    this.bus.emit({ type: "client_resized", cols: this.size.cols, rows: this.size.rows });
  }

  // ---- creating ------------------------------------------------------------------------------
  // Every creation checks first, then starts its programs, and only then changes the model: a
  // request that fails (a bad name, a limit, a program that can't start) leaves no trace.

  /** Refuse a request that would start `n` panes past the limits (docs/limits.md). */
  checkRoom(n: number, perRequest = true): void {
    if (perRequest && n > MAX_PANES_PER_REQUEST)
      throw new WsError(`one request may start at most ${MAX_PANES_PER_REQUEST} panes; this one would start ${n}`, "limit_exceeded", { limit: MAX_PANES_PER_REQUEST });
    const now = this.panes.size + this.builder.reserved;
    if (now + n > this.maxPanes)
      throw new WsError(`ws runs at most ${this.maxPanes} panes at once; it runs ${now}, and this would start ${n} more`, "limit_exceeded", { limit: this.maxPanes });
    checkFileRoom(n, now);
  }


  /** Refuse, before anything changes, a pane that could not start (launch.ts). `at` prefixes the
   * field names in errors (a layout tree's leaf). */
  checkLaunch(o: NewPaneOptions, at?: string): void {
    this.launcher.check(o, at);
  }

  /** Put a started pane in the model. */
  private adopt(pane: Pane): void {
    wirePane(pane, this.bus, (p) => this.paneExited(p));
    this.paneMap.set(pane.id, pane);
  }

  /** A new workspace, checked, not yet in the model (insertWorkspace puts it there). */
  private createWorkspace(name: string, param: string, savedId?: number): Workspace {
    this.checkWorkspaceName(name, param);
    return { id: this.ids.take("workspace", savedId), name, tabs: [], active: 0 };
  }

  /** Put a workspace in the model, its name still free. */
  private insertWorkspace(ws: Workspace, param = "name"): void {
    this.checkWorkspaceName(ws.name, param);
    this.workspaceList.push(ws);
    this.bus.emit({ type: "workspace_created", workspace: ws.name });
  }

  newWorkspace(name: string, pane: NewPaneOptions = {}): Workspace {
    this.checkWorkspaceName(name, "name");
    this.checkRoom(1);
    const area = this.layoutArea();
    const first = this.launcher.start(name, { ...pane, cwd: pane.cwd ?? homedir() }, area.cols, area.rows, this.ids.next.pane);
    this.ids.issue("pane");
    const ws = this.createWorkspace(name, "name");
    this.insertWorkspace(ws);
    this.addTab(ws, first, {});
    return ws;
  }

  newTab(ws: Workspace, o: NewPaneOptions & { name?: string; project?: string; focus?: boolean } = {}): { tab: Tab; pane: Pane } {
    this.checkLive(ws);
    if (o.name !== undefined) checkName("name", o.name);
    if (o.project !== undefined) checkName("project", o.project);
    this.checkRoom(1);
    const area = this.layoutArea();
    const pane = this.launcher.start(ws.name, o, area.cols, area.rows, this.ids.next.pane);
    this.ids.issue("pane");
    return { tab: this.addTab(ws, pane, o), pane };
  }

  /** A new tab at the end of `ws` holding one started pane. */
  private addTab(ws: Workspace, pane: Pane, o: { name?: string; project?: string; focus?: boolean }): Tab {
    this.adopt(pane);
    const tab: Tab = { id: this.ids.issue("tab"), name: o.name, project: o.project, layout: leaf(pane.id), focused: pane.id };
    this.insertTab(ws, tab, [pane.id]);
    if (o.focus || ws.tabs.length === 1) this.focusTab(ws, tab, o.focus === true);
    return tab;
  }

  /** Put a tab at the end of `ws`, sized, with `panes` new in it. */
  private insertTab(ws: Workspace, tab: Tab, panes: number[]): void {
    ws.tabs.push(tab);
    this.relayout(tab);
    this.bus.emit({ type: "tab_created", workspace: ws.name, tab: tab.id, name: this.tabName(tab) });
    for (const pane of panes) this.bus.emit({ type: "pane_created", workspace: ws.name, tab: tab.id, pane });
  }

  split(target: number, o: NewPaneOptions & { right: boolean; focus: boolean; size?: number }): Pane {
    const { ws, tab } = locateInLayout(this, target);
    this.pane(target);
    this.checkRoom(1);
    const id = this.ids.next.pane;
    const layout = splitPane(tab.layout, target, id, o.right ? "right" : "below", this.layoutArea(), o.size);
    // Start the program at its final size (a resize racing its start-up may not reach it), and
    // before the layout changes.
    const rect = paneRects(layout, this.layoutArea(), true).find((r) => r.pane === id)!;
    const pane = this.launcher.start(ws.name, o, rect.cols, rect.rows, id);
    this.ids.issue("pane");
    this.adopt(pane);
    tab.layout = layout;
    if (tab.zoomed !== undefined) tab.zoomed = undefined;
    this.relayout(tab);
    this.bus.emit({ type: "pane_created", workspace: ws.name, tab: tab.id, pane: pane.id });
    this.bus.emit({ type: "layout_changed", workspace: ws.name, tab: tab.id });
    if (o.focus) this.focusPane(pane.id);
    return pane;
  }

  /** Open a popup over the tab holding `over` (tmux display-popup): a pane floating over the layout,
   * which takes the keys while open and closes as `close` says. Its tab comes on screen. One popup
   * per tab. */
  openPopup(over: number, o: NewPaneOptions & Omit<Popup, "pane">): Pane {
    const { ws, tab } = this.locate(over);
    if (tab.popup) throw new WsError(`tab ${tab.id} shows popup ${tab.popup.pane} already`, "popup_open", { param: "pane" });
    this.checkRoom(1);
    const popup: Popup = { pane: this.ids.next.pane, width: o.width, height: o.height, close: o.close, ...(o.x !== undefined ? { x: o.x } : {}), ...(o.y !== undefined ? { y: o.y } : {}), ...(o.border === false ? { border: false } : {}) };
    const { inner } = popupRects(popup, this.layoutArea());
    // Kept after it exits, so its last screen stays readable until it closes.
    const pane = this.launcher.start(ws.name, { ...o, keep: true }, inner.cols, inner.rows, popup.pane);
    this.ids.issue("pane");
    this.adopt(pane);
    tab.popup = popup;
    this.bus.emit({ type: "pane_created", workspace: ws.name, tab: tab.id, pane: pane.id });
    this.bus.emit({ type: "popup_opened", workspace: ws.name, tab: tab.id, pane: pane.id });
    this.focusTab(ws, tab);
    return pane;
  }

  /** Close a tab's popup and stop its program (a key closed it). */
  closePopup(tab: Tab): void {
    if (tab.popup) this.removePane(tab.popup.pane, true);
  }

  /**
   * Build a fresh tab at the end of `ws` from a tree (layout_apply). Everything is checked before any
   * program starts (the pane limits, then each leaf's cwd and program, named by its path in the
   * tree), and the model changes only once every program has started: if one can't, none does.
   */
  applyTree(ws: Workspace, root: TreeNode, o: { name?: string; focus: boolean }): Tab {
    const tab = runNow(this.builder.tree(ws, root, o.name));
    if (o.focus) this.focusTab(ws, tab);
    return tab;
  }

  /** applyTree a pane at a time (layout_apply): 64 panes would hold the thread for seconds. */
  async applyTreePaced(ws: Workspace, root: TreeNode, o: { name?: string; focus: boolean }, pace: () => Promise<void>): Promise<Tab> {
    const tab = await runPaced(this.builder.tree(ws, root, o.name), pace);
    if (o.focus) this.focusTab(ws, tab);
    return tab;
  }

  /** Build a tab from a tree in a new workspace `name` (a workstream's, made when missing). The
   * workspace enters the model with its tab: if the tab can't be built, nothing is made or said. */
  applyTreeInNewWorkspace(name: string, root: TreeNode, o: { name?: string; focus: boolean }): { ws: Workspace; tab: Tab } {
    const ws = this.createWorkspace(name, "workspace");
    const tab = runNow(this.builder.into(ws, this.builder.tree(ws, root, o.name)));
    if (o.focus) this.focusTab(ws, tab);
    return { ws, tab };
  }

  /** Rebuild a saved tab at the end of `ws`. Each program starts at its cell's size; one that can't
   * start gets the user's shell with a note. Returns the tab and the saved → new pane ids. */
  restoreTab(ws: Workspace, spec: RestoreTabSpec): { tab: Tab; ids: Map<number, number> } {
    return runNow(this.builder.restore(ws, spec));
  }

  /**
   * restoreTab, giving the thread back (`pace`) before each pane, so a restore of hundreds of panes
   * never holds other clients up for more than one pane's start. The tab enters the model whole,
   * once every program has started. A workspace closed meanwhile: the panes are stopped, nothing
   * stays.
   */
  restoreTabPaced(ws: Workspace, spec: RestoreTabSpec, pace: () => Promise<void>): Promise<{ tab: Tab; ids: Map<number, number> }> {
    return runPaced(this.builder.restore(ws, spec), pace);
  }

  /** A new workspace rebuilt from saved tabs (persistence), `active` being the index of its active
   * tab, a pane at a time (see restoreTabPaced). A tab that can't be rebuilt is left out and said
   * in `skipped`; with none rebuilt, nothing is left and the first failure is thrown. */
  async restoreWorkspace(name: string, tabs: RestoreTabSpec[], active = 0, pace: () => Promise<void> = async () => {}, savedId?: number): Promise<{ ws: Workspace; ids: Map<number, number>; panes: number; skipped: string[] }> {
    if (!tabs.length) throw new Error(`workspace "${name}" has no tabs to restore`);
    // Out of the model until its first tab is whole: nobody sees a workspace without tabs.
    const ws = this.createWorkspace(name, "name", savedId);
    return { ws, ...(await this.builder.restoreWorkspace(ws, tabs, active, pace)) };
  }

  /** A restore is about to rebuild a save: the saved ids it may keep (IdCounters.promise). */
  promiseIds(saved: { pane: number[]; tab: number[]; workspace: number[] }, next: { pane?: number; tab?: number; workspace?: number } = {}): void {
    this.ids.promise(saved, next);
  }

  /** The restore is over: ids it did not use are not given out (the counters are above them). */
  forgetPromisedIds(): void {
    this.ids.forgetPromised();
  }

  /** The ids to save, so a restore can carry on above them (promiseIds' `next`). */
  get nextIds(): { pane: number; tab: number; workspace: number } {
    return { ...this.ids.next };
  }


  // ---- focus ---------------------------------------------------------------------------------

  focusWorkspace(ws: Workspace): void {
    const i = this.workspaces.indexOf(ws);
    if (i < 0 || i === this.currentIndex) return;
    this.currentIndex = i;
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
    if (tab.popup?.pane === id) return; // it has the keys while it is open
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
    // A workspace is gone with its last tab; one left with none (it should not happen) goes too.
    if (this.workspaces.includes(ws) && !ws.tabs.length) this.removeEmptyWorkspace(ws);
  }

  private paneExited(pane: Pane): void {
    if (!this.panes.has(pane.id)) return;
    const popup = this.where(pane.id)?.tab.popup;
    const next = afterExit(pane, popup?.pane === pane.id ? popup : undefined);
    this.bus.emit({ type: "pane_exited", pane: pane.id, exit_code: pane.exitCode, signal: pane.exitSignal });
    if (next === "close") this.removePane(pane.id, false);
  }

  /** A key in a pane held after its program failed closes it, as its exit would have. */
  dismissHeld(id: number): void {
    if (this.panes.get(id)?.held) this.removePane(id, false);
  }

  /** Take a pane out of its tab; an emptied tab or workspace closes; no panes left: quit. */
  private removePane(id: number, kill: boolean): void {
    const pane = this.panes.get(id);
    if (!pane) return;
    let where: { ws: Workspace; tab: Tab } | undefined;
    try {
      where = this.locate(id);
    } catch {}
    this.paneMap.delete(id);
    if (kill) pane.kill("SIGHUP");
    pane.close(); // its unparsed output is dropped now; the emulator goes with the program
    this.bus.emit({ type: "pane_closed", pane: id, workspace: where?.ws.name, tab: where?.tab.id });
    if (where?.tab.popup?.pane === id) {
      const { ws, tab } = where;
      tab.popup = undefined;
      this.bus.emit({ type: "popup_closed", workspace: ws.name, tab: tab.id, pane: id, exit_code: pane.exitCode, signal: pane.exitSignal });
    } else if (where && !this.takeFromLayout(where.ws, where.tab, id)) this.removeTab(where.ws, where.tab);
    if (this.panes.size === 0) this.quitWhenEmpty();
  }

  /** Take a pane out of its tab's layout (its zoom and focus go with it); false when it was the
   * tab's last pane, the tab being left as it is. */
  private takeFromLayout(ws: Workspace, tab: Tab, id: number): boolean {
    const rest = removePane(tab.layout, id);
    if (!rest) return false;
    tab.layout = rest;
    if (tab.zoomed === id) tab.zoomed = undefined;
    if (tab.focused === id) tab.focused = panesOf(rest)[0]!;
    this.relayout(tab);
    this.bus.emit({ type: "layout_changed", workspace: ws.name, tab: tab.id });
    return true;
  }


  private removeTab(ws: Workspace, tab: Tab): void {
    const i = ws.tabs.indexOf(tab);
    if (i < 0) return;
    this.closePopup(tab); // it goes with the tab it floats over
    ws.tabs.splice(i, 1);
    if (ws.active >= ws.tabs.length || ws.active > i) ws.active = Math.max(0, ws.active - 1);
    this.bus.emit({ type: "tab_closed", workspace: ws.name, tab: tab.id });
    if (ws.tabs.length === 0) this.removeEmptyWorkspace(ws);
  }

  private removeEmptyWorkspace(ws: Workspace): void {
    const wi = this.workspaces.indexOf(ws);
    if (wi < 0) return;
    this.workspaceList.splice(wi, 1);
    if (this.currentIndex >= this.workspaces.length || this.currentIndex > wi) this.currentIndex = Math.max(0, this.currentIndex - 1);
    this.bus.emit({ type: "workspace_closed", workspace: ws.name });
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

  // ---- names and projects --------------------------------------------------------------------

  renameWorkspace(ws: Workspace, name: string): void {
    this.checkLive(ws);
    this.checkWorkspaceName(name, "name", ws);
    if (name === ws.name) return;
    const from = ws.name;
    ws.name = name;
    this.bus.emit({ type: "workspace_renamed", workspace: name, from });
  }

  /** Link the tab holding `pane` to a project. */
  linkProject(pane: number, slug: string): void {
    checkName("slug", slug);
    const { ws, tab } = this.locate(pane);
    tab.project = slug;
    this.bus.emit({ type: "tab_renamed", workspace: ws.name, tab: tab.id, project: slug });
  }

  renameProject(from: string, to: string): void {
    checkName("to", to);
    for (const ws of this.workspaces)
      for (const tab of ws.tabs)
        if (tab.project === from) {
          tab.project = to;
          this.bus.emit({ type: "tab_renamed", workspace: ws.name, tab: tab.id, project: to });
        }
  }

  renameTab(ws: Workspace, tab: Tab, name: string | undefined): void {
    if (name) checkName("name", name);
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
    const to = ws.tabs.indexOf(tab);
    if (to !== from) this.bus.emit({ type: "tab_moved", workspace: ws.name, tab: tab.id, index: to, from });
  }

  setLayout(ws: Workspace, tab: Tab, layout: Layout): void {
    tab.layout = layout;
    this.relayout(tab);
    this.bus.emit({ type: "layout_changed", workspace: ws.name, tab: tab.id });
  }

  /** Arrange a tab's panes in one of tmux's preset layouts (select-layout): the same panes, in
   * their order; a zoomed tab is unzoomed. */
  arrange(ws: Workspace, tab: Tab, preset: LayoutPreset, main: { width?: number; height?: number } = {}): void {
    tab.zoomed = undefined;
    this.setLayout(ws, tab, presetLayout(preset, panesOf(tab.layout), this.layoutArea(), main));
  }

  /** Show a pane alone, filling its tab (`on`), put its tab's layout back (`off`), or whichever it is
   * not (`toggle`). Zooming a pane focuses it. Returns whether the zoom changed. */
  zoom(id: number, mode: "toggle" | "on" | "off"): boolean {
    const { ws, tab } = locateInLayout(this, id);
    const on = mode === "on" || (mode === "toggle" && tab.zoomed !== id);
    const next = on ? id : undefined;
    if (tab.zoomed === next) return false;
    tab.zoomed = next;
    if (on && tab.focused !== id) {
      tab.focused = id;
      this.bus.emit({ type: "pane_focused", workspace: ws.name, tab: tab.id, pane: id });
    }
    this.setLayout(ws, tab, tab.layout);
    return true;
  }

  // ---- programs and labels ----------------------------------------------------------------

  /**
   * Start a program in a pane again, same id, same screen (pane_respawn; tmux respawn-pane -k): a
   * running one is hung up on first. `argv` defaults to the pane's command, `cwd` to where it
   * started. Checked before anything changes.
   */
  respawnPane(id: number, o: { argv?: string[]; cwd?: string } = {}): Pane {
    const pane = this.pane(id);
    const { ws, tab } = this.locate(id);
    const label = pane.label;
    this.launcher.respawn(pane, ws.name, o);
    this.bus.emit({ type: "pane_respawned", workspace: ws.name, tab: tab.id, pane: id });
    if (pane.label !== label) this.bus.emit({ type: "pane_renamed", pane: id, title: pane.title, label: pane.label });
    return pane;
  }

  /** Name a pane (pane_rename): the name is its label whatever its program does; "" clears it. */
  renamePane(id: number, name: string): void {
    renamePane(this.writes, id, name);
  }

  /** tmux's pane border settings through the shim (pane_border): pane-labels.ts. */
  setPaneBorder(id: number, b: BorderSettings): void {
    setPaneBorder(this.writes, id, b);
  }

  /** What is in a pane's foreground now (the program-names feature looks): its label may follow. */
  setForeground(id: number, fg: { pid: number; name: string; argv?: string[] }): void {
    setForeground(this.writes, id, fg);
  }

  // ---- moving panes ------------------------------------------------------------------------

  /**
   * Move a running pane (same id, same program) beside another pane (`beside`, to its right or
   * below, with a `size`), into a new tab of a workspace (`workspace`), or into a new workspace
   * (`newWorkspace`) (pane-move.ts).
   */
  movePane(id: number, to: MoveTarget): { ws: Workspace; tab: Tab } {
    return movePane(this.writes, id, to);
  }

  /** Swap two panes of one tab: the split shape stays, the panes change places. */
  swapPanes(a: number, b: number): { ws: Workspace; tab: Tab } {
    const at = locateInLayout(this, a);
    const other = locateInLayout(this, b, "with");
    if (at.tab !== other.tab) throw new WsError(`panes ${a} and ${b} are in different tabs`, "cross_tab", { param: "with" });
    if (a !== b) this.setLayout(at.ws, at.tab, swapPanes(at.tab.layout, a, b));
    return at;
  }
}
