// The server's model and every operation on it: workspaces → tabs → layouts → panes. Handlers,
// the UI and persistence change the model only through here, and each change is published on the
// event bus. The look-ups (session-lookups.ts), the geometry (session-geometry.ts), the ids
// (session-ids.ts) and the tab builder's plan (tab-builder.ts) are their own modules; this one holds
// the writes. It is one piece
// (over 500 lines) because it is the model's one writer: every change and its event are here.
import { homedir } from "node:os";
import { Pane, type PaneSpec } from "./pane";
import { findByName, type Tab, type Workspace } from "./workspace";
import { leaf, panesOf, paneRects, removePane, splitPane, swapPanes, type Layout, type PaneRect, type Rect } from "./layout";
import { WsError } from "../protocol/errors";
import { nameProblem } from "../protocol/names";
import { envInt, MAX_PANES, MAX_PANES_PER_REQUEST } from "./limits";
import { checkFileRoom } from "./fd-limit";
import { EventBus } from "./events";
import { type TreeNode } from "./tree";
import { clampScreenSize } from "./screen-size";
import { checkLaunch, programOf, startError, usableDir, type NewPaneOptions } from "./launch";
import { BOXED_GRANTS, boxLaunch, boxTool, planBox, runtimeDirsOf, type BoxRequest } from "./box";
import type { PaneRun } from "./pane";
import { shellLaunch } from "./shell-integration";
import { parentDir } from "../paths";
import { popupRects, type Popup, type PopupClose } from "./popup";
import { locateInLayout, locatePane, paneById, paneWhere, tabById, tabByRef, tabName, tabWhere, workspaceNamed, type Place } from "./session-lookups";
import { layoutArea, sizePanes, tabPopupRects, tabRects } from "./session-geometry";
import { IdCounters } from "./session-ids";
import { fallbackNote, planTab, runNow, runPaced, treeTabSpec, type BuildSteps, type RestoreTabSpec, type TabPlan, type TabSpec } from "./tab-builder";
import { presetLayout, type LayoutPreset } from "./layout-presets";
import type { Workstream } from "./workstream";
import type { TerminalReport } from "../protocol/terminal-report";
import { coloursFrom, setTerminalColours } from "./terminal-colours";

export type { NewPaneOptions } from "./launch";
export type { RestoreTabSpec, TabSpec } from "./tab-builder";

export interface SessionOptions {
  socketPath: string;
  /** The environment panes inherit (the server's, cleaned). */
  baseEnv: Record<string, string>;
  /** Called when the last pane has gone: the server quits. */
  onEmpty: () => void;
  /** Panes at most at once (default MAX_PANES). */
  maxPanes?: number;
  /** Variables a pane gets over the base environment, by its id (the tmux shim's TMUX_PANE). */
  paneEnv?: (id: number) => Record<string, string>;
  /** The pane's own socket, its WS_SOCKET (default: the server's socket), made before it starts. */
  paneSocket?: (id: number) => string | undefined;
  /** Makes a pane from its spec (default: a real one, its program on a PTY). A test gives panes
   * over a fake PTY, to drive the Session in-process. */
  createPane?: (spec: PaneSpec) => Pane;
  /** keys.toml's `box`: a pane not asked either way is boxed. */
  boxByDefault?: boolean;
}

export class Session {
  readonly bus = new EventBus();
  /** Written here only: the rest of the daemon reads them. */
  private readonly workspaceList: Workspace[] = [];
  private readonly paneMap = new Map<number, Pane>();
  private screen = { cols: 80, rows: 24 };
  private barsShown = true;
  private currentIndex = 0;
  private readonly ids = new IdCounters();
  private quitting = false;
  private readonly maxPanes: number;
  private readonly workstreamMap = new Map<string, Workstream>();
  /** Panes being started by a paced build (restore): counted against the limit, not yet in the model. */
  private reserved = 0;
  /** Workspaces a restore is building, not in the model until their first tab is whole. */
  private readonly building = new WeakSet<Workspace>();

  constructor(readonly opts: SessionOptions) {
    this.maxPanes = opts.maxPanes ?? MAX_PANES;
  }

  // ---- lookups -------------------------------------------------------------------------------

  get workspaces(): readonly Workspace[] {
    return this.workspaceList;
  }

  get panes(): ReadonlyMap<number, Pane> {
    return this.paneMap;
  }

  /** The attached client's terminal size (or tmux's detached default). */
  get size(): { readonly cols: number; readonly rows: number } {
    return this.screen;
  }

  /** The index of the workspace on screen. */
  get current(): number {
    return this.currentIndex;
  }

  get currentWorkspace(): Workspace {
    return this.workspaces[this.currentIndex]!;
  }

  activeTab(ws: Workspace): Tab {
    return ws.tabs[ws.active]!;
  }

  /** A workspace by its name, exact then ignoring case. */
  findWorkspace(name: string): Workspace | undefined {
    return findByName(this.workspaces, name);
  }

  workspace(name: string): Workspace {
    return workspaceNamed(this, name);
  }

  pane(id: number): Pane {
    return paneById(this, id);
  }

  /** Where a pane lives, if it is in a tab. */
  where(id: number): Place | undefined {
    return paneWhere(this, id);
  }

  /** Where a pane lives; pane_not_found for one that isn't. */
  locate(id: number): Place {
    return locatePane(this, id);
  }

  tabById(id: number): Place {
    return tabById(this, id);
  }

  /** The tab a message means: `tab` by id, else the tab holding `pane`, else the one on screen. */
  resolveTab(p: { tab?: number; pane?: number }): Place {
    if (p.tab !== undefined) return this.tabById(p.tab);
    if (p.pane !== undefined) return this.locate(p.pane);
    const ws = this.currentWorkspace;
    return { ws, tab: this.activeTab(ws) };
  }

  tabName(tab: Tab): string {
    return tabName(this, tab);
  }

  /** A tab by its name or its 1-based number. */
  findTab(ws: Workspace, ref: string): Tab {
    return tabByRef(this, ws, ref);
  }

  /** Refuse a workspace that has closed (a caller that waited may still hold it). */
  private checkLive(ws: Workspace): void {
    if (!this.workspaces.includes(ws)) throw new WsError(`workspace "${ws.name}" has closed`, "workspace_not_found", { param: "workspace" });
  }

  // ---- geometry ------------------------------------------------------------------------------

  /** The screen area tabs lay their panes out in: below the tab bar, above the status line. */
  layoutArea(): Rect {
    return layoutArea(this.size, this.barsShown);
  }

  /** Whether the tab bar and the status line take their rows (keys.toml status, tmux's). */
  get bars(): boolean {
    return this.barsShown;
  }

  /** Show or hide the bars: every pane is sized to the area they leave, as a resize does. */
  setBars(on: boolean): void {
    if (on === this.barsShown) return;
    this.barsShown = on;
    this.relayoutAll();
    this.bus.emit({ type: "screen_resized", cols: this.size.cols, rows: this.size.rows });
  }

  /** Where each pane of a tab sits on screen (or would, with `layout`). A zoomed pane fills the tab. */
  rects(tab: Tab, layout: Layout = tab.layout): PaneRect[] {
    return tabRects(tab, this.layoutArea(), layout);
  }

  /** Size every pane of a tab to its cell. */
  /** What the attached terminal said about itself (undefined: none attached): panes' colour
   * queries are answered from it (terminal-colours.ts). */
  setClientTerminal(r: TerminalReport | undefined): void {
    setTerminalColours(coloursFrom(r));
  }

  relayout(tab: Tab): void {
    sizePanes(tab, this.layoutArea(), this.panes);
  }

  /** Where a tab's popup sits on screen: its box and the part its program sees. */
  popupRects(tab: Tab): { outer: Rect; inner: Rect } | undefined {
    return tabPopupRects(tab, this.layoutArea());
  }

  relayoutAll(): void {
    for (const ws of this.workspaces) for (const tab of ws.tabs) this.relayout(tab);
  }

  resizeScreen(cols: number, rows: number): void {
    const size = clampScreenSize(cols, rows);
    if (size.cols === this.size.cols && size.rows === this.size.rows) return;
    this.screen = size;
    this.relayoutAll();
    this.bus.emit({ type: "screen_resized", cols: this.size.cols, rows: this.size.rows });
  }

  // ---- creating ------------------------------------------------------------------------------
  // Every creation checks first, then starts its programs, and only then changes the model: a
  // request that fails (a bad name, a limit, a program that can't start) leaves no trace.

  /** Refuse a request that would start `n` panes past the limits (docs/limits.md). */
  checkRoom(n: number, perRequest = true): void {
    if (perRequest && n > MAX_PANES_PER_REQUEST)
      throw new WsError(`one request may start at most ${MAX_PANES_PER_REQUEST} panes; this one would start ${n}`, "limit_exceeded", { limit: MAX_PANES_PER_REQUEST });
    const now = this.panes.size + this.reserved;
    if (now + n > this.maxPanes)
      throw new WsError(`ws runs at most ${this.maxPanes} panes at once; it runs ${now}, and this would start ${n} more`, "limit_exceeded", { limit: this.maxPanes });
    checkFileRoom(n, now);
  }

  /** Refuse, before anything changes, a pane that could not start (launch.ts). `at` prefixes the
   * field names in errors (a layout tree's leaf). */
  checkLaunch(o: NewPaneOptions, at?: string): void {
    checkLaunch(o, this.opts.baseEnv, at);
    const box = this.boxOf(o);
    if (box) this.boxWrap(box, usableDir(o.cwd));
  }

  /** How a pane is boxed: as asked, else as keys.toml's `box` says. */
  private boxOf(o: NewPaneOptions): BoxRequest | undefined {
    return o.box === false ? undefined : (o.box ?? (this.opts.boxByDefault ? {} : undefined));
  }

  /** What starts a program in its box (src/model/box.ts); box_unavailable or box_refused when it
   * can't be boxed. The box sees the pane's own socket (its WS_SOCKET) and ws's shell start-up files. */
  private boxWrap(box: BoxRequest, cwd: string, shellFiles?: string): (run: PaneRun) => PaneRun {
    const env = this.opts.baseEnv;
    const tool = boxTool(env);
    const runtime = runtimeDirsOf(this.opts.socketPath, env);
    planBox(cwd, box, { env, runtime });
    const privateDir = parentDir(this.opts.socketPath);
    return (run) => boxLaunch(run, planBox(cwd, box, { env, runtime, socket: run.env.WS_SOCKET, read: shellFiles ? [shellFiles] : [] }), tool, privateDir);
  }

  /** Start a pane's program. The pane is not in the model until adopted. */
  private startPane(ws: Workspace, o: NewPaneOptions, cols: number, rows: number, id: number): Pane {
    this.checkLaunch(o);
    const cwd = usableDir(o.cwd);
    const env = { ...this.opts.baseEnv, ...this.opts.paneEnv?.(id), ...o.env, WS_SOCKET: this.opts.paneSocket?.(id) ?? this.opts.socketPath, WS_PANE_ID: String(id), WS_WORKSPACE: ws.name, PWD: cwd };
    const argv = programOf(o, this.opts.baseEnv);
    const box = this.boxOf(o);
    try {
      const launch = shellLaunch(argv, env, parentDir(this.opts.socketPath));
      const wrap = box ? this.boxWrap(box, cwd, launch?.dir) : undefined;
      const spec: PaneSpec = { id, argv, command: o.argv ?? [], cwd, env, cols, rows, preface: o.preface, launch, keep: o.keep, grants: o.grants ?? (box ? BOXED_GRANTS : undefined), ...(o.resume !== undefined ? { resume: o.resume } : {}), ...(box ? { box, wrap } : {}) };
      return this.opts.createPane ? this.opts.createPane(spec) : new Pane(spec);
    } catch (e) {
      throw startError(argv[0]!, e);
    }
  }

  private adopt(pane: Pane): void {
    pane.onOutput = () => this.bus.emit({ type: "pane_output", pane: pane.id });
    pane.onTitle = () => this.bus.emit({ type: "pane_renamed", pane: pane.id, title: pane.title, label: pane.label });
    pane.onExit = () => this.paneExited(pane);
    pane.onBell = () => this.bus.emit({ type: "pane_bell", pane: pane.id });
    pane.onClipboard = (_, data) => this.bus.emit({ type: "pane_clipboard", pane: pane.id, data });
    pane.shell.onStarted = (command) => this.bus.emit({ type: "command_started", pane: pane.id, ...(command !== undefined ? { command } : {}) });
    pane.shell.onFinished = (done) =>
      this.bus.emit({ type: "command_finished", pane: pane.id, ...(done.command !== undefined ? { command: done.command } : {}), exit_code: done.exitCode, result: done });
    this.paneMap.set(pane.id, pane);
  }

  /** Stop a pane that was started for a request that then failed. */
  private discard(pane: Pane): void {
    pane.kill("SIGHUP");
    pane.pty.exited.finally(() => pane.dispose());
  }

  newWorkspace(name: string, pane: NewPaneOptions = {}): Workspace {
    checkName("name", name);
    this.checkRoom(1);
    const o = { ...pane, cwd: pane.cwd ?? homedir() };
    const ws: Workspace = { id: this.ids.next.workspace, name, tabs: [], active: 0 };
    const area = this.layoutArea();
    const first = this.startPane(ws, o, area.cols, area.rows, this.ids.next.pane);
    this.ids.issue("pane");
    this.ids.issue("workspace");
    this.workspaceList.push(ws);
    this.bus.emit({ type: "workspace_created", workspace: ws.name });
    this.addTab(ws, first, {});
    return ws;
  }

  newTab(ws: Workspace, o: NewPaneOptions & { name?: string; project?: string; focus?: boolean } = {}): { tab: Tab; pane: Pane } {
    this.checkLive(ws);
    if (o.name !== undefined) checkName("name", o.name);
    if (o.project !== undefined) checkName("project", o.project);
    this.checkRoom(1);
    const area = this.layoutArea();
    const pane = this.startPane(ws, o, area.cols, area.rows, this.ids.next.pane);
    this.ids.issue("pane");
    return { tab: this.addTab(ws, pane, o), pane };
  }

  /** A new tab at the end of `ws` holding one started pane. */
  private addTab(ws: Workspace, pane: Pane, o: { name?: string; project?: string; focus?: boolean }): Tab {
    this.adopt(pane);
    const tab: Tab = { id: this.ids.issue("tab"), name: o.name, project: o.project, layout: leaf(pane.id), focused: pane.id };
    ws.tabs.push(tab);
    this.bus.emit({ type: "tab_created", workspace: ws.name, tab: tab.id, name: this.tabName(tab) });
    this.bus.emit({ type: "pane_created", workspace: ws.name, tab: tab.id, pane: pane.id });
    if (o.focus || ws.tabs.length === 1) this.focusTab(ws, tab, o.focus === true);
    return tab;
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
    const pane = this.startPane(ws, o, rect.cols, rect.rows, id);
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
    const pane = this.startPane(ws, { ...o, keep: true }, inner.cols, inner.rows, popup.pane);
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
    const tab = runNow(this.treeSteps(ws, root, o.name));
    if (o.focus) this.focusTab(ws, tab);
    return tab;
  }

  /** applyTree a pane at a time (layout_apply): 64 panes would hold the thread for seconds. */
  async applyTreePaced(ws: Workspace, root: TreeNode, o: { name?: string; focus: boolean }, pace: () => Promise<void>): Promise<Tab> {
    const tab = await runPaced(this.treeSteps(ws, root, o.name), pace);
    if (o.focus) this.focusTab(ws, tab);
    return tab;
  }

  /** Rebuild a saved tab at the end of `ws`. Each program starts at its cell's size; one that can't
   * start gets the user's shell with a note. Returns the tab and the saved → new pane ids. */
  restoreTab(ws: Workspace, spec: RestoreTabSpec): { tab: Tab; ids: Map<number, number> } {
    return runNow(this.buildSteps(ws, spec, true));
  }

  /**
   * restoreTab, giving the thread back (`pace`) before each pane, so a restore of hundreds of panes
   * never holds other clients up for more than one pane's start. The tab enters the model whole,
   * once every program has started. A workspace closed meanwhile: the panes are stopped, nothing
   * stays.
   */
  restoreTabPaced(ws: Workspace, spec: RestoreTabSpec, pace: () => Promise<void>): Promise<{ tab: Tab; ids: Map<number, number> }> {
    return runPaced(this.buildSteps(ws, spec, true), pace);
  }

  /** A tree's tab, checked before its build starts (the limits, then each leaf's launch). */
  private *treeSteps(ws: Workspace, root: TreeNode, name: string | undefined): BuildSteps<Tab> {
    const { spec, paths } = treeTabSpec(root, name);
    this.checkRoom(spec.panes.size);
    for (const [key, leaf] of spec.panes) this.checkLaunch(leaf, paths.get(key));
    return (yield* this.buildSteps(ws, spec, false)).tab;
  }

  /**
   * Start every pane of `spec`, yielding before each (tab-builder.ts runs the steps at once or
   * paced), then put the tab in the model. The new ids and the room for the panes are reserved
   * first. With `fallback` (restore) a program that can't start gets the user's shell with a note;
   * without it the first that can't start stops the build. A build that stops stops the panes it
   * started. The workspace must still be there (or be one a restore is building) at every step.
   */
  private *buildSteps(ws: Workspace, spec: TabSpec, fallback: boolean): BuildSteps<{ tab: Tab; ids: Map<number, number> }> {
    const plan = this.reserveTab(ws, spec, fallback);
    const started: Pane[] = [];
    try {
      for (const id of plan.ids.values()) {
        yield;
        if (!this.building.has(ws)) this.checkLive(ws);
        started.push(this.startPlanned(ws, plan, id, fallback));
      }
      if (this.building.has(ws)) this.insertBuilt(ws);
      else this.checkLive(ws);
    } catch (e) {
      for (const p of started) this.discard(p);
      this.unreserveIds(plan);
      throw e;
    } finally {
      this.reserved -= plan.ids.size;
    }
    return this.commitTab(ws, plan, started);
  }

  /** Check a tab to build, plan it, and reserve its pane ids (and its room: `reserved`, released by
   * the build). */
  private reserveTab(ws: Workspace, spec: TabSpec, fallback: boolean): TabPlan {
    if (!this.building.has(ws)) this.checkLive(ws);
    if (spec.name) checkName("name", spec.name);
    if (spec.project) checkName("project", spec.project);
    const plan = planTab(spec, this.ids.next.pane, (id) => this.ids.takePromisedPane(id), this.layoutArea());
    // A saved tab was within the limits when it was made; only the server's bound applies to it.
    this.checkRoom(plan.ids.size, !fallback);
    this.ids.reservePanes(plan.next);
    this.reserved += plan.ids.size;
    return plan;
  }

  /** A build that failed gives its ids back, unless later panes took ids after them meanwhile. */
  private unreserveIds(plan: TabPlan): void {
    this.ids.unreservePanes(plan.first, plan.next);
  }

  private startPlanned(ws: Workspace, plan: TabPlan, id: number, fallback: boolean): Pane {
    const o = plan.spec.panes.get(plan.byNew.get(id)!) ?? {};
    const r = plan.cells.get(id)!;
    try {
      const pane = this.startPane(ws, o, r.cols, r.rows, id);
      if (o.title) pane.restoreTitle(o.title);
      if (o.name) pane.setName(o.name);
      return pane;
    } catch (e) {
      // Out of descriptors or processes, a shell would fail too: say so rather than try.
      if (!fallback || (e instanceof WsError && e.code === "resource_exhausted")) throw e;
      return this.startPane(ws, { ...o, argv: [], preface: (o.preface ?? "") + fallbackNote(o.argv, e) }, r.cols, r.rows, id);
    }
  }

  private commitTab(ws: Workspace, plan: TabPlan, started: Pane[]): { tab: Tab; ids: Map<number, number> } {
    const { spec, ids, layout } = plan;
    for (const p of started) this.adopt(p);
    const tab: Tab = { id: this.ids.take("tab", spec.id), name: plan.name, project: plan.project, layout, focused: ids.get(spec.focused) ?? panesOf(layout)[0]! };
    if (spec.zoomed !== undefined && ids.has(spec.zoomed)) tab.zoomed = ids.get(spec.zoomed);
    ws.tabs.push(tab);
    this.relayout(tab);
    this.bus.emit({ type: "tab_created", workspace: ws.name, tab: tab.id, name: this.tabName(tab) });
    for (const id of ids.values()) this.bus.emit({ type: "pane_created", workspace: ws.name, tab: tab.id, pane: id });
    // A program that ended while later panes were starting (a paced build gives the thread back)
    // had no one to tell: its exit is handled now that the pane is in the model.
    for (const p of started) if (p.exited) this.paneExited(p);
    return { tab, ids };
  }

  /** A new workspace rebuilt from saved tabs (persistence), `active` being the index of its active
   * tab, a pane at a time (see restoreTabPaced). A tab that can't be rebuilt is left out and said
   * in `skipped`; with none rebuilt, nothing is left and the first failure is thrown. */
  async restoreWorkspace(name: string, tabs: RestoreTabSpec[], active = 0, pace: () => Promise<void> = async () => {}, savedId?: number): Promise<{ ws: Workspace; ids: Map<number, number>; panes: number; skipped: string[] }> {
    checkName("name", name);
    if (this.findWorkspace(name)) throw new WsError(`there is a workspace "${name}" already`, "workspace_exists", { param: "name" });
    if (!tabs.length) throw new Error(`workspace "${name}" has no tabs to restore`);
    // Out of the model until its first tab is whole: nobody sees a workspace without tabs.
    const ws: Workspace = { id: this.ids.take("workspace", savedId), name, tabs: [], active: 0 };
    this.building.add(ws);
    const ids = new Map<number, number>();
    let panes = 0;
    const skipped: string[] = [];
    let before = 0;
    let failure: unknown;
    try {
      for (const [i, t] of tabs.entries()) {
        if (!this.building.has(ws) && !this.workspaces.includes(ws)) break; // closed by a client meanwhile
        try {
          const built = await this.restoreTabPaced(ws, t, pace);
          for (const [a, b] of built.ids) ids.set(a, b);
          panes += built.ids.size;
        } catch (e) {
          failure = e;
          if (i < active) before++;
          skipped.push(`workspace ${JSON.stringify(name)} tab ${i + 1} left out: ${(e as Error).message}`);
        }
      }
    } finally {
      this.building.delete(ws);
    }
    if (!ws.tabs.length || !this.workspaces.includes(ws)) throw failure ?? new Error(`workspace "${name}" was closed while it was being restored`);
    ws.active = Math.min(Math.max(0, active - before), ws.tabs.length - 1);
    return { ws, ids, panes, skipped };
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

  /** A restored workspace's first tab is built: the workspace enters the model (its name still free). */
  private insertBuilt(ws: Workspace): void {
    if (this.findWorkspace(ws.name)) throw new WsError(`there is a workspace "${ws.name}" already`, "workspace_exists", { param: "name" });
    this.building.delete(ws);
    this.workspaceList.push(ws);
    this.bus.emit({ type: "workspace_created", workspace: ws.name });
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
    if (popup?.pane === pane.id) {
      this.bus.emit({ type: "pane_exited", pane: pane.id, exit_code: pane.exitCode, signal: pane.exitSignal });
      if (closesOnExit(popup.close, pane.exitCode)) this.removePane(pane.id, false);
      return;
    }
    // A kept pane stays, readable, saying how its program ended, until it is closed or respawned.
    // So does one whose program failed soon after it started (a typo, make without a Makefile),
    // until a key in it: it doesn't vanish before anyone could read why (tmux remain-on-exit failed).
    pane.setHeld(!pane.keep && failedAtStart(pane));
    if (pane.keep || pane.held) pane.showExit();
    this.bus.emit({ type: "pane_exited", pane: pane.id, exit_code: pane.exitCode, signal: pane.exitSignal });
    if (!pane.keep && !pane.held) this.removePane(pane.id, false);
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
    } else if (where) {
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
    checkName("name", name);
    const other = this.findWorkspace(name);
    if (other && other !== ws) throw new WsError(`there is a workspace "${other.name}" already`, "workspace_exists", { param: "name" });
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
    this.bus.emit({ type: "layout_changed", workspace: ws.name, tab: tab.id });
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
    const PATH = pane.env.PATH;
    const launch: NewPaneOptions = { argv: o.argv ?? pane.command, cwd: o.cwd ?? pane.cwd, strictCwd: o.cwd !== undefined, env: PATH !== undefined ? { PATH } : undefined, box: pane.box ?? false };
    this.checkLaunch(launch);
    const cwd = usableDir(launch.cwd);
    const argv = programOf(launch, this.opts.baseEnv);
    const label = pane.label;
    try {
      const env = { ...pane.env, WS_WORKSPACE: ws.name, PWD: cwd };
      const shell = shellLaunch(argv, env, parentDir(this.opts.socketPath));
      pane.respawn({ argv, command: launch.argv, cwd, env, launch: shell, wrap: pane.box ? this.boxWrap(pane.box, cwd, shell?.dir) : undefined });
    } catch (e) {
      throw startError(argv[0]!, e);
    }
    this.bus.emit({ type: "pane_respawned", workspace: ws.name, tab: tab.id, pane: id });
    if (pane.label !== label) this.bus.emit({ type: "pane_renamed", pane: id, title: pane.title, label: pane.label });
    return pane;
  }

  /** Name a pane (pane_rename): the name is its label whatever its program does; "" clears it. */
  renamePane(id: number, name: string): void {
    const pane = this.pane(id);
    if (name) checkName("name", name);
    pane.setName(name || undefined);
    this.bus.emit({ type: "pane_renamed", pane: id, title: pane.title, label: pane.label, name: pane.name ?? null });
  }

  /** tmux's pane border settings through the shim (pane_border): the pane's own format, and its
   * tab's format and status; undefined leaves one as it is, "" clears it. The label row redraws
   * (pane_renamed: what the pane's label shows has changed). */
  setPaneBorder(id: number, b: { format?: string; tabFormat?: string; status?: "top" | "bottom" | "off" }): void {
    const pane = this.pane(id);
    const { tab } = this.locate(id);
    if (b.format !== undefined) pane.setBorderFormat(b.format || undefined);
    if (b.tabFormat !== undefined || b.status !== undefined) {
      const border = { ...tab.border };
      if (b.tabFormat !== undefined) border.format = b.tabFormat || undefined;
      if (b.status !== undefined) border.status = b.status;
      tab.border = border;
    }
    this.bus.emit({ type: "pane_renamed", pane: id, title: pane.title, label: pane.label });
  }

  /** What is in a pane's foreground now (the program-names feature looks): its label may follow. */
  setForeground(id: number, fg: { pid: number; name: string; argv?: string[] }): void {
    const pane = this.panes.get(id);
    if (!pane || pane.exited) return;
    const label = pane.label;
    // The first words are what tells a program (an interpreter's script included): a bounded copy.
    const argv = fg.argv?.slice(0, 16).map((a) => a.slice(0, 1024));
    const changed = argv !== undefined && (pane.foregroundPid !== fg.pid || pane.foregroundArgv.join("\0") !== argv.join("\0"));
    pane.noteForeground(fg.pid, fg.name, argv);
    if (pane.label !== label) this.bus.emit({ type: "pane_renamed", pane: id, title: pane.title, label: pane.label });
    // Agents without hooks are told by their program (features/agents/screen-watch.ts).
    if (changed) this.bus.emit({ type: "pane_foreground", pane: id, pid: fg.pid, argv: [...argv] });
  }

  // ---- moving panes ------------------------------------------------------------------------

  /**
   * Move a running pane (same id, same program) beside another pane (`beside`, to its right or
   * below, with a `size`), into a new tab of a workspace (`workspace`), or into a new workspace
   * (`newWorkspace`). The tab it leaves closes if it was its last pane, and its workspace with its
   * last tab. Everything is checked before anything changes.
   */
  movePane(id: number, to: MoveTarget): { ws: Workspace; tab: Tab } {
    this.pane(id);
    const from = locateInLayout(this, id);
    const alone = panesOf(from.tab.layout).length === 1;
    const refuse = (why: string, param?: string): never => {
      throw new WsError(`can't move pane ${id}: ${why}`, "invalid_move", param ? { param } : undefined);
    };
    let dest: { ws: Workspace; tab: Tab; layout: Layout } | { ws: Workspace; newTab: true } | { newWorkspace: string };
    if ("beside" in to) {
      if (to.beside === id) refuse("a pane can't go beside itself", "beside");
      this.pane(to.beside);
      const at = locateInLayout(this, to.beside, "beside");
      if (to.size !== undefined && to.size < 1) throw new WsError(`size must be at least 1, got ${to.size}`, "invalid_params", { param: "size" });
      // Beside a pane of its own tab: take it out first, then split beside the other.
      const base = at.tab === from.tab ? removePane(from.tab.layout, id)! : at.tab.layout;
      dest = { ws: at.ws, tab: at.tab, layout: splitPane(base, to.beside, id, to.right ? "right" : "below", this.layoutArea(), to.size) };
    } else if ("workspace" in to) {
      const ws = this.workspace(to.workspace);
      if (alone && ws === from.ws) refuse(`it is the only pane of its tab already`, "workspace");
      if (to.name !== undefined) checkName("name", to.name);
      dest = { ws, newTab: true };
    } else {
      checkName("new_workspace", to.newWorkspace);
      const other = this.findWorkspace(to.newWorkspace);
      if (other) throw new WsError(`there is a workspace "${other.name}" already`, "workspace_exists", { param: "new_workspace" });
      if (to.name !== undefined) checkName("name", to.name);
      dest = { newWorkspace: to.newWorkspace };
    }
    // Out of its tab (unless it is rearranged within it).
    const inPlace = "layout" in dest && dest.tab === from.tab;
    let emptied = false;
    if (!inPlace) {
      const rest = removePane(from.tab.layout, id);
      emptied = !rest;
      if (rest) {
        from.tab.layout = rest;
        if (from.tab.zoomed === id) from.tab.zoomed = undefined;
        if (from.tab.focused === id) from.tab.focused = panesOf(rest)[0]!;
        this.relayout(from.tab);
        this.bus.emit({ type: "layout_changed", workspace: from.ws.name, tab: from.tab.id });
      }
    }
    const fromWs = from.ws.name;
    const fromTab = from.tab.id;
    // Into its new place.
    let placed: { ws: Workspace; tab: Tab };
    if ("layout" in dest) {
      dest.tab.layout = dest.layout;
      dest.tab.zoomed = undefined;
      this.relayout(dest.tab);
      this.bus.emit({ type: "layout_changed", workspace: dest.ws.name, tab: dest.tab.id });
      placed = dest;
    } else {
      let ws: Workspace;
      if ("newWorkspace" in dest) {
        ws = { id: this.ids.issue("workspace"), name: dest.newWorkspace, tabs: [], active: 0 };
        this.workspaceList.push(ws);
        this.bus.emit({ type: "workspace_created", workspace: ws.name });
      } else ws = dest.ws;
      const tab: Tab = { id: this.ids.issue("tab"), name: to.name, layout: leaf(id), focused: id };
      ws.tabs.push(tab);
      this.relayout(tab);
      this.bus.emit({ type: "tab_created", workspace: ws.name, tab: tab.id, name: this.tabName(tab) });
      placed = { ws, tab };
    }
    // The tab it left, emptied, closes now (after the new workspace exists, so ws is never empty).
    if (emptied) this.removeTab(from.ws, from.tab);
    this.bus.emit({ type: "pane_moved", workspace: placed.ws.name, tab: placed.tab.id, pane: id, from_workspace: fromWs, from_tab: fromTab });
    if (to.focus) this.focusPane(id);
    return placed;
  }

  // ---- workstreams -------------------------------------------------------------------------

  get workstreams(): ReadonlyMap<string, Workstream> {
    return this.workstreamMap;
  }

  /** A workstream's tab, while it is open. */
  workstreamTab(w: Workstream): Place | undefined {
    return w.tab === undefined ? undefined : tabWhere(this, w.tab);
  }

  /** The workstream whose tab holds `pane`; in a tab several share (ws fan --tiled), the one the
   * pane's WS_WORKSTREAM names. */
  workstreamOfPane(pane: number): Workstream | undefined {
    const at = this.where(pane);
    if (!at) return undefined;
    let first: Workstream | undefined;
    for (const w of this.workstreams.values()) {
      if (w.tab !== at.tab.id) continue;
      if (w.name === this.panes.get(pane)?.env.WS_WORKSTREAM) return w;
      first ??= w;
    }
    return first;
  }

  /** Record a workstream (or replace the record of one by that name: a review opened afresh). */
  addWorkstream(w: Workstream): void {
    checkName("name", w.name);
    this.workstreamMap.set(w.name, { ...w });
    const at = this.workstreamTab(w);
    this.bus.emit({ type: "workstream_created", workstream: w.name, ...(at ? { workspace: at.ws.name, tab: at.tab.id } : {}) });
  }

  /** Forget a workstream (ws done: its tab is closed and its worktree removed by the caller). */
  removeWorkstream(name: string): void {
    if (!this.workstreamMap.delete(name)) return;
    this.bus.emit({ type: "workstream_closed", workstream: name });
  }

  /** Build a tab from a tree in a new workspace `name` (a workstream's, made when missing). If the
   * tab can't be built, the workspace is not made either. */
  applyTreeInNewWorkspace(name: string, root: TreeNode, o: { name?: string; focus: boolean }): { ws: Workspace; tab: Tab } {
    checkName("name", name);
    if (this.findWorkspace(name)) throw new WsError(`there is a workspace "${name}" already`, "workspace_exists", { param: "workspace" });
    const { spec, paths } = treeTabSpec(root, o.name);
    this.checkRoom(spec.panes.size);
    for (const [key, leaf] of spec.panes) this.checkLaunch(leaf, paths.get(key));
    const ws: Workspace = { id: this.ids.issue("workspace"), name, tabs: [], active: 0 };
    this.workspaceList.push(ws);
    this.bus.emit({ type: "workspace_created", workspace: ws.name });
    try {
      return { ws, tab: this.applyTree(ws, root, o) };
    } catch (e) {
      this.removeEmptyWorkspace(ws);
      throw e;
    }
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

/** Where pane_move puts a pane. */
export type MoveTarget = { focus?: boolean; name?: string } & (
  | { beside: number; right: boolean; size?: number }
  | { workspace: string }
  | { newWorkspace: string }
);

/** Refuse a name that breaks the rule of src/protocol/names.ts (the protocol's schema checks it too;
 * this holds for the UI's prompts and every other caller). */
function checkName(param: string, name: string): void {
  const problem = nameProblem(name);
  if (problem) throw new WsError(`invalid name in \`${param}\`: it ${problem}`, "invalid_params", { param });
}


/** A program that ends this soon after it started, and not well, is held (Session.paneExited).
 * `WS_FAILED_START_MS` in the server's environment changes it (tests wait less). */
export const FAILED_START_MS = envInt("WS_FAILED_START_MS", 5_000);

/** Whether a pane's program failed within FAILED_START_MS of starting: a non-zero status, or a
 * signal other than the hang-up or interrupt a person or ws sends to end it. */
function failedAtStart(pane: Pane): boolean {
  if (Date.now() - pane.startedAt > FAILED_START_MS) return false;
  if (pane.exitSignal !== null) return pane.exitSignal !== "SIGHUP" && pane.exitSignal !== "SIGINT";
  return pane.exitCode !== null && pane.exitCode !== 0;
}

/** Whether a popup closes when its program ends this way (tmux's -E, -E -E). */
function closesOnExit(close: PopupClose, exitCode: number | null): boolean {
  return close === "exit" || (close === "success" && exitCode === 0);
}
