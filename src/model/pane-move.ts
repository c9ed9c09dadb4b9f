// Moving a running pane (pane_move; tmux join-pane / break-pane): same id, same program, beside
// another pane, into a new tab of a workspace, or into a new workspace. Carried out through the
// Session's own writes (SessionWrites); everything is checked before anything changes.
import { WsError } from "../protocol/errors";
import { leaf, panesOf, removePane, splitPane, type Layout } from "./layout";
import { locateInLayout } from "./session-lookups";
import type { SessionWrites } from "./session-writes";
import type { Tab, Workspace } from "./workspace";
import { checkName } from "../protocol/names";

/** Where pane_move puts a pane. */
export type MoveTarget = { focus?: boolean; name?: string } & (
  | { beside: number; right: boolean; size?: number }
  | { workspace: string }
  | { newWorkspace: string }
);

type Destination = { ws: Workspace; tab: Tab; layout: Layout } | { ws: Workspace; newTab: true } | { newWorkspace: Workspace };

/**
 * Move pane `id` to `to`. The tab it leaves closes if it was its last pane, and its workspace with
 * its last tab.
 */
export function movePane(w: SessionWrites, id: number, to: MoveTarget): { ws: Workspace; tab: Tab } {
  const s = w.session;
  s.pane(id);
  const from = locateInLayout(s, id);
  const dest = destination(w, id, from, to);
  // Out of its tab (unless it is rearranged within it).
  const inPlace = "layout" in dest && dest.tab === from.tab;
  const emptied = !inPlace && !w.takeFromLayout(from.ws, from.tab, id);
  const fromWs = from.ws.name;
  const fromTab = from.tab.id;
  // Into its new place.
  let placed: { ws: Workspace; tab: Tab };
  if ("layout" in dest) {
    dest.tab.layout = dest.layout;
    dest.tab.zoomed = undefined;
    s.relayout(dest.tab);
    w.bus.emit({ type: "layout_changed", workspace: dest.ws.name, tab: dest.tab.id });
    placed = dest;
  } else {
    const ws = "newWorkspace" in dest ? dest.newWorkspace : dest.ws;
    if ("newWorkspace" in dest) w.insertWorkspace(ws, "new_workspace");
    const tab: Tab = { id: w.ids.issue("tab"), name: to.name, layout: leaf(id), focused: id };
    w.insertTab(ws, tab, []);
    placed = { ws, tab };
  }
  // The tab it left, emptied, closes now (after the new workspace exists, so ws is never empty).
  if (emptied) w.removeTab(from.ws, from.tab);
  w.bus.emit({ type: "pane_moved", workspace: placed.ws.name, tab: placed.tab.id, pane: id, from_workspace: fromWs, from_tab: fromTab });
  if (to.focus) s.focusPane(id);
  return placed;
}

/** Where the pane goes, checked; nothing has changed yet. */
function destination(w: SessionWrites, id: number, from: { ws: Workspace; tab: Tab }, to: MoveTarget): Destination {
  const s = w.session;
  const refuse = (why: string, param: string): never => {
    throw new WsError(`can't move pane ${id}: ${why}`, "invalid_move", { param });
  };
  if ("beside" in to) {
    if (to.beside === id) refuse("a pane can't go beside itself", "beside");
    s.pane(to.beside);
    const at = locateInLayout(s, to.beside, "beside");
    if (to.size !== undefined && to.size < 1) throw new WsError(`size must be at least 1, got ${to.size}`, "invalid_params", { param: "size" });
    // Beside a pane of its own tab: take it out first, then split beside the other.
    const base = at.tab === from.tab ? removePane(from.tab.layout, id)! : at.tab.layout;
    return { ws: at.ws, tab: at.tab, layout: splitPane(base, to.beside, id, to.right ? "right" : "below", s.layoutArea(), to.size) };
  }
  if (to.name !== undefined) checkName("name", to.name);
  if ("workspace" in to) {
    const ws = s.workspace(to.workspace);
    if (ws === from.ws && panesOf(from.tab.layout).length === 1) refuse(`it is the only pane of its tab already`, "workspace");
    return { ws, newTab: true };
  }
  return { newWorkspace: w.createWorkspace(to.newWorkspace, "new_workspace") };
}
