// What the shim shows on the person's screen (tmux's cmd-display-menu.c, cmd-display-message.c)
// and the client's modes and prompts ws has no counterpart for (cmd-choose-tree.c,
// cmd-command-prompt.c, cmd-confirm-before.c, …): each exports its entry; cmd/index.ts puts them
// in tmux's table.
import { call, ShimError, variables } from "../world";
import { has, val } from "../getopt";
import { resolvePane } from "../target";
import { popupStatus } from "../popup-status";
import { entry, onInterface, format, formatPane, paneArgv, paneEnv, sizeArg, startDir, world, type Run } from "./helpers";

const displayMessage: Run = async (ctx, p) => {
  const { world: w, here } = await world(ctx);
  // As in tmux, a target that is not there is no error here: the format then has no pane (a
  // gone %N gives an empty #{pane_id}).
  const pane = formatPane(w, here, p, true);
  if (has(p, "a")) {
    const vars = variables({ pane, sock: ctx.sock, world: w });
    for (const name of ALL_VARIABLES) ctx.out(`${name}=${vars(name) ?? ""}`);
    return;
  }
  const fmt = val(p, "F") ?? p.args[0] ?? "[#{session_name}] #{window_index}:#{window_name}, current pane #{pane_index} - (%H:%M %d-%b-%y)";
  const text = (await format(ctx, w, fmt, [pane ? { pane } : {}]))[0]!;
  if (has(p, "p")) ctx.out(text);
  else if (ctx.ui) ctx.ui.display(text);
  else if (text !== "") await call(ctx.sock, "notify", { title: text.slice(0, 256), ...(pane ? { pane: pane.id } : {}) });
};

const ALL_VARIABLES = [
  "client_termtype", "cursor_x", "cursor_y", "history_limit", "history_size", "host", "host_short", "pane_active", "pane_at_bottom", "pane_at_left", "pane_at_right", "pane_at_top",
  "pane_bottom", "pane_current_command", "pane_current_path", "pane_dead", "pane_height", "pane_id", "pane_index", "pane_left", "pane_pid", "pane_right", "pane_start_command",
  "pane_title", "pane_top", "pane_tty", "pane_width", "session_id", "session_name", "session_windows", "socket_path", "version", "window_active", "window_flags", "window_height",
  "window_id", "window_index", "window_layout", "window_name", "window_panes", "window_width", "window_zoomed_flag",
];

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
        command: await paneArgv(ctx, p.args, paneEnv(ctx, p)),
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

// ---- the entries ---------------------------------------------------------------------------

export const chooseClientEntry = entry("choose-client", undefined);
export const chooseTreeEntry = entry("choose-tree", undefined, "F:f:GK:NO:rst:wZ", onInterface("choose-tree"));
export const clearPromptHistoryEntry = entry("clear-prompt-history", "clearphist");
export const commandPromptEntry = entry("command-prompt", undefined);
export const confirmBeforeEntry = entry("confirm-before", "confirm");
export const customizeModeEntry = entry("customize-mode", undefined);
export const displayMenuEntry = entry("display-menu", "menu");
export const displayMessageEntry = entry("display-message", "display", "aCc:d:lINpt:F:v", displayMessage);
export const displayPanesEntry = entry("display-panes", "displayp", "bd:Nt:", onInterface("display-panes"));
export const displayPopupEntry = entry("display-popup", "popup", "Bb:Cc:d:e:Eh:s:S:t:T:w:x:y:", displayPopup);
export const showMessagesEntry = entry("show-messages", "showmsgs");
export const showPromptHistoryEntry = entry("show-prompt-history", "showphist");
