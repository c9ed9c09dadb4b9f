// popup: a pane floating over a tab (tmux's display-popup), drawn with a border over the layout,
// nothing in it moving; it takes the keys while open and closes with its program (model/popup.ts).
import { WsError } from "../protocol/errors";
import { POPUP_CLOSE, POPUP_SIZE } from "../model/popup";
import { PANE_START_ERRORS, defineMessage } from "./types";
import { ENV_FIELD, boxFor, newPaneGrants } from "./pane-fields";

const SIZE_TEXT = "cells (`40`) or a share of the tab's area (`50%`); clamped to it, at least 3 (the border and one cell)";

export default defineMessage({
  type: "popup",
  since: 6,
  grant: "self",
  request: true,
  longRunning: true,
  reply: "popup",
  summary:
    "Open a popup: a pane floating over a tab, centred, with a border; nothing in the layout moves. It takes the keys while open and closes as `close` says; Esc or C-c close it once its program has exited (and at any time with close=key). It has a normal pane id. Needs an attached terminal (code no_client). With `wait` the reply comes when it closes.",
  fields: {
    pane: { type: "integer", description: "A pane of the tab to open it over. Default: the tab on screen" },
    command: { type: "string[]", default: [], description: "The program and its arguments. Empty runs the user's shell" },
    cwd: { type: "string", description: "Where the command starts" },
    env: ENV_FIELD,
    width: { type: "string", default: "50%", description: `Its width, border included: ${SIZE_TEXT}` },
    height: { type: "string", default: "50%", description: `Its height, border included: ${SIZE_TEXT}` },
    x: { type: "integer", min: 0, max: 9999, description: "Its left column within the tab's area. Default: centred" },
    y: { type: "integer", min: 0, max: 9999, description: "Its top row within the tab's area. Default: centred" },
    close: { type: "string", default: "exit", accepted: POPUP_CLOSE, description: "exit: it closes when its program exits (tmux -E); success: when it exits with status 0 (tmux -E -E); key: only by Esc or C-c (tmux's default)" },
    wait: { type: "boolean", default: false, description: "Reply when the popup closes, with how its program ended" },
    border: { type: "boolean", default: true, description: "Draw its border; false: none, its program has the whole box, at least 1 cell (tmux -B)" },
  },
  replyFields: {
    pane: { type: "integer", description: "The popup's pane id" },
    exit_code: { type: "integer|null", optional: true, description: "wait: its program's exit code; null when a signal ended it or it was closed while running" },
    signal: { type: "string|null", optional: true, description: "wait: the signal that ended it" },
  },
  errors: ["pane_not_found", "popup_open", "no_client", ...PANE_START_ERRORS],
  example: { v: 6, id: 1, type: "popup", command: ["sh", "-c", "fzf > /tmp/pick"], width: "80%", height: "60%", wait: true },
  cli: { path: "popup", summary: "Open a popup over the tab on screen; with --wait, exit with its program's status when it closes", rest: "command", defaults: { cwd: "$PWD" }, run: "popup" },
  handle(p, ctx) {
    const { session, services, signal } = ctx;
    for (const f of ["width", "height"] as const)
      if (!POPUP_SIZE.test(p[f])) throw new WsError(`\`${f}\` must be cells (40) or a percentage (50%), got ${JSON.stringify(p[f])}`, "invalid_params", { param: f });
    if (!services.get("ui")?.client) throw new WsError("no terminal is attached to the server: a popup would be seen by nobody", "no_client");
    const over = p.pane ?? session.activeTab(session.currentWorkspace).focused;
    const pane = session.openPopup(over, { argv: p.command, cwd: p.cwd, strictCwd: p.cwd !== undefined, env: p.env, width: p.width, height: p.height, x: p.x, y: p.y, close: p.close, border: p.border, box: boxFor(ctx, undefined, true) });
    newPaneGrants(ctx, undefined).apply(pane.id);
    if (!p.wait) return { type: "popup", pane: pane.id };
    return new Promise<{ type: "popup"; pane: number; exit_code: number | null; signal: string | null }>((resolve) => {
      const off = session.bus.on((e) => {
        if (e.type !== "popup_closed" || e.pane !== pane.id) return;
        off();
        resolve({ type: "popup", pane: pane.id, exit_code: e.exit_code, signal: e.signal });
      });
      // The asker went away: the popup stays for the person; nothing waits on it any more.
      signal?.addEventListener("abort", () => off(), { once: true });
    });
  },
});
