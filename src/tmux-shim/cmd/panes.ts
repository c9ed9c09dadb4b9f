// The pane commands (tmux's cmd-split-window.c, cmd-send-keys.c, cmd-capture-pane.c, cmd-select-pane.c,
// cmd-resize-pane.c, cmd-swap-pane.c, cmd-break-pane.c, cmd-join-pane.c, cmd-kill-pane.c,
// cmd-respawn-pane.c, cmd-list-panes.c, …): each exports its entry; cmd/index.ts puts them in tmux's table.
import { call, ShimError, type TPane, type TWindow } from "../world";
import { has, val } from "../getopt";
import { resolvePane, resolveSession, resolveWindow, currentPane } from "../target";
import { entry, onInterface, paneArgv, paneEnv, printList, printNew, sizeArg, startDir, world, type Ctx, type Run } from "./helpers";

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
  const keep = (await ctx.state.options())["remain-on-exit"] === "on";
  const reply = await call(ctx.sock, "split", {
    pane: target.id,
    right,
    cwd: startDir(ctx, w, p, target),
    command: await paneArgv(ctx, p.args),
    focus: !has(p, "d"),
    ...(size !== undefined ? { size } : {}),
    ...(keep ? { keep } : {}),
    env: paneEnv(ctx, p),
  });
  const id = Number(reply.pane);
  if (before) await call(ctx.sock, "pane_swap", { pane: id, with: target.id });
  await printNew(ctx, p, id, "#{session_name}:#{window_index}.#{pane_index}");
};

const respawnPane: Run = async (ctx, p) => {
  const { world: w, here } = await world(ctx);
  const pane = resolvePane(w, val(p, "t"), here);
  if (!has(p, "k") && !pane.dead) throw new ShimError(`respawn pane failed: pane %${pane.id} still active`);
  const env = paneEnv(ctx, p);
  await call(ctx.sock, "pane_respawn", {
    pane: pane.id,
    ...(p.args.length || p.flags.has("e") ? { command: await paneArgv(ctx, p.args.length ? p.args : pane.startCommand, env) } : {}),
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
export const MAX_REPEATED_KEYS = 1_000_000;
/** The most text one send-keys may send in all (`-N` times its keys' bytes), checked before any
 * key is made: `-N 999999 -l` with a 100 KB key would otherwise build gigabytes. */
export const MAX_SENT_BYTES = 16 * 1024 * 1024;
/** The most key text (as JSON) in one request: each request's line stays inside the protocol's 1 MiB. */
const BYTES_PER_CALL = 256 * 1024;

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
  // The size first, from the keys as given (as they go in a request: JSON), so nothing is built for
  // a call that would be refused.
  const sizes = one.map((k) => Buffer.byteLength(JSON.stringify(k), "utf8"));
  const bytes = repeat * sizes.reduce((a, b) => a + b, 0);
  if (bytes > MAX_SENT_BYTES) throw new ShimError(`repeat count ${repeat} too large: ${bytes} bytes of keys (at most ${MAX_SENT_BYTES} a send-keys)`);
  const biggest = Math.max(...sizes);
  if (biggest > BYTES_PER_CALL) throw new ShimError(`a key of ${biggest} bytes is too long (at most ${BYTES_PER_CALL})`);
  // Each request's keys made as it goes, so memory holds one request's worth, whatever -N says.
  for (let sent = 0; sent < total; ) {
    const keys: string[] = [];
    let size = 0;
    for (; keys.length < KEYS_PER_CALL && sent < total; sent++) {
      const i = sent % one.length;
      if (keys.length && size + sizes[i]! > BYTES_PER_CALL) break;
      keys.push(one[i]!);
      size += sizes[i]!;
    }
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
  else await ctx.state.putBuffer(val(p, "b"), out + "\n");
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

// ---- the entries ---------------------------------------------------------------------------

export const breakPaneEntry = entry("break-pane", "breakp", "abdPF:n:s:t:", breakPane);
export const capturePaneEntry = entry("capture-pane", "capturep", "ab:CeE:JNpPqS:t:", capturePane);
export const clearHistoryEntry = entry("clear-history", "clearhist");
export const clockModeEntry = entry("clock-mode", undefined);
export const copyModeEntry = entry("copy-mode", undefined, "eHMqSs:t:u", onInterface("copy-mode"));
export const joinPaneEntry = entry("join-pane", "joinp", "bdfhvp:l:s:t:", joinPane);
export const killPaneEntry = entry("kill-pane", "killp", "at:", killPane);
export const lastPaneEntry = entry("last-pane", "lastp", "det:Z", onInterface("last-pane"));
export const listPanesEntry = entry("list-panes", "lsp", "aF:f:st:", listPanes);
export const movePaneEntry = entry("move-pane", "movep", "bdfhvp:l:s:t:", joinPane);
export const pipePaneEntry = entry("pipe-pane", "pipep");
export const resizePaneEntry = entry("resize-pane", "resizep", "DLMRTt:Ux:y:Z", resizePane);
export const respawnPaneEntry = entry("respawn-pane", "respawnp", "c:e:kt:", respawnPane);
export const selectPaneEntry = entry("select-pane", "selectp", "DdegLlMmP:RT:t:UZ", selectPane);
export const sendKeysEntry = entry("send-keys", "send", "c:FHKlMN:Rt:X", sendKeys);
export const sendPrefixEntry = entry("send-prefix", undefined);
export const splitWindowEntry = entry("split-window", "splitw", "bc:de:fF:hIl:p:Pt:vZ", splitWindow);
export const swapPaneEntry = entry("swap-pane", "swapp", "dDs:t:UZ", swapPane);
