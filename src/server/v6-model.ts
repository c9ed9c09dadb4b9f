// The model as protocol v6 shows it: tabs by id, portable layout trees (export and apply), pane
// info and the whole-session snapshot. Only type imports of the session and panes, so command
// modules (which the CLI loads) can use it.
import { readlink, readFile } from "node:fs/promises";
import { panesOf, type Layout } from "../model/layout";
import type { Tab, Workspace } from "../model/workspace";
import { WsError, have } from "../protocol/errors";
import type { NewPaneOptions, Session } from "./session";
import { nameProblem } from "../model/names";
import { MAX_LAYOUT_DEPTH } from "../model/limits";
import type { Control } from "./control";

export type TreeNode =
  | { type: "pane"; pane?: number; label?: string; cwd?: string; command?: string[] }
  | { type: "split"; direction: "right" | "down"; ratio: number; first: TreeNode; second: TreeNode };

/** The tree grammar, as the catalogue and docs give it. */
export const TREE_SHAPE =
  'node = {"type":"pane", "label"?: string, "cwd"?: string, "command"?: [string]} | {"type":"split", "direction": "right"|"down", "ratio": number in (0,1), "first": node, "second": node}';

export function checkTree(v: unknown, path = "root", depth = 0): string | undefined {
  if (depth > MAX_LAYOUT_DEPTH) return `\`${path}\` is nested too deep (at most ${MAX_LAYOUT_DEPTH} levels)`;
  if (typeof v !== "object" || v === null || Array.isArray(v)) return `\`${path}\` must be an object`;
  const o = v as Record<string, unknown>;
  const allowed = o.type === "pane" ? ["type", "pane", "label", "cwd", "command"] : ["type", "direction", "ratio", "first", "second"];
  if (o.type !== "pane" && o.type !== "split") return `\`${path}.type\` must be "pane" or "split"`;
  const extra = Object.keys(o).find((k) => !allowed.includes(k));
  if (extra) return `unknown field \`${path}.${extra}\` (accepted: ${allowed.join(", ")})`;
  if (o.type === "pane") {
    if (o.label !== undefined && typeof o.label !== "string") return `\`${path}.label\` must be a string`;
    const bad = typeof o.label === "string" && o.label !== "" ? nameProblem(o.label) : undefined;
    if (bad) return `invalid name in \`${path}.label\`: it ${bad}`;
    if (o.cwd !== undefined && typeof o.cwd !== "string") return `\`${path}.cwd\` must be a string`;
    if (o.pane !== undefined && !Number.isSafeInteger(o.pane)) return `\`${path}.pane\` must be an integer`;
    if (o.command !== undefined && !(Array.isArray(o.command) && o.command.every((x) => typeof x === "string"))) return `\`${path}.command\` must be an array of strings`;
    return undefined;
  }
  if (o.direction !== "right" && o.direction !== "down") return `\`${path}.direction\` must be "right" or "down"`;
  if (typeof o.ratio !== "number" || !(o.ratio > 0 && o.ratio < 1)) return `\`${path}.ratio\` must be a number between 0 and 1`;
  return checkTree(o.first, `${path}.first`, depth + 1) ?? checkTree(o.second, `${path}.second`, depth + 1);
}

export function tabById(session: Session, id: number): { ws: Workspace; tab: Tab } {
  for (const ws of session.workspaces) for (const tab of ws.tabs) if (tab.id === id) return { ws, tab };
  const ids = session.workspaces.flatMap((w) => w.tabs.map((t) => t.id));
  throw new WsError(`no tab ${id}${have(ids)}`, "tab_not_found", { param: "tab", available: ids });
}

/** The tab a message means: `tab` by id, else the tab holding `pane`, else the one on screen. */
export function resolveTab(session: Session, p: { tab?: number; pane?: number }): { ws: Workspace; tab: Tab } {
  if (p.tab !== undefined) return tabById(session, p.tab);
  if (p.pane !== undefined) {
    session.pane(p.pane);
    return session.locate(p.pane);
  }
  const ws = session.currentWorkspace;
  return { ws, tab: session.activeTab(ws) };
}

export function exportTree(session: Session, l: Layout): TreeNode {
  if (l.kind === "pane") {
    const p = session.panes.get(l.pane);
    const node: TreeNode = { type: "pane", pane: l.pane };
    if (p) {
      node.label = p.label;
      node.cwd = p.cwd;
      node.command = p.command;
    }
    return node;
  }
  return { type: "split", direction: l.dir === "right" ? "right" : "down", ratio: l.ratio, first: exportTree(session, l.a), second: exportTree(session, l.b) };
}

export function layoutReply(session: Session, ws: Workspace, tab: Tab, type = "layout") {
  return {
    type,
    workspace: ws.name,
    tab: tab.id,
    zoomed: tab.zoomed ?? null,
    focused: tab.focused,
    panes: panesOf(tab.layout),
    root: exportTree(session, tab.layout),
  };
}

/**
 * Build a fresh tab at the end of `ws` from a tree. Everything is checked before any program
 * starts (the pane limits, then each leaf's cwd and program, named by its path in the tree), and
 * the model changes only once every program has started.
 */
export function applyTree(session: Session, ws: Workspace, root: TreeNode, o: { name?: string; focus: boolean }): Tab {
  const panes = new Map<number, NewPaneOptions & { title?: string }>();
  const paths = new Map<number, string>();
  const toLayout = (n: TreeNode, path: string): Layout => {
    if (n.type === "pane") {
      const key = panes.size + 1;
      panes.set(key, { cwd: n.cwd, argv: n.command ?? [], strictCwd: true, title: n.label });
      paths.set(key, path);
      return { kind: "pane", pane: key };
    }
    return { kind: "split", dir: n.direction === "right" ? "right" : "below", ratio: n.ratio, a: toLayout(n.first, `${path}.first`), b: toLayout(n.second, `${path}.second`) };
  };
  const layout = toLayout(root, "root");
  session.checkRoom(panes.size);
  for (const [key, p] of panes) session.checkLaunch(p, paths.get(key));
  const tab = session.newTabFromSpec(ws, { name: o.name, layout, panes, focused: 1 });
  if (o.focus) session.focusTab(ws, tab);
  return tab;
}

async function foreground(pid: number): Promise<{ pid: number; argv: string[] } | null> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, "utf8");
    const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const tpgid = Number(f[5]);
    const fg = Number.isInteger(tpgid) && tpgid > 0 ? tpgid : pid;
    const argv = (await readFile(`/proc/${fg}/cmdline`, "utf8")).split("\0").filter((x, i, a) => x !== "" || i < a.length - 1);
    return { pid: fg, argv };
  } catch {}
  try {
    const ps = Bun.spawn(["ps", "-o", "tpgid=", "-p", String(pid)], { stdout: "pipe", stderr: "ignore" });
    const fg = Number((await new Response(ps.stdout).text()).trim());
    if (!(Number.isInteger(fg) && fg > 0)) return null;
    const args = Bun.spawn(["ps", "-o", "args=", "-p", String(fg)], { stdout: "pipe", stderr: "ignore" });
    const line = (await new Response(args.stdout).text()).trim();
    return { pid: fg, argv: line ? line.split(/\s+/) : [] };
  } catch {}
  return null;
}

async function cwdOf(pid: number, fallback: string): Promise<string> {
  try {
    return await readlink(`/proc/${pid}/cwd`);
  } catch {
    return fallback;
  }
}

export async function paneInfo(session: Session, control: Control, id: number): Promise<{ type: string; [k: string]: unknown }> {
  const p = session.panes.get(id);
  if (!p) {
    const exit = control.exitOf(id);
    if (exit) return { type: "pane_info", pane: id, exited: true, exit_code: exit.exit_code, signal: exit.signal };
    session.pane(id); // throws pane_not_found
  }
  const pane = p!;
  const where = session.locate(id);
  const fg = await foreground(pane.pid);
  const buf = pane.term.buffer.active;
  return {
    type: "pane_info",
    pane: id,
    workspace: where.ws.name,
    tab: where.tab.id,
    focused: where.tab.focused === id,
    zoomed: where.tab.zoomed === id,
    cols: pane.cols,
    rows: pane.rows,
    cursor: { x: buf.cursorX, y: buf.cursorY },
    title: pane.title,
    label: pane.label,
    command: pane.command,
    argv: pane.argv,
    cwd: await cwdOf(fg?.pid ?? pane.pid, pane.cwd),
    start_cwd: pane.cwd,
    pid: pane.pid,
    foreground: fg,
    scrollback: buf.baseY,
    started_at: pane.startedAt,
    last_output_at: pane.lastOutputAt,
    exited: pane.exited,
    exit_code: pane.exitCode,
  };
}

export function snapshot(session: Session, control: Control, agentStatus?: (pane: number) => string | undefined) {
  return {
    type: "snapshot",
    boot_id: control.bootId,
    seq: control.events.seq,
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
      let where: { ws: Workspace; tab: Tab } | undefined;
      try {
        where = session.locate(p.id);
      } catch {}
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
