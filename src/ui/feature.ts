// Plugs the interactive interface into the daemon: the `attach` service (the
// connection becomes the attach stream) and `runUiAction` for run_command.

import type { Feature } from "../features/feature";
import type { AttachParams } from "../features/services";
import type { Connection } from "../protocol/connection";
import { BUILD } from "../build-info";
import { plainError } from "../protocol/envelope";
import { Interface } from "./interface";
import { MAX_CLIENTS } from "./client-lifecycle";
import { isUiAction } from "./keymap";
import { loadKeymap } from "./keymap-toml";
import { checkCommandLine } from "./command-line";
import { setHistoryLimit } from "../model/pane";

export default function uiFeature(): Feature {
  let ui: Interface | undefined;
  let quitting = false;
  let warnings: string[] = [];
  let restoreNoted = false;
  return {
    name: "ui",
    provide(d) {
      // A bound line is ws's own words or a tmux command line (the shim's parser, when served).
      const tmux = d.services.get("tmux");
      const checkLine = (line: string) => {
        const problem = checkCommandLine(line);
        return problem && tmux?.knows(line) ? tmux.check(line) : problem;
      };
      const { keymap, warnings: found } = loadKeymap(process.env, checkLine);
      setHistoryLimit(keymap.historyLimit);
      warnings = found;
      for (const w of warnings) d.log.warn(w);
      ui = new Interface({
        session: d.session,
        keymap,
        warnings,
        build: BUILD,
        shutdown: (keep) => void d.shutdown(keep),
        keepOnQuit: !d.opts.local,
        log: d.log,
        socketPath: d.opts.socketPath,
      });
      // ws config reload, prefix r: keys.toml again, in place; its problems are the answer.
      // (Workstream templates are read each time one is used: nothing to reload for them.)
      ui.reloadConfig = () => {
        const { keymap: next, warnings: problems } = loadKeymap(process.env, checkLine);
        setHistoryLimit(next.historyLimit);
        for (const w of problems) d.log.warn(w);
        ui!.replaceKeymap(next);
        return problems;
      };
      if (tmux) ui.tmuxLines = tmux;
      d.services.provide("ui", ui); // features that draw on it (agent marks, the dashboard)
      d.session.bus.on((e) => {
        if (e.type === "server_quitting") quitting = true;
      });
      d.services.provide("attach", (p: AttachParams, connection: unknown) => {
        const conn = connection as Connection;
        if (quitting || !ui) {
          conn.write(plainError("the ws server is shutting down"));
          conn.end();
          return;
        }
        if (!restoreNoted) {
          // A saved session that could not be loaded (or only in part) is news for the person, not
          // just the log.
          // Read at the first attach, when every feature has provided its services.
          restoreNoted = true;
          const persistence = d.services.get("persistence");
          if (persistence?.problem) warnings.push(`saved session not restored: ${persistence.problem.message} (ws doctor)`);
          const skipped = persistence?.skipped ?? [];
          if (skipped.length) warnings.push(`saved session restored in part: ${skipped[0]}${skipped.length > 1 ? ` (and ${skipped.length - 1} more in the server log)` : ""}`);
        }
        if (p.share && ui.clients.all.length >= MAX_CLIENTS) {
          conn.write(plainError(`${MAX_CLIENTS} clients are attached already, the most one server takes (ws client list; ws client detach ID)`));
          conn.end();
          return;
        }
        if (p.open?.project !== undefined) {
          // The tab to open is open_tab's: an unknown project is refused the same way, before anything.
          try {
            d.services.get("projects")?.check(p.open.project, "open.project");
          } catch (e) {
            conn.write(plainError((e as Error).message));
            conn.end();
            return;
          }
        }
        if (p.open) {
          const ws = d.session.currentWorkspace;
          d.session.newTab(ws, { cwd: p.open.cwd, argv: p.open.command, name: p.open.name, project: p.open.project, focus: true });
        }
        if (!ui.attach({ cols: p.cols, rows: p.rows, build: p.build, term: p.term, tty: p.tty, tty_id: p.tty_id, keys: p.keys }, conn, p.share === true)) {
          conn.write(plainError(`${MAX_CLIENTS} clients are attached already, the most one server takes (ws client list; ws client detach ID)`));
          conn.end();
        }
      });
      d.services.provide("runUiAction", (name: string) => {
        if (!isUiAction(name)) throw new Error(`no command "${name}"`);
        ui!.run(name);
      });
    },
    stop() {
      ui?.dispose();
    },
  };
}
