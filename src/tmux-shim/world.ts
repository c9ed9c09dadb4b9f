// ws's session seen as tmux sees its own: a workspace is a session ($N, its ws id), a tab is a
// window (@N, the tab's id), a pane is a pane (%N, the pane's id). ws never reuses an id, so an id
// a tool keeps names the same pane for as long as it lives. Indexes count from 0, as tmux's do by
// default. Geometry comes from each pane's size and its tab's split tree.
import { processTerminalSync } from "../platform";
import { hostname } from "node:os";
import { request, type ReplyObject } from "../client/request";
import type { EntryReply } from "../messages/types";
import type pane_info from "../messages/pane_info";
import { startCommandOf, tmuxArgv } from "./pane-command";

export class ShimError extends Error {
  /** The server's error code, when the server refused. */
  constructor(message: string, readonly code?: string) {
    super(message);
  }
}

type Tree = { type: "pane"; pane: number } | { type: "split"; direction: "right" | "down"; ratio: number; first: Tree; second: Tree };

export interface TPane {
  id: number;
  index: number;
  window: TWindow;
  title: string;
  name: string | null;
  command: string[];
  startCommand: string[];
  cwd: string;
  pid: number;
  width: number;
  height: number;
  left: number;
  top: number;
  active: boolean;
  dead: boolean;
  exitCode: number | null;
}

export interface TWindow {
  id: number;
  index: number;
  name: string;
  session: TSession;
  active: boolean;
  zoomed: boolean;
  panes: TPane[];
  width: number;
  height: number;
  layout: string;
}

export interface TSession {
  id: number;
  name: string;
  current: boolean;
  windows: TWindow[];
}

export interface World {
  sessions: TSession[];
  panes: Map<number, TPane>;
  /** The attached terminal (tmux's client): its size, its TERM and its XTVERSION answer (empty
   * with none attached, and for a terminal that gave none). */
  client: { width: number; height: number; term: string; version: string };
}

/** Answers a request without a socket: the server's own dispatch, when the shim's commands run
 * inside the server (prefix :, keys.toml, ws tmux's lines typed by the person). */
export type InProcessServer = (msg: Record<string, unknown>) => Promise<ReplyObject>;
const inProcess = new Map<string, InProcessServer>();

/** Serve `sock`'s requests in this process (the server itself); undefined stops it. */
export function serveInProcess(sock: string, server: InProcessServer | undefined): void {
  if (server) inProcess.set(sock, server);
  else inProcess.delete(sock);
}

/** Ask the server, failing with the server's message. */
export async function call(sock: string, type: string, fields: Record<string, unknown> = {}, timeoutMs?: number): Promise<ReplyObject> {
  let reply: ReplyObject;
  try {
    const own = inProcess.get(sock);
    reply = own ? await own({ v: 6, type, ...fields }) : await request(sock, { v: 6, type, ...fields }, timeoutMs);
  } catch {
    throw new ShimError(`no server running on ${sock}`);
  }
  if (reply.type === "error") throw new ShimError(String(reply.message ?? "error"), typeof reply.code === "string" ? reply.code : undefined);
  return reply;
}

interface SnapTab { id: number; name: string; active: boolean; focused: number; zoomed: number | null; panes: number[]; root: Tree }
interface SnapWorkspace { id: number; name: string; current: boolean; tabs: SnapTab[] }
interface Listing { pane: number; title: string; name: string | null; command: string[]; start_command: string[]; cwd: string; pid: number; cols: number; rows: number; exited: boolean; exit_code: number | null }

export async function loadWorld(sock: string): Promise<World> {
  const [snap, list] = await Promise.all([call(sock, "session_snapshot"), call(sock, "pane_list")]);
  const rows = new Map((list.panes as Listing[]).map((p) => [p.pane, p]));
  const size = snap.size as { cols: number; rows: number };
  const world: World = { sessions: [], panes: new Map(), client: { width: size.cols, height: size.rows, ...clientOf(snap.client) } };
  for (const w of snap.workspaces as SnapWorkspace[]) {
    const session: TSession = { id: w.id, name: w.name, current: w.current, windows: [] };
    w.tabs.forEach((t, ti) => {
      const window: TWindow = { id: t.id, index: ti, name: t.name, session, active: t.active, zoomed: t.zoomed !== null, panes: [], width: 0, height: 0, layout: "" };
      const sizeOf = (id: number) => ({ w: rows.get(id)?.cols ?? 1, h: rows.get(id)?.rows ?? 1 });
      const placed = place(t.root, 0, 0, sizeOf);
      window.width = placed.w;
      window.height = placed.h;
      const layoutBody = layoutString(t.root, 0, 0, sizeOf);
      window.layout = `${checksum(layoutBody).toString(16).padStart(4, "0")},${layoutBody}`;
      t.panes.forEach((id, pi) => {
        const r = rows.get(id);
        const at = placed.at.get(id) ?? { x: 0, y: 0 };
        const pane: TPane = {
          id,
          index: pi,
          window,
          title: r?.title ?? "",
          name: r?.name ?? null,
          command: r?.command ?? [],
          startCommand: startCommandOf(r?.start_command ?? []),
          cwd: r?.cwd ?? "",
          pid: r?.pid ?? 0,
          width: r?.cols ?? 0,
          height: r?.rows ?? 0,
          left: at.x,
          top: at.y,
          active: id === t.focused,
          dead: r?.exited ?? false,
          exitCode: r?.exit_code ?? null,
        };
        window.panes.push(pane);
        world.panes.set(id, pane);
      });
      session.windows.push(window);
    });
    world.sessions.push(session);
  }
  return world;
}

type Size = (id: number) => { w: number; h: number };

/** Every pane's position, and the tree's size: a split puts a one-cell border between its halves. */
function place(node: Tree, x: number, y: number, size: Size, at = new Map<number, { x: number; y: number }>()): { w: number; h: number; at: Map<number, { x: number; y: number }> } {
  if (node.type === "pane") {
    at.set(node.pane, { x, y });
    return { ...size(node.pane), at };
  }
  const a = place(node.first, x, y, size, at);
  if (node.direction === "right") {
    const b = place(node.second, x + a.w + 1, y, size, at);
    return { w: a.w + 1 + b.w, h: Math.max(a.h, b.h), at };
  }
  const b = place(node.second, x, y + a.h + 1, size, at);
  return { w: Math.max(a.w, b.w), h: a.h + 1 + b.h, at };
}

/** tmux's layout string (layout-custom.c): runs of one direction are one cell with several children. */
function layoutString(node: Tree, x: number, y: number, size: Size): string {
  const dims = place(node, x, y, size);
  const head = `${dims.w}x${dims.h},${x},${y}`;
  if (node.type === "pane") return `${head},${node.pane}`;
  const children: Tree[] = [];
  const flatten = (n: Tree): void => {
    if (n.type === "split" && n.direction === node.direction) {
      flatten(n.first);
      flatten(n.second);
    } else children.push(n);
  };
  flatten(node);
  let cx = x;
  let cy = y;
  const parts = children.map((c) => {
    const s = layoutString(c, cx, cy, size);
    const d = place(c, cx, cy, size);
    if (node.direction === "right") cx += d.w + 1;
    else cy += d.h + 1;
    return s;
  });
  return node.direction === "right" ? `${head}{${parts.join(",")}}` : `${head}[${parts.join(",")}]`;
}

function checksum(s: string): number {
  let csum = 0;
  for (let i = 0; i < s.length; i++) {
    csum = ((csum >> 1) + ((csum & 1) << 15)) & 0xffff;
    csum = (csum + s.charCodeAt(i)) & 0xffff;
  }
  return csum;
}

/** Per-pane details pane_list does not carry (cursor, history), fetched only when a format asks. */
export interface PaneExtra {
  cursor: { x: number; y: number };
  scrollback: number;
}

export async function paneExtras(sock: string, ids: number[]): Promise<Map<number, PaneExtra>> {
  const out = new Map<number, PaneExtra>();
  await Promise.all(
    ids.map(async (id) => {
      try {
        const r = await call(sock, "pane_info", { pane: id });
        const info = r as EntryReply<typeof pane_info>;
        out.set(id, { cursor: info.cursor ?? { x: 0, y: 0 }, scrollback: info.scrollback ?? 0 });
      } catch {}
    }),
  );
  return out;
}

/** The terminal a pane's program runs on, or "". */
const ttyOf = processTerminalSync;

export interface FormatContext {
  session?: TSession;
  window?: TWindow;
  pane?: TPane;
  extras?: Map<number, PaneExtra>;
  sock: string;
  serverPid?: number;
  world: World;
}

const flag = (b: boolean) => (b ? "1" : "0");
const basename = (p: string) => p.replace(/\/+$/, "").split("/").pop() ?? "";

/** The attached client's TERM and terminal version, from a snapshot's `client`. */
function clientOf(c: unknown): { term: string; version: string } {
  const o = (c ?? {}) as { term?: unknown; version?: unknown };
  return { term: String(o.term ?? ""), version: String(o.version ?? "") };
}

/** The variables of a format, for one session, window and pane. */
export function variables(ctx: FormatContext): (name: string) => string | undefined {
  const { pane, world } = ctx;
  const window = ctx.window ?? pane?.window;
  const session = ctx.session ?? window?.session;
  const host = hostname();
  return (name) => {
    switch (name) {
      case "host": return host;
      case "host_short": return host.split(".")[0];
      case "version": return TMUX_VERSION;
      case "socket_path": return ctx.sock;
      case "pid": return ctx.serverPid !== undefined ? String(ctx.serverPid) : undefined;
      // As tmux 3.3a: the terminal's XTVERSION answer (empty if it gave none), and its TERM.
      case "client_termtype": return world.client.version;
      case "client_termname": return world.client.term;
      case "client_width": return String(world.client.width);
      case "client_height": return String(world.client.height);
      case "client_session": return world.sessions.find((s) => s.current)?.name ?? "";
      case "client_control_mode": return "0"; // ws's one client is a terminal
    }
    if (session) {
      switch (name) {
        case "session_id": return `$${session.id}`;
        case "session_name": return session.name;
        case "session_windows": return String(session.windows.length);
        case "session_attached": return flag(session.current);
        case "session_format": return "1";
        case "session_grouped": return "0";
        case "session_group": return "";
      }
    }
    if (window) {
      const layout = window.layout;
      switch (name) {
        case "window_id": return `@${window.id}`;
        case "window_index": return String(window.index);
        case "window_name": return window.name;
        case "window_active": return flag(window.active);
        case "window_zoomed_flag": return flag(window.zoomed);
        case "window_layout": case "window_visible_layout": return layout;
        case "window_panes": return String(window.panes.length);
        case "window_width": return String(window.width);
        case "window_height": return String(window.height);
        case "window_flags": case "window_raw_flags": return (window.active ? "*" : "") + (window.zoomed ? "Z" : "");
        case "window_format": return "1";
        case "window_bigger": case "window_linked": case "window_marked_flag": case "window_silence_flag": case "window_activity_flag": case "window_bell_flag": return "0";
      }
    }
    if (pane) {
      const extra = ctx.extras?.get(pane.id);
      switch (name) {
        case "pane_id": return `%${pane.id}`;
        case "pane_index": return String(pane.index);
        case "pane_title": return pane.name || pane.title || host;
        case "pane_current_command": return basename(pane.command[0] ?? "");
        case "pane_current_path": return pane.cwd;
        case "pane_start_command": return tmuxArgv(pane.startCommand);
        case "pane_pid": return String(pane.pid);
        case "pane_tty": return ttyOf(pane.pid);
        case "pane_width": return String(pane.width);
        case "pane_height": return String(pane.height);
        case "pane_left": return String(pane.left);
        case "pane_top": return String(pane.top);
        case "pane_right": return String(pane.left + pane.width - 1);
        case "pane_bottom": return String(pane.top + pane.height - 1);
        case "pane_at_left": return flag(pane.left === 0);
        case "pane_at_top": return flag(pane.top === 0);
        case "pane_at_right": return flag(pane.left + pane.width >= pane.window.width);
        case "pane_at_bottom": return flag(pane.top + pane.height >= pane.window.height);
        case "pane_active": return flag(pane.active);
        case "pane_dead": return flag(pane.dead);
        case "pane_dead_status": return pane.dead && pane.exitCode !== null ? String(pane.exitCode) : "";
        case "pane_format": return "1";
        case "pane_in_mode": case "pane_synchronized": case "pane_marked": case "pane_marked_set": case "pane_input_off": case "pane_pipe": case "pane_last": case "alternate_on": return "0";
        case "pane_mode": return "";
        case "history_size": return extra ? String(extra.scrollback) : "0";
        case "history_limit": return "2000";
        case "cursor_x": return extra ? String(extra.cursor.x) : "0";
        case "cursor_y": return extra ? String(extra.cursor.y) : "0";
      }
    }
    return undefined;
  };
}

/** Whether a format needs pane_info's details (cursor, history). */
export const needsExtras = (format: string) => /cursor_|history_size/.test(format);

export const TMUX_VERSION = "3.3a";
