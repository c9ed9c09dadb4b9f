// The window commands (tmux's cmd-new-window.c, cmd-list-windows.c, cmd-kill-window.c,
// cmd-select-window.c, cmd-select-layout.c, cmd-rename-window.c, …): each exports its entry;
// cmd/index.ts puts them in tmux's table.
import { call, ShimError } from "../world";
import { has, val } from "../getopt";
import { resolveSession, resolveWindow, currentPane } from "../target";
import { entry, onInterface, paneArgv, paneEnv, printList, printNew, startDir, world, type Run } from "./helpers";

const listWindows: Run = async (ctx, p) => {
  const { world: w, here } = await world(ctx);
  const windows = has(p, "a") ? w.sessions.flatMap((s) => s.windows) : resolveSession(w, val(p, "t"), here).windows;
  const fmt = (has(p, "a") ? "#{session_name}:" : "") + "#{window_index}: #{window_name}#{window_flags} (#{window_panes} panes) [#{window_width}x#{window_height}] [layout #{window_layout}] #{window_id}#{?window_active, (active),}";
  await printList(ctx, w, p, val(p, "F") ?? fmt, windows.map((window) => ({ window, pane: window.panes.find((x) => x.active) })));
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
    command: await paneArgv(ctx, p.args),
    focus: !has(p, "d"),
    env: paneEnv(ctx, p),
  });
  await printNew(ctx, p, Number(reply.pane), "#{session_name}:#{window_index}");
};

const killWindow: Run = async (ctx, p) => {
  const { world: w, here } = await world(ctx);
  const window = resolveWindow(w, val(p, "t"), here);
  const doomed = has(p, "a") ? window.session.windows.filter((x) => x !== window) : [window];
  // By a pane inside: a tab's number shifts as tabs before it close, its panes' ids do not.
  for (const x of doomed) for (const pane of x.panes) await call(ctx.sock, "pane_close", { pane: pane.id });
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
    const options = await ctx.state.options();
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
  // No name at the person's prompt: tmux asks for one.
  if (p.args[0] === undefined && ctx.ui) return ctx.ui.run("rename-tab");
  await call(ctx.sock, "tab_rename", { workspace: window.session.name, tab: String(window.index + 1), to: p.args[0] ?? "" });
};

// ---- the entries ---------------------------------------------------------------------------

export const findWindowEntry = entry("find-window", "findw");
export const killWindowEntry = entry("kill-window", "killw", "at:", killWindow);
export const lastWindowEntry = entry("last-window", "last", "t:", onInterface("last-tab"));
export const linkWindowEntry = entry("link-window", "linkw");
export const listWindowsEntry = entry("list-windows", "lsw", "aF:f:t:", listWindows);
export const moveWindowEntry = entry("move-window", "movew");
export const newWindowEntry = entry("new-window", "neww", "abc:de:F:kn:PSt:", newWindow);
export const nextLayoutEntry = entry("next-layout", "nextl", "t:", onInterface("next-layout"));
export const nextWindowEntry = entry("next-window", "next", "at:", onInterface("next-tab"));
export const previousLayoutEntry = entry("previous-layout", "prevl", "t:", onInterface("prev-layout"));
export const previousWindowEntry = entry("previous-window", "prev", "at:", onInterface("prev-tab"));
export const renameWindowEntry = entry("rename-window", "renamew", "t:", renameWindow);
export const resizeWindowEntry = entry("resize-window", "resizew");
export const respawnWindowEntry = entry("respawn-window", "respawnw");
export const rotateWindowEntry = entry("rotate-window", "rotatew");
export const selectLayoutEntry = entry("select-layout", "selectl", "Enopt:", selectLayout);
export const selectWindowEntry = entry("select-window", "selectw", "lnpTt:", selectWindow);
export const swapWindowEntry = entry("swap-window", "swapw");
export const unlinkWindowEntry = entry("unlink-window", "unlinkw");
