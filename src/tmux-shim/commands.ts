// tmux's commands (tmux 3.3 names, aliases and flags) carried out on ws panes. Every name tmux has
// is listed, so prefixes resolve (and are ambiguous) as in tmux; one the shim does not carry out
// fails with exit 1, never a silent 0 (a tool would wait for a result that never comes).
import { call, ShimError, loadWorld, paneExtras, needsExtras, variables, type TPane, type TWindow, type World, type FormatContext } from "./world";
import { expand, isTrue } from "./format";
import { getopt, has, val, type Parsed } from "./getopt";
import { resolvePane, resolveSession, resolveWindow, currentPane, type Here } from "./target";
import { ShimState } from "./state";
import { deleteBuffer, listBuffers, loadBuffer, pasteBuffer, setBuffer, showBuffer } from "./buffers";
import * as os from "node:os";
import { existsSync } from "node:fs";
import { popupStatus } from "../popup-status";
import { parseCommands } from "./parse";
import { wrapCommand } from "./pane-command";

export interface Ctx {
  sock: string;
  env: Record<string, string | undefined>;
  /** The calling pane's id ($TMUX_PANE). */
  paneId?: number;
  state: ShimState;
  /** Lines for stdout. */
  out: (text: string, opts?: { keepSgr?: boolean }) => void;
  /** The exit status a command sets for the whole call (display-popup: its program's). */
  status?: number;
}

type Run = (ctx: Ctx, p: Parsed, name: string) => Promise<void>;

interface Entry {
  name: string;
  alias?: string;
  template?: string;
  run?: Run;
}

// ---- shared pieces -------------------------------------------------------------------------

async function world(ctx: Ctx): Promise<{ world: World; here: Here }> {
  const w = await loadWorld(ctx.sock);
  return { world: w, here: { pane: ctx.paneId !== undefined ? w.panes.get(ctx.paneId) : undefined } };
}

async function format(ctx: Ctx, w: World, fmt: string, items: Omit<FormatContext, "sock" | "world" | "extras">[]): Promise<string[]> {
  const extras = needsExtras(fmt) ? await paneExtras(ctx.sock, items.flatMap((i) => (i.pane ? [i.pane.id] : []))) : undefined;
  return items.map((i) => expand(fmt, variables({ ...i, sock: ctx.sock, world: w, extras })));
}

const VAR_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** The environment of a pane the shim starts: tmux's (TMUX, this PATH with the shim's tmux) and -e's. */
function paneEnv(ctx: Ctx, p: Parsed): Record<string, string> {
  const env: Record<string, string> = {};
  if (ctx.env.TMUX) env.TMUX = ctx.env.TMUX;
  if (ctx.env.PATH) env.PATH = ctx.env.PATH;
  for (const e of p.flags.get("e") ?? []) {
    const eq = e.indexOf("=");
    const name = eq < 0 ? e : e.slice(0, eq);
    if (!VAR_NAME.test(name)) throw new ShimError(`invalid environment variable: ${e}`);
    if (eq >= 0) env[name] = e.slice(eq + 1);
  }
  return env;
}

/** The argv ws runs for a tmux command: one word is a shell command line (run by default-shell),
 * several are argv (tmux's spawn.c). */
function paneArgv(ctx: Ctx, words: string[], env: Record<string, string> = {}): string[] {
  return wrapCommand(defaultShell(ctx), words, env);
}

/** The shell panes run: `set -g default-shell`, else $SHELL (what ws runs for a pane with no command). */
const defaultShell = (ctx: Ctx) => ctx.state.options()["default-shell"] || ctx.env.SHELL || "/bin/sh";

/** -c DIR, a format; default the caller's directory (a tmux command client's). */
function startDir(ctx: Ctx, w: World, p: Parsed, pane: TPane, flag = "c"): string {
  const c = val(p, flag);
  return c !== undefined ? expand(c, variables({ pane, sock: ctx.sock, world: w })) : process.cwd();
}

/** N or N% of `whole`. */
function sizeArg(s: string, whole: number): number {
  const pct = s.endsWith("%");
  const n = Number(pct ? s.slice(0, -1) : s);
  if (!Number.isInteger(n) || n < 0) throw new ShimError(`size invalid: ${s}`);
  return pct ? Math.floor((whole * n) / 100) : n;
}

async function printNew(ctx: Ctx, p: Parsed, paneId: number, fallback: string): Promise<void> {
  if (!has(p, "P")) return;
  const { world: w } = await world(ctx);
  const pane = w.panes.get(paneId);
  if (!pane) throw new ShimError(`can't find pane: %${paneId}`);
  ctx.out((await format(ctx, w, val(p, "F") ?? fallback, [{ pane }]))[0]!);
}

// ---- geometry: neighbours and borders ------------------------------------------------------

type Dir = "L" | "R" | "U" | "D";

/** The pane beside `p` in a direction, wrapping round at the window's edge as tmux does. */
function neighbour(p: TPane, dir: Dir): TPane | undefined {
  const w = p.window;
  const overlapsV = (q: TPane) => q.top <= p.top + p.height - 1 && q.top + q.height - 1 >= p.top;
  const overlapsH = (q: TPane) => q.left <= p.left + p.width - 1 && q.left + q.width - 1 >= p.left;
  const others = w.panes.filter((q) => q !== p);
  const pick = (cands: TPane[], onLine: (q: TPane) => boolean) => cands.find(onLine) ?? cands[0];
  let edge: (q: TPane) => boolean;
  let wrapEdge: (q: TPane) => boolean;
  if (dir === "L") {
    edge = (q) => q.left + q.width + 1 === p.left && overlapsV(q);
    wrapEdge = (q) => q.left + q.width >= w.width && overlapsV(q);
  } else if (dir === "R") {
    edge = (q) => p.left + p.width + 1 === q.left && overlapsV(q);
    wrapEdge = (q) => q.left === 0 && overlapsV(q);
  } else if (dir === "U") {
    edge = (q) => q.top + q.height + 1 === p.top && overlapsH(q);
    wrapEdge = (q) => q.top + q.height >= w.height && overlapsH(q);
  } else {
    edge = (q) => p.top + p.height + 1 === q.top && overlapsH(q);
    wrapEdge = (q) => q.top === 0 && overlapsH(q);
  }
  const vertical = dir === "L" || dir === "R";
  const onLine = (q: TPane) => (vertical ? q.top <= p.top && p.top <= q.top + q.height - 1 : q.left <= p.left && p.left <= q.left + q.width - 1);
  const direct = others.filter(edge);
  if (direct.length) return pick(direct, onLine);
  const wrapped = others.filter(wrapEdge);
  return wrapped.length ? pick(wrapped, onLine) : undefined;
}

/** Grow (`delta` > 0) or shrink a pane along an axis: ws grows a pane, so shrinking grows its neighbour. */
async function growBy(ctx: Ctx, p: TPane, axis: "x" | "y", delta: number): Promise<void> {
  if (delta === 0) return;
  const direction = axis === "x" ? "right" : "down";
  if (delta > 0) {
    await call(ctx.sock, "pane_resize", { pane: p.id, direction, cells: delta });
    return;
  }
  const atEnd = axis === "x" ? p.left + p.width >= p.window.width : p.top + p.height >= p.window.height;
  const other = neighbour(p, axis === "x" ? (atEnd ? "L" : "R") : atEnd ? "U" : "D");
  if (other && other !== p) await call(ctx.sock, "pane_resize", { pane: other.id, direction, cells: -delta });
}

// ---- the commands --------------------------------------------------------------------------

const DEFAULT_PANE_FORMAT = "#{pane_index}: [#{pane_width}x#{pane_height}] [history #{history_size}/#{history_limit}] #{pane_id}#{?pane_active, (active),}#{?pane_dead, (dead),}";

const listPanes: Run = async (ctx, p) => {
  const { world: w, here } = await world(ctx);
  let windows: TWindow[];
  let prefix = "";
  if (has(p, "a")) {
    windows = w.sessions.flatMap((s) => s.windows);
    prefix = "#{session_name}:#{window_index}.";
  } else if (has(p, "s")) {
    windows = resolveSession(w, val(p, "t"), here).windows;
    prefix = "#{window_index}.";
  } else windows = [resolveWindow(w, val(p, "t"), here)];
  const panes = windows.flatMap((x) => x.panes);
  await printList(ctx, w, p, val(p, "F") ?? prefix + DEFAULT_PANE_FORMAT, panes.map((pane) => ({ pane })));
};

async function printList(ctx: Ctx, w: World, p: Parsed, fmt: string, items: Omit<FormatContext, "sock" | "world" | "extras">[]): Promise<void> {
  const filter = val(p, "f");
  let chosen = items;
  if (filter !== undefined) {
    const keep = await format(ctx, w, filter, items);
    chosen = items.filter((_, i) => isTrue(keep[i]!));
  }
  for (const line of await format(ctx, w, fmt, chosen)) ctx.out(line);
}

const listWindows: Run = async (ctx, p) => {
  const { world: w, here } = await world(ctx);
  const windows = has(p, "a") ? w.sessions.flatMap((s) => s.windows) : resolveSession(w, val(p, "t"), here).windows;
  const fmt = (has(p, "a") ? "#{session_name}:" : "") + "#{window_index}: #{window_name}#{window_flags} (#{window_panes} panes) [#{window_width}x#{window_height}] [layout #{window_layout}] #{window_id}#{?window_active, (active),}";
  await printList(ctx, w, p, val(p, "F") ?? fmt, windows.map((window) => ({ window, pane: window.panes.find((x) => x.active) })));
};

const listSessions: Run = async (ctx, p) => {
  const { world: w } = await world(ctx);
  const fmt = "#{session_name}: #{session_windows} windows#{?session_attached, (attached),}";
  await printList(ctx, w, p, val(p, "F") ?? fmt, w.sessions.map((session) => ({ session })));
};

const hasSession: Run = async (ctx, p) => {
  const { world: w, here } = await world(ctx);
  resolveSession(w, val(p, "t"), here);
};

const displayMessage: Run = async (ctx, p) => {
  const { world: w, here } = await world(ctx);
  // As in tmux, a target that is not there is no error here: the format then has no pane (a
  // gone %N gives an empty #{pane_id}).
  let pane: TPane | undefined;
  try {
    // No target: the pane active on the screen (the attached client's), not the caller's, as
    // tmux 3.3 answers display-message from inside another pane.
    pane = resolvePane(w, val(p, "t"), val(p, "t") === undefined ? {} : here);
  } catch (e) {
    if (!(e instanceof ShimError)) throw e;
  }
  if (has(p, "a")) {
    const vars = variables({ pane, sock: ctx.sock, world: w });
    for (const name of ALL_VARIABLES) ctx.out(`${name}=${vars(name) ?? ""}`);
    return;
  }
  const fmt = val(p, "F") ?? p.args[0] ?? "[#{session_name}] #{window_index}:#{window_name}, current pane #{pane_index} - (%H:%M %d-%b-%y)";
  const text = (await format(ctx, w, fmt, [pane ? { pane } : {}]))[0]!;
  if (has(p, "p")) ctx.out(text);
  else if (text !== "") await call(ctx.sock, "notify", { title: text.slice(0, 256), ...(pane ? { pane: pane.id } : {}) });
};

const ALL_VARIABLES = [
  "client_termtype", "cursor_x", "cursor_y", "history_limit", "history_size", "host", "host_short", "pane_active", "pane_at_bottom", "pane_at_left", "pane_at_right", "pane_at_top",
  "pane_bottom", "pane_current_command", "pane_current_path", "pane_dead", "pane_height", "pane_id", "pane_index", "pane_left", "pane_pid", "pane_right", "pane_start_command",
  "pane_title", "pane_top", "pane_tty", "pane_width", "session_id", "session_name", "session_windows", "socket_path", "version", "window_active", "window_flags", "window_height",
  "window_id", "window_index", "window_layout", "window_name", "window_panes", "window_width", "window_zoomed_flag",
];

const splitWindow: Run = async (ctx, p) => {
  const { world: w, here } = await world(ctx);
  const target = resolvePane(w, val(p, "t"), here);
  const right = has(p, "h");
  const whole = has(p, "f") ? (right ? target.window.width : target.window.height) : right ? target.width : target.height;
  let size: number | undefined;
  if (val(p, "l") !== undefined) size = sizeArg(val(p, "l")!, whole);
  else if (val(p, "p") !== undefined) size = sizeArg(`${val(p, "p")}%`, whole);
  const before = has(p, "b");
  // ws puts the new pane after; for -b it swaps places with its neighbour, whose size it then has.
  if (before && size !== undefined) size = Math.max(1, whole - size - 1);
  if (size !== undefined) size = Math.max(1, size);
  const keep = ctx.state.options()["remain-on-exit"] === "on";
  const reply = await call(ctx.sock, "split", {
    pane: target.id,
    right,
    cwd: startDir(ctx, w, p, target),
    command: paneArgv(ctx, p.args),
    focus: !has(p, "d"),
    ...(size !== undefined ? { size } : {}),
    ...(keep ? { keep } : {}),
    env: paneEnv(ctx, p),
  });
  const id = Number(reply.pane);
  if (before) await call(ctx.sock, "pane_swap", { pane: id, with: target.id });
  await printNew(ctx, p, id, "#{session_name}:#{window_index}.#{pane_index}");
};

const newWindow: Run = async (ctx, p) => {
  const { world: w, here } = await world(ctx);
  const t = val(p, "t");
  const session = resolveSession(w, t, here);
  const pane = currentPane(w, here);
  const reply = await call(ctx.sock, "tab_new", {
    workspace: session.name,
    ...(val(p, "n") ? { name: val(p, "n") } : {}),
    cwd: startDir(ctx, w, p, pane),
    command: paneArgv(ctx, p.args),
    focus: !has(p, "d"),
    env: paneEnv(ctx, p),
  });
  await printNew(ctx, p, Number(reply.pane), "#{session_name}:#{window_index}");
};

const newSession: Run = async (ctx, p) => {
  const { world: w, here } = await world(ctx);
  let name = val(p, "s");
  if (name === undefined) for (let n = 0; ; n++) if (!w.sessions.some((s) => s.name === String(n))) { name = String(n); break; }
  if (w.sessions.some((s) => s.name === name)) {
    if (has(p, "A")) return;
    throw new ShimError(`duplicate session: ${name}`);
  }
  await call(ctx.sock, "workspace_new", { name });
  const { world: after } = await world(ctx);
  const session = after.sessions.find((s) => s.name === name);
  const pane = session?.windows[0]?.panes[0];
  if (!pane) throw new ShimError(`can't find session: ${name}`);
  // workspace_new starts a shell: start instead what tmux would, in this environment.
  await call(ctx.sock, "pane_respawn", { pane: pane.id, command: paneArgv(ctx, p.args, paneEnv(ctx, p)), cwd: startDir(ctx, after, p, currentPane(after, here)) });
  if (val(p, "n")) await call(ctx.sock, "tab_rename", { workspace: name, tab: "1", to: val(p, "n") });
  if (!has(p, "d")) await call(ctx.sock, "workspace_focus", { name });
  await printNew(ctx, p, pane.id, "#{session_name}:");
};

const respawnPane: Run = async (ctx, p) => {
  const { world: w, here } = await world(ctx);
  const pane = resolvePane(w, val(p, "t"), here);
  if (!has(p, "k") && !pane.dead) throw new ShimError(`respawn pane failed: pane %${pane.id} still active`);
  const env = paneEnv(ctx, p);
  await call(ctx.sock, "pane_respawn", {
    pane: pane.id,
    ...(p.args.length || p.flags.has("e") ? { command: paneArgv(ctx, p.args.length ? p.args : pane.startCommand, env) } : {}),
    ...(val(p, "c") !== undefined ? { cwd: startDir(ctx, w, p, pane) } : {}),
  });
};

/** Bytes given in hex (send-keys -H), as the text they spell. */
function hexText(words: string[]): string {
  const bytes = words.map((h) => {
    const n = parseInt(h, 16);
    if (!/^[0-9a-fA-F]{1,2}$/.test(h)) throw new ShimError(`invalid key: ${h}`);
    return n;
  });
  return new TextDecoder().decode(new Uint8Array(bytes));
}

const KEYS_PER_CALL = 10000;
/** What one send-keys may press in all (`-N` times its keys): far past any tool's use, and the
 * pane's input queue (4 MiB) drops the rest of a flood anyway. docs/tmux-shim.md#limits. */
const MAX_REPEATED_KEYS = 1_000_000;

const sendKeys: Run = async (ctx, p) => {
  const { world: w, here } = await world(ctx);
  const pane = resolvePane(w, val(p, "t"), here);
  if (has(p, "X")) return; // copy-mode commands: ws panes have no copy mode, so there is nothing to cancel
  if (!p.args.length) return;
  const repeat = val(p, "N") !== undefined ? Number(val(p, "N")) : 1;
  if (!Number.isInteger(repeat) || repeat < 1) throw new ShimError(`repeat count ${val(p, "N")} invalid`);
  const literal = has(p, "l") || has(p, "H");
  const one = has(p, "H") ? [hexText(p.args)] : p.args;
  const total = repeat * one.length;
  if (total > MAX_REPEATED_KEYS) throw new ShimError(`repeat count ${repeat} too large: ${total} keys (at most ${MAX_REPEATED_KEYS} a send-keys)`);
  // Each request's keys made as it goes, so memory holds one request's worth, whatever -N says.
  for (let sent = 0; sent < total; ) {
    const keys: string[] = [];
    for (; keys.length < KEYS_PER_CALL && sent < total; sent++) keys.push(one[sent % one.length]!);
    await call(ctx.sock, "pane_send_keys", { pane: pane.id, keys, literal });
  }
};

/** capture-pane's -S/-E: a line number (0 = the screen's top, negative = history) or `-`. */
function lineArg(s: string | undefined, dflt: number, dash: number, lo: number, hi: number): number {
  if (s === undefined) return dflt;
  if (s === "-") return dash;
  const n = Number(s);
  if (!Number.isInteger(n)) throw new ShimError(`invalid line: ${s}`);
  return Math.min(hi, Math.max(lo, n));
}

const capturePane: Run = async (ctx, p) => {
  const { world: w, here } = await world(ctx);
  const pane = resolvePane(w, val(p, "t"), here);
  const info = await call(ctx.sock, "pane_info", { pane: pane.id });
  const history = Number(info.scrollback ?? 0);
  const rows = Number(info.rows ?? pane.height);
  let top = lineArg(val(p, "S"), 0, -history, -history, rows - 1);
  let bottom = lineArg(val(p, "E"), rows - 1, rows - 1, -history, rows - 1);
  if (top > bottom) [top, bottom] = [bottom, top];
  const read = await call(ctx.sock, "pane_read", {
    pane: pane.id,
    source: has(p, "J") ? "recent-unwrapped" : "recent",
    start: top + history + 1,
    end: bottom + history + 1,
    styled: has(p, "e"),
  });
  const text = String(read.text ?? "");
  const lines = text === "" ? [] : text.split("\n");
  // ws leaves out trailing blank lines; tmux gives every line of the range.
  if (!has(p, "J")) while (lines.length < bottom - top + 1) lines.push("");
  const out = lines.map((l) => (has(p, "N") ? l : l.replace(/ +$/, ""))).join("\n");
  if (has(p, "p")) ctx.out(out, { keepSgr: has(p, "e") });
  else ctx.state.putBuffer(val(p, "b"), out + "\n");
};

const killPane: Run = async (ctx, p) => {
  const { world: w, here } = await world(ctx);
  const pane = resolvePane(w, val(p, "t"), here);
  if (has(p, "a")) {
    for (const other of pane.window.panes) if (other !== pane) await call(ctx.sock, "pane_close", { pane: other.id });
    return;
  }
  await call(ctx.sock, "pane_close", { pane: pane.id });
};

const killWindow: Run = async (ctx, p) => {
  const { world: w, here } = await world(ctx);
  const window = resolveWindow(w, val(p, "t"), here);
  const doomed = has(p, "a") ? window.session.windows.filter((x) => x !== window) : [window];
  // By a pane inside: a tab's number shifts as tabs before it close, its panes' ids do not.
  for (const x of doomed) for (const pane of x.panes) await call(ctx.sock, "pane_close", { pane: pane.id });
};

const killSession: Run = async (ctx, p) => {
  const { world: w, here } = await world(ctx);
  const session = resolveSession(w, val(p, "t"), here);
  await call(ctx.sock, "workspace_close", { name: session.name });
};

const selectPane: Run = async (ctx, p) => {
  const { world: w, here } = await world(ctx);
  let pane = resolvePane(w, val(p, "t"), here);
  if (val(p, "T") !== undefined) {
    await call(ctx.sock, "pane_rename", { pane: pane.id, name: val(p, "T") });
    return;
  }
  // Styles, marks, input on/off and the last pane: accepted, nothing to do in ws.
  if (has(p, "P") || has(p, "M") || has(p, "m") || has(p, "d") || has(p, "e") || has(p, "g") || has(p, "l")) return;
  for (const d of ["L", "R", "U", "D"] as const) {
    if (!has(p, d)) continue;
    if (pane.window.zoomed && !has(p, "Z")) await call(ctx.sock, "pane_zoom", { pane: pane.id, mode: "off" });
    const next = neighbour(pane, d);
    if (!next) return;
    pane = next;
  }
  await call(ctx.sock, "pane_focus", { pane: pane.id });
};

const selectWindow: Run = async (ctx, p) => {
  const { world: w, here } = await world(ctx);
  let window = resolveWindow(w, val(p, "t"), here);
  const list = window.session.windows;
  if (has(p, "n")) window = list[(window.index + 1) % list.length]!;
  else if (has(p, "p")) window = list[(window.index - 1 + list.length) % list.length]!;
  const pane = window.panes.find((x) => x.active) ?? window.panes[0]!;
  await call(ctx.sock, "pane_focus", { pane: pane.id });
};

const resizePane: Run = async (ctx, p) => {
  const { world: w, here } = await world(ctx);
  const pane = resolvePane(w, val(p, "t"), here);
  if (has(p, "Z")) {
    await call(ctx.sock, "pane_zoom", { pane: pane.id, mode: "toggle" });
    return;
  }
  if (has(p, "M") || has(p, "T")) return;
  if (val(p, "x") !== undefined) await growBy(ctx, pane, "x", sizeArg(val(p, "x")!, pane.window.width) - pane.width);
  if (val(p, "y") !== undefined) await growBy(ctx, pane, "y", sizeArg(val(p, "y")!, pane.window.height) - pane.height);
  const n = p.args[0] !== undefined ? Number(p.args[0]) : 1;
  if (!Number.isInteger(n) || n < 1) throw new ShimError("adjustment invalid");
  // tmux moves a border: -R on a pane with a neighbour to its right grows it, on the rightmost shrinks it.
  const atRight = pane.left + pane.width >= pane.window.width;
  const atBottom = pane.top + pane.height >= pane.window.height;
  if (has(p, "R")) await growBy(ctx, pane, "x", atRight ? -n : n);
  if (has(p, "L")) await growBy(ctx, pane, "x", atRight ? n : -n);
  if (has(p, "D")) await growBy(ctx, pane, "y", atBottom ? -n : n);
  if (has(p, "U")) await growBy(ctx, pane, "y", atBottom ? n : -n);
};

const swapPane: Run = async (ctx, p) => {
  const { world: w, here } = await world(ctx);
  let dst = resolvePane(w, val(p, "t"), here);
  let src = val(p, "s") !== undefined ? resolvePane(w, val(p, "s"), here) : currentPane(w, here);
  if (has(p, "D") || has(p, "U")) {
    src = dst;
    const list = src.window.panes;
    dst = list[(src.index + (has(p, "D") ? 1 : list.length - 1)) % list.length]!;
  }
  if (src === dst) return;
  await call(ctx.sock, "pane_swap", { pane: src.id, with: dst.id });
};

const breakPane: Run = async (ctx, p) => {
  const { world: w, here } = await world(ctx);
  const pane = resolvePane(w, val(p, "s"), here);
  const session = val(p, "t") !== undefined ? resolveSession(w, val(p, "t"), here) : pane.window.session;
  await call(ctx.sock, "pane_move", { pane: pane.id, workspace: session.name, ...(val(p, "n") ? { name: val(p, "n") } : {}), focus: !has(p, "d") });
  await printNew(ctx, p, pane.id, "#{session_name}:#{window_index}.#{pane_index}");
};

/** join-pane / move-pane: the source pane beside the target, same id, its program running. */
const joinPane: Run = async (ctx, p) => {
  const { world: w, here } = await world(ctx);
  const src = resolvePane(w, val(p, "s"), here);
  const dst = resolvePane(w, val(p, "t"), here);
  if (src === dst) throw new ShimError("source and target panes must be different");
  const right = has(p, "h");
  const size = val(p, "l") !== undefined ? Math.max(1, sizeArg(val(p, "l")!, right ? dst.width : dst.height)) : undefined;
  await call(ctx.sock, "pane_move", { pane: src.id, beside: dst.id, right, ...(size !== undefined ? { size } : {}), focus: !has(p, "d") });
  if (has(p, "b")) await call(ctx.sock, "pane_swap", { pane: src.id, with: dst.id });
};

/** tmux's preset layouts, in its order (a name may be a unique prefix, as in tmux). */
const LAYOUTS = ["even-horizontal", "even-vertical", "main-horizontal", "main-vertical", "tiled"];

const selectLayout: Run = async (ctx, p) => {
  const { world: w, here } = await world(ctx);
  const window = resolveWindow(w, val(p, "t"), here);
  const name = p.args[0];
  // Cycling (-n, -p), undo (-o), spreading (-E) and re-applying the last layout: ws keeps no
  // layout history, so these succeed with nothing changed.
  if (name === undefined || has(p, "n") || has(p, "p") || has(p, "E") || has(p, "o")) return;
  const matches = LAYOUTS.filter((l) => l.startsWith(name));
  if (matches.length === 1) {
    const options = ctx.state.options();
    const main = (option: string) => (/^\d+$/.test(options[option] ?? "") ? Number(options[option]) : undefined);
    const width = main("main-pane-width");
    const height = main("main-pane-height");
    await call(ctx.sock, "layout_select", { tab: window.id, layout: matches[0], ...(width ? { main_width: width } : {}), ...(height ? { main_height: height } : {}) });
    return;
  }
  // A layout string (#{window_layout}): ws can't lay out an arbitrary tmux tree; accepted as is.
  if (/^[0-9a-f]{4},\d+x\d+,\d+,\d+/.test(name)) return;
  throw new ShimError(`invalid layout: ${name}`);
};

const renameWindow: Run = async (ctx, p) => {
  const { world: w, here } = await world(ctx);
  const window = resolveWindow(w, val(p, "t"), here);
  await call(ctx.sock, "tab_rename", { workspace: window.session.name, tab: String(window.index + 1), to: p.args[0] ?? "" });
};

const renameSession: Run = async (ctx, p) => {
  const { world: w, here } = await world(ctx);
  const session = resolveSession(w, val(p, "t"), here);
  await call(ctx.sock, "workspace_rename", { name: session.name, to: p.args[0] ?? "" });
};

// ---- options -------------------------------------------------------------------------------

/** tmux 3.3's defaults for the options tools ask about. */
const OPTION_DEFAULTS: Record<string, string> = {
  "aggressive-resize": "off", "allow-passthrough": "off", "allow-rename": "off", "automatic-rename": "on", "base-index": "0", "default-shell": "/bin/sh",
  "default-terminal": "screen", "escape-time": "500", "exit-empty": "on", "extended-keys": "off", "focus-events": "off", "history-limit": "2000",
  "main-pane-height": "24", "main-pane-width": "80", "mode-keys": "emacs", "monitor-activity": "off", mouse: "off", "pane-base-index": "0",
  "pane-border-format": '#{?pane_active,#[reverse],}#{pane_index}#[default] "#{pane_title}"', "pane-border-status": "off", prefix: "C-b", "remain-on-exit": "off",
  "renumber-windows": "off", "set-clipboard": "external", "set-titles": "off", status: "on", "status-keys": "emacs", "status-position": "bottom",
  "synchronize-panes": "off", "terminal-overrides": "", "window-size": "latest",
};

const isKnownOption = (name: string) => name.startsWith("@") || name in OPTION_DEFAULTS || /^(pane|window|status|message|mode|display|clock|copy|word|visual|bell|activity|silence|lock|destroy|detach|key|repeat|set|update|user|wrap|alternate|command|cursor|editor|buffer|backspace|default|fill|popup|menu|other|prompt|scroll|monitor|automatic|allow|remain|synchronize|main|aggressive|xterm|history|terminal|focus|escape|exit|extended|base|renumber|mouse|prefix|status)/.test(name);

const setOption: Run = async (ctx, p, command) => {
  const name = p.args[0];
  if (name === undefined) throw new ShimError("invalid option: ");
  if (!isKnownOption(name)) {
    if (has(p, "q")) return;
    throw new ShimError(`invalid option: ${name}`);
  }
  if (has(p, "u") || has(p, "U")) return ctx.state.setOption(name, undefined);
  let value = p.args[1] ?? (OPTION_DEFAULTS[name] === "off" || OPTION_DEFAULTS[name] === "on" ? (ctx.state.options()[name] ?? OPTION_DEFAULTS[name]) === "on" ? "off" : "on" : "");
  if (has(p, "a")) value = (ctx.state.options()[name] ?? "") + value;
  if (has(p, "o") && ctx.state.options()[name] !== undefined) return;
  // A pane's or window's own option (-p, -w, setw without -g) is accepted and not kept: kept, it
  // would apply to every pane the shim starts after (remain-on-exit would keep them all).
  const local = (has(p, "p") || has(p, "w") || command === "set-window-option") && !has(p, "g");
  // A pane's title is its ws name.
  if (name === "@title" || name === "pane-title") {
    const { world: w, here } = await world(ctx);
    await call(ctx.sock, "pane_rename", { pane: resolvePane(w, val(p, "t"), here).id, name: value });
  }
  if (!local || name.startsWith("@")) ctx.state.setOption(name, value);
};

const showOptions: Run = async (ctx, p) => {
  const stored = ctx.state.options();
  // default-shell: the shell panes really run, as tmux's default is $SHELL.
  const all: Record<string, string> = { ...OPTION_DEFAULTS, "default-shell": defaultShell(ctx), ...stored };
  const name = p.args[0];
  if (name === undefined) {
    for (const [k, v] of Object.entries(all).sort(([a], [b]) => a.localeCompare(b))) ctx.out(has(p, "v") ? v : `${k} ${quoteOption(v)}`);
    return;
  }
  const value = all[name];
  if (value === undefined) {
    if (has(p, "q") || (name.startsWith("@") && has(p, "v"))) return;
    throw new ShimError(`invalid option: ${name}`);
  }
  ctx.out(has(p, "v") ? value : `${name} ${quoteOption(value)}`);
};

const quoteOption = (v: string) => (v === "" || /[\s"#;{}]/.test(v) ? `"${v.replace(/(["\\$])/g, "\\$1")}"` : v);

/** tmux's -x/-y for a popup of `size` cells on a `whole`-cell client: the left column (x) or the
 * bottom row (y, as tmux reads it); undefined is centred. Only numbers and C are placed. */
function popupAt(spec: string | undefined, size: number, whole: number, bottom: boolean): number | undefined {
  if (spec === undefined || !/^\d+$/.test(spec)) return undefined;
  let n = Number(spec);
  if (bottom) n = n < size ? 0 : n - size;
  return Math.max(0, Math.min(n, whole - size));
}


/** display-popup: a ws popup over the tab on screen; the call returns when it closes, with its
 * program's status (tmux's command client does). */
const displayPopup: Run = async (ctx, p) => {
  if (has(p, "C")) return; // closing another client's popup: ws has one client, whose popup closes with its program
  const { world: w, here } = await world(ctx);
  const pane = resolvePane(w, val(p, "t"), here);
  const { width: cols, height: rows } = w.client;
  const size = (flag: string, whole: number) => {
    const v = val(p, flag);
    if (v === undefined) return Math.floor(whole / 2);
    const n = sizeArg(v, whole);
    if (n < 1) throw new ShimError(`${flag === "w" ? "width" : "height"} too small`);
    return Math.min(n, whole);
  };
  const width = size("w", cols);
  const height = size("h", rows);
  const border = !has(p, "B");
  if (width < (border ? 3 : 1) || height < (border ? 3 : 1)) return; // no room for the border and a cell: tmux shows nothing
  const x = popupAt(val(p, "x"), width, cols, false);
  // tmux's rows count from the terminal's top; ws places it in the tab's area, below the tab bar.
  const top = popupAt(val(p, "y"), height, rows, true);
  const y = top !== undefined ? Math.max(0, top - 1) : undefined;
  const close = (p.flags.get("E")?.length ?? 0) > 1 ? "success" : has(p, "E") ? "exit" : "key";
  let reply;
  try {
    reply = await call(
      ctx.sock,
      "popup",
      {
        // Over what the person sees, as tmux draws it on its client; -t picks the tab.
        ...(val(p, "t") !== undefined ? { pane: pane.id } : {}),
        command: paneArgv(ctx, p.args, paneEnv(ctx, p)),
        cwd: startDir(ctx, w, p, pane, "d"),
        width: String(width),
        height: String(height),
        ...(x !== undefined ? { x } : {}),
        ...(y !== undefined ? { y } : {}),
        close,
        wait: true,
        ...(border ? {} : { border: false }),
      },
      0,
    );
  } catch (e) {
    if (e instanceof ShimError && e.code === "no_client") throw new ShimError("no current client");
    if (e instanceof ShimError && e.code === "popup_open") return; // tmux: a popup is up already, nothing to do
    throw e;
  }
  ctx.status = popupStatus(reply.exit_code, reply.signal);
};

const waitForChannel: Run = async (ctx, p) => {
  const channel = p.args[0];
  if (channel === undefined) throw new ShimError("command wait-for: too few arguments");
  const { waitFor, signal, lock, unlock } = await import("./wait-for");
  // Locks end with the server that holds them, as tmux's do: they are kept per ws server pid.
  const server = ctx.env.TMUX?.split(",")[1] ?? "0";
  if (has(p, "S")) signal(ctx.state.dir, channel);
  else if (has(p, "L")) lock(ctx.state.dir, server, channel);
  else if (has(p, "U")) unlock(ctx.state.dir, server, channel);
  else waitFor(ctx.state.dir, channel);
};

// ---- run-shell, if-shell -------------------------------------------------------------------
// The shell command is the user's own string and runs with sh -c: that is tmux's contract. It is
// a format first (#{pane_id} and the like expand), as in tmux; its stdin and stderr are /dev/null.

/** Output run-shell keeps to show (more is read and dropped). */
const RUN_OUTPUT_MAX = 1024 * 1024;

/** Run `sh -c cmd` in the caller's directory; its exit as tmux reports it, and its stdout. */
async function shellJob(ctx: Ctx, cmd: string, keepOutput: boolean): Promise<{ status: number; signal?: number; output: string }> {
  const proc = Bun.spawn(["/bin/sh", "-c", cmd], { env: ctx.env, stdin: "ignore", stdout: keepOutput ? "pipe" : "ignore", stderr: "ignore" });
  let output = "";
  if (keepOutput) {
    const decoder = new TextDecoder();
    for await (const chunk of proc.stdout as ReadableStream<Uint8Array>) if (output.length < RUN_OUTPUT_MAX) output += decoder.decode(chunk, { stream: true });
    output = output.slice(0, RUN_OUTPUT_MAX);
  }
  const code = await proc.exited;
  const signal = proc.signalCode ? (os.constants.signals as Record<string, number>)[proc.signalCode] : undefined;
  return signal !== undefined ? { status: 128 + signal, signal, output } : { status: code, output };
}

/** -b: the call returns at once and the rest runs on, as tmux's server would run it: the same
 * command again, without -b, in a process of its own (the shim's `tmux`; false without one). */
function inBackground(ctx: Ctx, command: string, p: Parsed): boolean {
  if (!existsSync(`${ctx.state.dir}/tmux`)) return false;
  const words: string[] = [command];
  for (const [f, values] of p.flags) if (f !== "b") for (const v of values) words.push(`-${f}`, ...(v === "" ? [] : [v]));
  const setsid = Bun.which("setsid");
  const argv = [`${ctx.state.dir}/tmux`, ...words, "--", ...p.args];
  Bun.spawn(setsid ? [setsid, ...argv] : argv, { env: ctx.env, stdin: "ignore", stdout: "ignore", stderr: "ignore" }).unref();
  return true;
}

/** Expand a format against -t's pane (or the caller's; none is fine). */
async function expandFor(ctx: Ctx, p: Parsed, text: string): Promise<string> {
  const { world: w, here } = await world(ctx);
  let pane: TPane | undefined;
  try {
    // No target: the pane active on the screen (the attached client's), not the caller's, as
    // tmux 3.3 answers display-message from inside another pane.
    pane = resolvePane(w, val(p, "t"), val(p, "t") === undefined ? {} : here);
  } catch (e) {
    if (!(e instanceof ShimError) || val(p, "t") !== undefined) throw e;
  }
  return (await format(ctx, w, text, [pane ? { pane } : {}]))[0]!;
}

async function runCommands(ctx: Ctx, text: string): Promise<void> {
  for (const words of parseCommands(text, ctx.env)) await runCommand(ctx, words);
}

/** run-shell's output where the person sees it: tmux puts it in the pane's view mode; ws in a
 * popup over the tab, closed with Esc or C-c. With no terminal attached it goes nowhere, as in
 * tmux with no pane to show it. */
async function showOutput(ctx: Ctx, text: string): Promise<void> {
  try {
    await call(ctx.sock, "popup", { command: ["printf", "%s", text], width: "100%", height: "100%", close: "key" });
  } catch (e) {
    if (!(e instanceof ShimError) || (e.code !== "no_client" && e.code !== "popup_open")) throw e;
  }
}

const runShell: Run = async (ctx, p, name) => {
  const delay = val(p, "d");
  if (delay !== undefined && !/^\d*\.?\d+$/.test(delay)) throw new ShimError(`invalid delay time: ${delay}`);
  if (delay === undefined && !p.args.length) return;
  if (has(p, "b") && inBackground(ctx, name, p)) return;
  if (delay !== undefined) await Bun.sleep(Number(delay) * 1000);
  const arg = p.args[0];
  if (arg === undefined) return;
  if (has(p, "C")) return runCommands(ctx, arg);
  const cmd = await expandFor(ctx, p, arg);
  const job = await shellJob(ctx, cmd, true);
  let text = job.output;
  if (job.signal !== undefined) text += `${text && !text.endsWith("\n") ? "\n" : ""}'${cmd}' terminated by signal ${job.signal}\n`;
  else if (job.status !== 0) text += `${text && !text.endsWith("\n") ? "\n" : ""}'${cmd}' returned ${job.status}\n`;
  if (text) await showOutput(ctx, text);
  ctx.status = job.status;
};

const ifShell: Run = async (ctx, p, name) => {
  if (p.args.length < 2) throw new ShimError(`command ${name}: too few arguments (need at least 2)`);
  if (p.args.length > 3) throw new ShimError(`command ${name}: too many arguments (need at most 3)`);
  const [cond, then, otherwise] = p.args as [string, string, string | undefined];
  if (has(p, "F")) {
    const value = await expandFor(ctx, p, cond);
    const chosen = value !== "" && !value.startsWith("0") ? then : otherwise;
    if (chosen !== undefined) await runCommands(ctx, chosen);
    return;
  }
  if (has(p, "b") && inBackground(ctx, name, p)) return;
  const job = await shellJob(ctx, await expandFor(ctx, p, cond), false);
  const chosen = job.status === 0 && job.signal === undefined ? then : otherwise;
  if (chosen !== undefined) await runCommands(ctx, chosen);
};

/** Accepted, with nothing to do in ws (no key table, hooks, config files or clients to refresh). */
const nothing: Run = async () => {};

// ---- the table -----------------------------------------------------------------------------

const T = (name: string, alias: string | undefined, template?: string, run?: Run): Entry => ({ name, ...(alias ? { alias } : {}), ...(template !== undefined ? { template } : {}), ...(run ? { run } : {}) });

/** tmux 3.3's cmd_table, in its order (prefix resolution depends on it). */
export const COMMANDS: Entry[] = [
  T("attach-session", "attach"),
  T("bind-key", "bind", "nrN:T:", nothing),
  T("break-pane", "breakp", "abdPF:n:s:t:", breakPane),
  T("capture-pane", "capturep", "ab:CeE:JNpPqS:t:", capturePane),
  T("choose-buffer", undefined),
  T("choose-client", undefined),
  T("choose-tree", undefined),
  T("clear-history", "clearhist"),
  T("clear-prompt-history", "clearphist"),
  T("clock-mode", undefined),
  T("command-prompt", undefined),
  T("confirm-before", "confirm"),
  T("copy-mode", undefined),
  T("customize-mode", undefined),
  T("delete-buffer", "deleteb", "b:", deleteBuffer),
  T("detach-client", "detach"),
  T("display-menu", "menu"),
  T("display-message", "display", "aCc:d:lINpt:F:v", displayMessage),
  T("display-popup", "popup", "Bb:Cc:d:e:Eh:s:S:t:T:w:x:y:", displayPopup),
  T("display-panes", "displayp"),
  T("find-window", "findw"),
  T("has-session", "has", "t:", hasSession),
  T("if-shell", "if", "bFt:", ifShell),
  T("join-pane", "joinp", "bdfhvp:l:s:t:", joinPane),
  T("kill-pane", "killp", "at:", killPane),
  T("kill-server", undefined),
  T("kill-session", undefined, "aCt:", killSession),
  T("kill-window", "killw", "at:", killWindow),
  T("last-pane", "lastp"),
  T("last-window", "last"),
  T("link-window", "linkw"),
  T("list-buffers", "lsb", "F:f:", listBuffers),
  T("list-clients", "lsc"),
  T("list-commands", "lscm"),
  T("list-keys", "lsk"),
  T("list-panes", "lsp", "aF:f:st:", listPanes),
  T("list-sessions", "ls", "F:f:", listSessions),
  T("list-windows", "lsw", "aF:f:t:", listWindows),
  T("load-buffer", "loadb", "b:t:w", loadBuffer),
  T("lock-client", "lockc"),
  T("lock-server", "lock"),
  T("lock-session", "locks"),
  T("move-pane", "movep", "bdfhvp:l:s:t:", joinPane),
  T("move-window", "movew"),
  T("new-session", "new", "Ac:dDe:EF:f:n:Ps:t:x:Xy:", newSession),
  T("new-window", "neww", "abc:de:F:kn:PSt:", newWindow),
  T("next-layout", "nextl"),
  T("next-window", "next"),
  T("paste-buffer", "pasteb", "db:prs:t:", pasteBuffer),
  T("pipe-pane", "pipep"),
  T("previous-layout", "prevl"),
  T("previous-window", "prev"),
  T("refresh-client", "refresh", "A:B:cC:Df:F:l:LRSt:U", nothing),
  T("rename-session", "rename", "t:", renameSession),
  T("rename-window", "renamew", "t:", renameWindow),
  T("resize-pane", "resizep", "DLMRTt:Ux:y:Z", resizePane),
  T("resize-window", "resizew"),
  T("respawn-pane", "respawnp", "c:e:kt:", respawnPane),
  T("respawn-window", "respawnw"),
  T("rotate-window", "rotatew"),
  T("run-shell", "run", "bd:Ct:", runShell),
  T("save-buffer", "saveb"),
  T("select-layout", "selectl", "Enopt:", selectLayout),
  T("select-pane", "selectp", "DdegLlMmP:RT:t:UZ", selectPane),
  T("select-window", "selectw", "lnpTt:", selectWindow),
  T("send-keys", "send", "c:FHKlMN:Rt:X", sendKeys),
  T("send-prefix", undefined),
  T("server-access", undefined),
  T("set-buffer", "setb", "ab:t:n:w", setBuffer),
  T("set-environment", "setenv", "Fhgrt:u", nothing),
  T("set-hook", undefined, "agpRt:uw", nothing),
  T("set-option", "set", "aFgopqst:uUw", setOption),
  T("set-window-option", "setw", "aFgoqt:u", setOption),
  T("show-buffer", "showb", "b:", showBuffer),
  T("show-environment", "showenv"),
  T("show-hooks", undefined),
  T("show-messages", "showmsgs"),
  T("show-options", "show", "AgHpqst:vw", showOptions),
  T("show-prompt-history", "showphist"),
  T("show-window-options", "showw", "gvt:", showOptions),
  T("source-file", "source", "Fnqv", nothing),
  T("split-window", "splitw", "bc:de:fF:hIl:p:Pt:vZ", splitWindow),
  T("start-server", "start", "", nothing),
  T("suspend-client", "suspendc"),
  T("swap-pane", "swapp", "dDs:t:UZ", swapPane),
  T("swap-window", "swapw"),
  T("switch-client", "switchc"),
  T("unbind-key", "unbind", "anqT:", nothing),
  T("unlink-window", "unlinkw"),
  T("wait-for", "wait", "LSU", waitForChannel),
];

/** cmd_find: an alias or a whole name, else a unique prefix of a name. */
export function findCommand(name: string): Entry {
  let found: Entry | undefined;
  let ambiguous = false;
  for (const e of COMMANDS) {
    if (e.alias === name) {
      ambiguous = false;
      found = e;
      break;
    }
    if (!e.name.startsWith(name)) continue;
    if (found) ambiguous = true;
    found = e;
    if (e.name === name) break;
  }
  if (ambiguous) {
    const could = COMMANDS.filter((e) => e.name.startsWith(name)).map((e) => e.name);
    throw new ShimError(`ambiguous command: ${name}, could be: ${could.join(", ")}`);
  }
  if (!found) throw new ShimError(`unknown command: ${name}`);
  return found;
}

/** Run one command: its words, the name first. */
export async function runCommand(ctx: Ctx, words: string[]): Promise<void> {
  const entry = findCommand(words[0]!);
  if (!entry.run) throw new ShimError(`${entry.name}: not supported by ws's tmux shim`);
  await entry.run(ctx, getopt(entry.name, entry.template ?? "", words.slice(1)), entry.name);
}

