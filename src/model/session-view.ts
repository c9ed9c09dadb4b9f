// The Session's model as everyone reads it: the workspaces, the panes, the screen, and the
// look-ups and geometry over them. Session (session.ts) extends it with the writes; the fields are
// protected so only the writer changes them.
import type { Pane } from "./pane";
import { findByName, type Tab, type Workspace } from "./workspace";
import type { Layout, PaneRect, Rect } from "./layout";
import { locatePane, paneById, paneWhere, tabById, tabByRef, tabName, workspaceNamed, type Place } from "./session-lookups";
import { layoutArea, tabPopupRects, tabRects } from "./session-geometry";
import { EventBus } from "./events";

export class SessionView {
  readonly bus = new EventBus();
  protected readonly workspaceList: Workspace[] = [];
  protected readonly paneMap = new Map<number, Pane>();
  protected clientSize = { cols: 80, rows: 24 };
  protected barsShown = true;
  protected currentIndex = 0;

  get workspaces(): readonly Workspace[] {
    return this.workspaceList;
  }

  get panes(): ReadonlyMap<number, Pane> {
    return this.paneMap;
  }

  /** The attached client's terminal size (or tmux's detached default). */
  get size(): { readonly cols: number; readonly rows: number } {
    return this.clientSize;
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

  /** The screen area tabs lay their panes out in: below the tab bar, above the status line. */
  layoutArea(): Rect {
    return layoutArea(this.size, this.barsShown);
  }

  /** Whether the tab bar and the status line take their rows (keys.toml status, tmux's). */
  get bars(): boolean {
    return this.barsShown;
  }

  /** Where each pane of a tab sits on screen (or would, with `layout`). A zoomed pane fills the tab. */
  rects(tab: Tab, layout: Layout = tab.layout): PaneRect[] {
    return tabRects(tab, this.layoutArea(), layout);
  }

  /** Where a tab's popup sits on screen: its box and the part its program sees. */
  popupRects(tab: Tab): { outer: Rect; inner: Rect } | undefined {
    return tabPopupRects(tab, this.layoutArea());
  }
}
