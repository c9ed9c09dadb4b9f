// The shim's `tmux` in its directory: a link to this binary (which dispatches on its name), or,
// run from the sources, a script that runs them as tmux. Made by `ws tmux-shim`, and by the server
// when keys.toml says `tmux_shim = true` (every pane then starts with tmux = ws).
import { readlinkSync, renameSync, symlinkSync, writeFileSync } from "node:fs";
import { selfArgv } from "../paths";
import { ensureShimDir } from "./state";
import { quoteSh } from "../shell-quote";

/** Make the directory and its `tmux`; returns the directory. Replaced whole, so a running call never sees half. */
export function installTmux(socket: string): string {
  const dir = ensureShimDir(socket);
  const self = selfArgv();
  const path = `${dir}/tmux`;
  const tmp = `${path}.${process.pid}`;
  if (self.length === 1) {
    try {
      if (readlinkSync(path) === self[0]) return dir;
    } catch {}
    symlinkSync(self[0]!, tmp);
  } else writeFileSync(tmp, `#!/bin/sh\nexec ${self.map(quoteSh).join(" ")} __tmux "$@"\n`, { mode: 0o700 });
  renameSync(tmp, path);
  return dir;
}
