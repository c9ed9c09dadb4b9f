// WorkspaceInfo and TabInfo, as workspace_list replies them (spec: "WorkspaceInfo", "TabInfo").
import { panesOf } from "../model/layout";
import type { Session } from "./session";

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
