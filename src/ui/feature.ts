// Plugs the interactive interface into the daemon: the `attach` service (the
// connection becomes the attach stream) and `runCommand` for run_command.

import type { Feature } from "../server/features";
import type { AttachParams, AttachService } from "../commands/attach";
import type { Connection } from "../server/connection";
import { BUILD } from "../build-info";
import { plainError } from "../protocol/envelope";
import { Interface } from "./interface";
import { loadKeymap, isCommand } from "./keymap";
import { isLocalSocket } from "../paths";

export type RunCommandService = (name: string) => void;

export default function uiFeature(): Feature {
  let ui: Interface | undefined;
  let quitting = false;
  return {
    name: "ui",
    start(d) {
      const { keymap, warnings } = loadKeymap();
      for (const w of warnings) d.log.warn(w);
      // A saved session that could not be loaded is news for the person, not just the log.
      const persistence = d.services.persistence as { problem?: { message: string }; skipped?: string[] } | undefined;
      if (persistence?.problem) warnings.push(`saved session not restored: ${persistence.problem.message} (ws doctor)`);
      const skipped = persistence?.skipped ?? [];
      if (skipped.length) warnings.push(`saved session restored in part: ${skipped[0]}${skipped.length > 1 ? ` (and ${skipped.length - 1} more in the server log)` : ""}`);
      ui = new Interface({
        session: d.session,
        keymap,
        warnings,
        build: BUILD,
        shutdown: (keep) => void d.shutdown(keep),
        keepOnQuit: !isLocalSocket(d.opts.socketPath),
        log: d.log,
      });
      d.services.ui = ui; // features that draw on it (agent marks, the dashboard)
      d.session.bus.on((e) => {
        if (e.type === "server_quitting") quitting = true;
      });
      d.services.attach = ((p: AttachParams, connection: unknown) => {
        const conn = connection as Connection;
        if (quitting || !ui) {
          conn.write(plainError("the ws server is shutting down"));
          conn.end();
          return;
        }
        if (p.open) {
          const ws = d.session.currentWorkspace;
          d.session.newTab(ws, { cwd: p.open.cwd, argv: p.open.command, name: p.open.name, project: p.open.project, focus: true });
        }
        ui.attach({ cols: p.cols, rows: p.rows, build: p.build }, conn);
      }) satisfies AttachService;
      d.services.runCommand = ((name: string) => {
        if (!isCommand(name)) throw new Error(`no command "${name}"`);
        ui!.run(name);
      }) satisfies RunCommandService;
    },
    stop() {
      ui?.dispose();
    },
  };
}
