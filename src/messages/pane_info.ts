import { paneInfo } from "../model/views";
import { defineMessage, replyTyped } from "./types";

export default defineMessage({
  type: "pane_info",
  since: 6,
  grant: "self",
  request: true,
  reply: "pane_info",
  summary: "What a pane is: size, cursor, title, cwd, pid, the foreground process and its argv, and its exit status once it has exited.",
  fields: {
    pane: { type: "integer", required: true, description: "The pane id" },
  },
  // A pane that closed as its program exited answers with pane, exited, exit_code and signal only.
  replyFields: {
    pane: { type: "integer", description: "The pane" },
    workspace: { type: "string", optional: true, description: "Its workspace" },
    tab: { type: "integer", optional: true, description: "Its tab's id" },
    focused: { type: "boolean", optional: true, description: "Whether it is its tab's focused pane" },
    zoomed: { type: "boolean", optional: true, description: "Whether it fills its tab" },
    cols: { type: "integer", optional: true, description: "Its width in cells, as its program sees it" },
    rows: { type: "integer", optional: true, description: "Its height" },
    cursor: replyTyped<{ x: number; y: number }>()({ type: "object", optional: true, description: "`x`, `y`: the cursor on the screen, 0-based" }),
    title: { type: "string", optional: true, description: "The title its program set (OSC 0/2), or empty" },
    label: { type: "string", optional: true, description: "The name ws shows: the name pane_rename gave it, else the title its foreground program set, else that program's name" },
    command: { type: "string[]", optional: true, description: "The command it was started with (empty: the user's shell)" },
    argv: { type: "string[]", optional: true, description: "What was run" },
    cwd: { type: "string", optional: true, description: "The foreground process's working directory (Linux), else where it started" },
    start_cwd: { type: "string", optional: true, description: "Where it started" },
    pid: { type: "integer", optional: true, description: "The pane's process" },
    foreground: replyTyped<{ pid: number; argv: string[] } | null>()({ type: "object|null", optional: true, description: "`pid`, `argv`: the terminal's foreground process group leader" }),
    scrollback: { type: "integer", optional: true, description: "Lines of scrollback above the screen" },
    emulator: replyTyped<"live" | "resting">()({ type: "string", optional: true, description: "`live`, or `resting`: nothing showed, read or fed the pane for a while (`WS_EMULATOR_REST_MS`, 5 s), so its terminal emulator is put away and its screen kept compactly; the next output, read or client showing it brings the emulator back as it was" }),
    started_at: { type: "integer", optional: true, description: "ms since the epoch" },
    last_output_at: { type: "integer", optional: true, description: "When it last printed, ms since the epoch" },
    exited: { type: "boolean", description: "Whether its program has exited. A kept pane (`keep`) stays, with its full info; any other closes, and its info then has only `pane`, `exited`, `exit_code` and `signal`" },
    exit_code: { type: "integer|null", description: "The exit code, once exited (null when killed by a signal)" },
    signal: { type: "string|null", optional: true, description: "Only once exited: the signal that ended it" },
  },
  errors: ["pane_not_found"],
  example: { v: 6, id: 1, type: "pane_info", pane: 1 },
  cli: { path: "pane info", args: ["pane"], defaults: { pane: "$WS_PANE_ID" }, view: "paneInfo" },
  handle({ pane }, { session, services }) {
    return paneInfo(session, (id) => services.control.exitOf(id), pane);
  },
});
