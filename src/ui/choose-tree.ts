// `prefix w`: tmux's choose-tree. Every workspace, its tabs and their panes as one list to move
// through; below it a preview of the selected item's pane (a tab's or workspace's focused one).
// Enter (or a click of the list's keys) goes there.

import { panesOf } from "../model/layout";
import { controlChars } from "../safe-text";
import type { Interface } from "./interface";

type Item = { workspace: number; tab?: number; pane?: number };

/** How many of the pane's last lines the preview shows. */
const PREVIEW_ROWS = 8;

const clean = (s: string) => s.replace(controlChars(), "");

export function chooseTree(ui: Interface): void {
  const s = ui.session;
  const items: Item[] = [];
  const lines: string[] = [];
  let selected = 0;
  s.workspaces.forEach((ws, wi) => {
    if (wi === s.current) selected = items.length;
    items.push({ workspace: ws.id });
    lines.push(`${wi === s.current ? "▾" : "▸"} ${clean(ws.name)}  (${ws.tabs.length} tab${ws.tabs.length === 1 ? "" : "s"})`);
    ws.tabs.forEach((tab, ti) => {
      if (wi === s.current && ti === ws.active) selected = items.length;
      items.push({ workspace: ws.id, tab: tab.id });
      const panes = panesOf(tab.layout);
      lines.push(`    ${ti + 1}: ${clean(s.tabName(tab))}${ti === ws.active ? " *" : ""}  (${panes.length} pane${panes.length === 1 ? "" : "s"})`);
      if (panes.length < 2) return;
      for (const id of panes) {
        if (wi === s.current && ti === ws.active && id === tab.focused) selected = items.length;
        items.push({ workspace: ws.id, tab: tab.id, pane: id });
        const p = s.panes.get(id);
        lines.push(`        pane ${id}: ${clean(p?.label ?? "")}${id === tab.focused ? " *" : ""}`);
      }
    });
  });
  const paneOf = (it: Item): number | undefined => {
    if (it.pane !== undefined) return it.pane;
    const ws = s.workspaces.find((w) => w.id === it.workspace);
    const tab = it.tab !== undefined ? ws?.tabs.find((t) => t.id === it.tab) : ws?.tabs[ws.active];
    return tab?.focused;
  };
  const preview = (i: number): string[] => {
    const id = paneOf(items[i]!);
    const p = id !== undefined ? s.panes.get(id) : undefined;
    if (!p) return [];
    const t = p.emulator;
    const shown = t.lines(t.baseY, t.baseY + t.rows).map((l) => clean(l).trimEnd());
    while (shown.length && !shown.at(-1)) shown.pop();
    return ["", `── pane ${p.id} ──`, ...shown.slice(-PREVIEW_ROWS)];
  };
  ui.pick("Choose a workspace, tab or pane (Enter goes, q closes)", lines, selected, (i) => {
    const it = items[i];
    if (!it) return;
    const ws = s.workspaces.find((w) => w.id === it.workspace);
    if (!ws) return;
    if (it.pane !== undefined && s.panes.has(it.pane)) return s.focusPane(it.pane);
    const tab = ws.tabs.find((t) => t.id === it.tab);
    if (tab) return s.focusTab(ws, tab);
    s.focusWorkspace(ws);
  }, preview);
}
