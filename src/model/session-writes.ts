// The Session's own writes, handed to the modules that carry out its bigger operations (the tab
// builder, moving a pane) so each step is written once, in the Session, and those modules stay
// outside it. Only the Session makes one; nothing else holds it.
import type { Pane } from "./pane";
import type { Tab, Workspace } from "./workspace";
import type { EventBus } from "./events";
import type { IdCounters } from "./session-ids";
import type { NewPaneOptions } from "./launch";
import type { Session } from "./session";

export interface SessionWrites {
  /** The façade, for its look-ups and public writes. */
  readonly session: Session;
  readonly bus: EventBus;
  readonly ids: IdCounters;
  /** Refuse a request that would start `n` panes past the limits. */
  checkRoom(n: number, perRequest?: boolean): void;
  /** Refuse, before anything changes, a pane that could not start. */
  checkLaunch(o: NewPaneOptions, at?: string): void;
  /** Refuse a workspace that has closed (a caller that waited may still hold it). */
  checkLive(ws: Workspace): void;
  /** Start a pane's program; it is not in the model until adopted. */
  start(ws: Workspace, o: NewPaneOptions, cols: number, rows: number, id: number): Pane;
  /** Put a started pane in the model. */
  adopt(pane: Pane): void;
  /** A new workspace, checked (its name free), not yet in the model. */
  createWorkspace(name: string, param: string, savedId?: number): Workspace;
  /** Put a workspace in the model (its name still free). */
  insertWorkspace(ws: Workspace, param?: string): void;
  /** Put a tab at the end of `ws`, with `panes` new in it. */
  insertTab(ws: Workspace, tab: Tab, panes: number[]): void;
  /** Take a pane out of its tab's layout; false when it was the tab's last (the tab is left as is). */
  takeFromLayout(ws: Workspace, tab: Tab, id: number): boolean;
  /** Close an emptied tab (and its workspace with its last tab). */
  removeTab(ws: Workspace, tab: Tab): void;
  /** A pane's program has ended. */
  paneExited(pane: Pane): void;
}
