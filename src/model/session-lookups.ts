// Look-ups over the model: a workspace, tab or pane by name, id or number, and where a pane lives.
// They read only; each throws the protocol's not-found error, naming what there is.
import type { Pane } from "./pane";
import { findByName, type Tab, type Workspace } from "./workspace";
import { contains } from "./layout";
import { WsError, have } from "../protocol/errors";

/** What the look-ups read: the Session's workspaces and panes. */
export interface ModelView {
  readonly workspaces: readonly Workspace[];
  readonly panes: ReadonlyMap<number, Pane>;
}

export type Place = { ws: Workspace; tab: Tab };

export function workspaceNamed(m: ModelView, name: string): Workspace {
  const ws = findByName(m.workspaces, name);
  if (!ws) throw new WsError(`no workspace "${name}"${have(m.workspaces.map((w) => w.name))}`, "workspace_not_found", { param: "name", available: m.workspaces.map((w) => w.name) });
  return ws;
}

export function paneById(m: ModelView, id: number): Pane {
  const p = m.panes.get(id);
  if (!p) throw paneNotFound(m, id);
  return p;
}

function paneNotFound(m: ModelView, id: number): WsError {
  return new WsError(`no pane ${id}${have([...m.panes.keys()])}`, "pane_not_found", { param: "pane", available: [...m.panes.keys()] });
}

/** Where a pane lives, if it is in a tab (its layout or its popup). */
export function paneWhere(m: ModelView, id: number): Place | undefined {
  for (const ws of m.workspaces) for (const tab of ws.tabs) if (contains(tab.layout, id) || tab.popup?.pane === id) return { ws, tab };
  return undefined;
}

/** Where a pane lives; pane_not_found for one that isn't. */
export function locatePane(m: ModelView, id: number): Place {
  const found = paneWhere(m, id);
  if (!found) throw paneNotFound(m, id);
  return found;
}

/** Where a pane of a layout lives: a popup floats over its tab, so splits, moves, swaps and zooms
 * refuse it. */
export function locateInLayout(m: ModelView, id: number, param = "pane"): Place {
  const at = locatePane(m, id);
  if (at.tab.popup?.pane === id) throw new WsError(`pane ${id} is a popup: it floats over its tab, outside the layout`, "pane_is_popup", { param });
  return at;
}

/** A tab by its id, if it is open. */
export function tabWhere(m: ModelView, id: number): Place | undefined {
  for (const ws of m.workspaces) for (const tab of ws.tabs) if (tab.id === id) return { ws, tab };
  return undefined;
}

export function tabById(m: ModelView, id: number): Place {
  const found = tabWhere(m, id);
  if (found) return found;
  const ids = m.workspaces.flatMap((w) => w.tabs.map((t) => t.id));
  throw new WsError(`no tab ${id}${have(ids)}`, "tab_not_found", { param: "tab", available: ids });
}

/** A tab's name: the one it was given, else its focused pane's label. */
export function tabName(m: ModelView, tab: Tab): string {
  return tab.name ?? m.panes.get(tab.focused)?.label ?? "tab";
}

/** A tab by its name (exact, then ignoring case) or its 1-based number. */
export function tabByRef(m: ModelView, ws: Workspace, ref: string): Tab {
  const name = (t: Tab) => tabName(m, t);
  const byName = ws.tabs.find((t) => name(t) === ref) ?? ws.tabs.find((t) => name(t).toLowerCase() === ref.toLowerCase());
  if (byName) return byName;
  if (/^\d+$/.test(ref) && Number(ref) >= 1 && Number(ref) <= ws.tabs.length) return ws.tabs[Number(ref) - 1]!;
  const names = ws.tabs.map(name);
  throw new WsError(`no tab "${ref}" in workspace "${ws.name}"${have(names)}`, "tab_not_found", { param: "tab", available: names });
}
