// The model as replies show it: workspace_list's WorkspaceInfo and TabInfo (spec: "WorkspaceInfo",
// "TabInfo"), portable layout trees, pane info and the whole-session snapshot. Only type imports of
// the session and panes, so command modules (which the CLI loads) can use it.
import { foregroundProcess, paneDirectory } from "./process-info";
import { panesOf, type Layout } from "./layout";
import type { Tab, Workspace } from "./workspace";
import type { Session } from "./session";
import type { Pane } from "./pane";
import type { TreeNode } from "./tree";

export function exportTree(session: Session, l: Layout): TreeNode {
  if (l.kind === "pane") {
    const p = session.panes.get(l.pane);
    const node: TreeNode = { type: "pane", pane: l.pane };
    if (p) {
      node.label = p.label;
      node.cwd = p.cwd;
      node.command = p.command;
      if (p.keep) node.keep = true;
      if (p.box) {
        node.box = true;
        if (p.box.network === false) node.network = false;
        if (p.box.write?.length) node.box_write = [...p.box.write];
      }
    }
    return node;
  }
  return { type: "split", direction: l.dir === "right" ? "right" : "down", ratio: l.ratio, first: exportTree(session, l.a), second: exportTree(session, l.b) };
}

export function layoutReply(session: Session, ws: Workspace, tab: Tab) {
  return {
    type: "layout" as const,
    workspace: ws.name,
    tab: tab.id,
    zoomed: tab.zoomed ?? null,
    focused: tab.focused,
    panes: panesOf(tab.layout),
    root: exportTree(session, tab.layout),
  };
}

/** How a pane that has gone ended, as the control service remembers it. */
export interface PaneEnd {
  exit_code: number | null;
  signal: string | null;
}

/** The daemon's identity and the event log's position, for the snapshot. */
export interface SnapshotStamp {
  bootId: string;
  seq: number;
}

export async function paneInfo(session: Session, exitOf: (pane: number) => PaneEnd | undefined, id: number) {
  const p = session.panes.get(id);
  if (!p) {
    const exit = exitOf(id);
    if (exit) return { type: "pane_info" as const, pane: id, exited: true, exit_code: exit.exit_code, signal: exit.signal };
    session.pane(id); // throws pane_not_found
  }
  const pane = p!;
  const where = session.locate(id);
  // A kept pane's program is gone: nothing to ask the system about.
  const fg = pane.exited ? null : shownForeground(pane, await foregroundProcess(pane.pid));
  const screen = pane.emulator;
  return {
    type: "pane_info" as const,
    pane: id,
    workspace: where.ws.name,
    tab: where.tab.id,
    focused: where.tab.focused === id,
    zoomed: where.tab.zoomed === id,
    cols: pane.cols,
    rows: pane.rows,
    cursor: { x: screen.cursorX, y: screen.cursorY },
    title: pane.title,
    label: pane.label,
    command: pane.command,
    argv: pane.argv,
    cwd: (await paneDirectory(pane, { fgPid: fg?.pid ?? pane.pid })) ?? pane.cwd,
    start_cwd: pane.cwd,
    pid: pane.pid,
    foreground: fg,
    scrollback: screen.baseY,
    emulator: screen.resting ? ("resting" as const) : ("live" as const),
    started_at: pane.startedAt,
    last_output_at: pane.lastOutputAt,
    exited: pane.exited,
    exit_code: pane.exitCode,
    ...(pane.exited ? { signal: pane.exitSignal } : {}),
  };
}

export function snapshot(session: Session, stamp: SnapshotStamp, agentStatus?: (pane: number) => string | undefined) {
  return {
    type: "snapshot" as const,
    boot_id: stamp.bootId,
    seq: stamp.seq,
    current: session.currentWorkspace?.name ?? null,
    size: session.size,
    workspaces: session.workspaces.map((ws, wi) => ({
      id: ws.id,
      name: ws.name,
      current: wi === session.current,
      active_tab: ws.tabs[ws.active]?.id ?? null,
      tabs: ws.tabs.map((tab, ti) => ({
        id: tab.id,
        name: session.tabName(tab),
        ...(tab.project !== undefined ? { project: tab.project } : {}),
        active: ti === ws.active,
        focused: tab.focused,
        zoomed: tab.zoomed ?? null,
        panes: panesOf(tab.layout),
        root: exportTree(session, tab.layout),
      })),
    })),
    panes: [...session.panes.values()].map((p) => {
      const where = session.where(p.id);
      const status = agentStatus?.(p.id);
      return {
        pane: p.id,
        workspace: where?.ws.name ?? null,
        tab: where?.tab.id ?? null,
        label: p.label,
        title: p.title,
        command: p.command,
        cwd: p.cwd,
        pid: p.pid,
        cols: p.cols,
        rows: p.rows,
        ...(status ? { agent_status: status } : {}),
      };
    }),
  };
}

export interface TabInfo {
  name: string;
  project?: string;
  panes: number[];
  active: boolean;
  ports?: number[];
}

export interface WorkspaceInfo {
  name: string;
  current: boolean;
  tabs: TabInfo[];
}

/** A source of listening ports per pane (the port scanner registers one). */
export type PortsOf = (pane: number) => number[];

export function workspaceInfos(session: Session, portsOf?: PortsOf): WorkspaceInfo[] {
  return session.workspaces.map((ws, wi) => ({
    name: ws.name,
    current: wi === session.current,
    tabs: ws.tabs.map((tab, ti) => {
      const panes = panesOf(tab.layout);
      // Key order is the spec's: name, project (when linked), panes, active, ports (when any).
      const info: TabInfo = { name: session.tabName(tab), ...(tab.project !== undefined ? { project: tab.project } : {}), panes, active: ti === ws.active };
      const ports = portsOf ? [...new Set(panes.flatMap(portsOf))].sort((a, b) => a - b) : [];
      if (ports.length) info.ports = ports;
      return info;
    }),
  }));
}

/** One row of pane_list: where a pane is, what it is called and what runs in it now. */
export interface PaneListing {
  pane: number;
  workspace: string;
  workspace_number: number;
  tab: number;
  tab_name: string;
  tab_number: number;
  label: string;
  title: string;
  name: string | null;
  command: string[];
  start_command: string[];
  cwd: string;
  pid: number;
  cols: number;
  rows: number;
  focused: boolean;
  exited: boolean;
  exit_code: number | null;
  signal: string | null;
  agent_status: string | null;
  /** A popup, floating over its tab (model/popup.ts). */
  popup: boolean;
}

/** The foreground process as people know it (Pane.shownArgv). */
function shownForeground<F extends { argv: string[] }>(pane: Pane, fg: F | null): F | null {
  return fg && { ...fg, argv: pane.shownArgv(fg.argv) };
}

/** Every pane in workspace, tab and layout order (pane_list). The foreground and cwd of all panes
 * are read at once, asynchronously. */
export async function paneListing(session: Session, agentStatus?: (pane: number) => string | undefined, workspace?: Workspace): Promise<PaneListing[]> {
  const rows: Promise<PaneListing>[] = [];
  session.workspaces.forEach((ws, wi) => {
    if (workspace && ws !== workspace) return;
    ws.tabs.forEach((tab, ti) => {
      // A popup comes last, after the layout's panes.
      for (const id of [...panesOf(tab.layout), ...(tab.popup ? [tab.popup.pane] : [])]) {
        const p = session.panes.get(id);
        if (!p) continue;
        const base = {
          pane: id,
          workspace: ws.name,
          workspace_number: wi + 1,
          tab: tab.id,
          tab_name: session.tabName(tab),
          tab_number: ti + 1,
          label: p.label,
          title: p.title,
          name: p.name ?? null,
          start_command: p.command,
          pid: p.pid,
          cols: p.cols,
          rows: p.rows,
          focused: tab.focused === id,
          exited: p.exited,
          exit_code: p.exitCode,
          signal: p.exitSignal,
          agent_status: agentStatus?.(id) ?? null,
          popup: tab.popup?.pane === id,
        };
        rows.push(
          (async () => {
            const fg = p.exited ? null : shownForeground(p, await foregroundProcess(p.pid));
            return { ...base, command: fg?.argv ?? [], cwd: (await paneDirectory(p, { fgPid: fg?.pid ?? p.pid })) ?? p.cwd };
          })(),
        );
      }
    });
  });
  return Promise.all(rows);
}
