// tmux command lines inside the server: `prefix :`, keys.toml bindings and `ws tmux` lines run
// through the shim's one parser (parse.ts) and command table (cmd/index.ts), on the server's own
// model. Their requests are dispatched in this process, as the person (who typed them), never
// through a socket or a shim process; what tmux does on its client (the status line's message,
// list-keys, last-window, the mouse) the interface does.
import { dispatchLine } from "../server/dispatch";
import type { Daemon } from "../server/daemon";
import type { TmuxLineService } from "../features/services";
import type { Interface } from "../ui/interface";
import { runUiAction } from "../ui/ui-actions";
import { readTextFile } from "../safe-file";
import { safeText } from "../safe-text";
import { parseCommands } from "./parse";
import { findCommand, runCommand } from "./cmd/index";
import type { Ctx, ShimUi } from "./cmd/helpers";
import { checkTmuxLine } from "./check-line";
import { ShimError, serveInProcess } from "./world";
import { ShimState, ensureShimDir } from "./state";

/** The most of a file source-file reads (a tmux.conf is a few KiB). */
const SOURCE_FILE_MAX = 1024 * 1024;
/** How deep source-file may nest (a file that sources itself ends here, as in tmux). */
const SOURCE_DEPTH_MAX = 10;
/** The most output lines kept for the status line or the output view. */
const OUTPUT_LINES_MAX = 2000;

/** Each command of a line, parsed as tmux parses a command line; throws ShimError. */
function commandsOf(line: string): string[][] {
  return parseCommands(line, process.env);
}

export function tmuxLines(d: Daemon): TmuxLineService {
  const sock = d.opts.socketPath;
  serveInProcess(sock, async (msg) => {
    const done = await dispatchLine(JSON.stringify(msg), d.context());
    await done.after?.();
    return JSON.parse(done.reply);
  });
  const knows = (line: string): boolean => {
    try {
      const first = commandsOf(line)[0]?.[0];
      if (first === undefined) return false;
      findCommand(first);
      return true;
    } catch (e) {
      // An ambiguous prefix (`new`) is tmux's word too; an unknown one is not.
      return e instanceof ShimError && !e.message.startsWith("unknown command");
    }
  };
  const check = (line: string): string | undefined => checkTmuxLine(line);
  const run = async (line: string, where: { pane?: number; cwd?: string }) => {
    const out: string[] = [];
    const ui = d.services.get("ui") as Interface | undefined;
    const ctx: Ctx = {
      sock,
      env: process.env,
      ...(where.pane !== undefined ? { paneId: where.pane } : {}),
      ...(where.cwd !== undefined ? { cwd: where.cwd } : {}),
      state: new ShimState(ensureShimDir(sock), sock),
      out: (text, opts = {}) => {
        if (out.length < OUTPUT_LINES_MAX) out.push(...safeText(text, opts).split("\n"));
      },
    };
    let depth = 0;
    const runAll = async (commands: string[][]) => {
      for (const words of commands) await runCommand(ctx, words);
    };
    if (ui)
      ctx.ui = interfaceOf(ui, async (path, quiet) => {
        if (depth >= SOURCE_DEPTH_MAX) throw new ShimError(`${path}: too many nested files`);
        let text: string;
        try {
          text = readTextFile(path.replace(/^~(?=\/|$)/, process.env.HOME ?? "~"), SOURCE_FILE_MAX);
        } catch (e) {
          if (quiet) return;
          throw new ShimError(`${path}: ${(e as Error).message}`);
        }
        depth++;
        try {
          await runAll(commandsOf(text));
        } finally {
          depth--;
        }
      });
    try {
      await runAll(commandsOf(line));
      return { status: ctx.status ?? 0, output: out.join("\n") };
    } catch (e) {
      if (!(e instanceof ShimError)) throw e;
      out.push(safeText(e.message));
      return { status: 1, output: out.join("\n") };
    }
  };
  return { knows, check, run };
}

/** The interface as tmux's commands reach its client. */
function interfaceOf(ui: Interface, source: ShimUi["source"]): ShimUi {
  return {
    display(text) {
      ui.message = text;
      ui.invalidate();
    },
    run(name) {
      runUiAction(ui, name);
      ui.invalidate();
    },
    keys() {
      const lines: string[] = [];
      for (const [key, command] of ui.keymap.prefixTable) lines.push(`bind-key -T prefix ${key} ${command}`);
      for (const [key, command] of ui.keymap.root) lines.push(`bind-key -T root ${key} ${command}`);
      return lines;
    },
    option(name, value, local) {
      const on = value === "on" ? true : value === "off" ? false : undefined;
      if (name === "mouse") {
        if (on === undefined) throw new ShimError(`bad value: ${value}`);
        ui.keymap.mouse = on;
      } else if (name === "synchronize-panes") {
        if (on === undefined) throw new ShimError(`bad value: ${value}`);
        const tab = ui.session.activeTab(ui.session.currentWorkspace);
        if (on) ui.syncTabs.add(tab.id);
        else ui.syncTabs.delete(tab.id);
        void local;
      }
      ui.invalidate();
    },
    source,
  };
}
