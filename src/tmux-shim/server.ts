// keys.toml's `tmux_shim = true`: every pane the server starts gets tmux's environment pointed at
// ws (TMUX, its own TMUX_PANE, the shim's `tmux` first on PATH). Off by default: a TMUX that is
// not tmux confuses programs that check for tmux.
import { readdirSync } from "node:fs";
import { parentDir } from "../paths";
import { removeShellFiles } from "../model/shell-integration";
import { removeShimDir } from "./state";
import { parseKeysToml, readKeysToml } from "../keys-toml";
import { installTmux } from "./install";
import { shimPath, tmuxVar } from "./env";

/** Whether keys.toml asks for it (a broken file is the keymap's to report: here it is off). */
export function tmuxShimWanted(env: Record<string, string | undefined> = process.env): boolean {
  try {
    return parseKeysToml(readKeysToml(env)).tmux_shim === true;
  } catch {
    return false;
  }
}

/** The variables each pane gets, or undefined when the option is off. The shim's directory is made
 * at the first pane (the socket directory exists by then). */
export function shimPaneEnv(socket: string, basePath: string | undefined, env: Record<string, string | undefined> = process.env): ((id: number) => Record<string, string>) | undefined {
  if (!tmuxShimWanted(env)) return undefined;
  let fixed: Record<string, string> | undefined;
  return (id) => {
    try {
      fixed ??= { TMUX: tmuxVar(socket, process.pid), PATH: shimPath(basePath, installTmux(socket)) };
    } catch {
      return {}; // no directory for the shim: panes start as without the option
    }
    return { ...fixed, TMUX_PANE: `%${id}` };
  };
}

/** What a quitting server leaves in its socket directory is removed: the shim's directory for its
 * socket (its `tmux`, paste buffers and options, as tmux's buffers go with its server) and, when
 * no other server's socket is left beside it, the shell-integration files. Never throws. */
export function cleanUpAfterServer(socket: string): void {
  try {
    removeShimDir(socket);
  } catch {}
  try {
    const dir = parentDir(socket);
    if (!readdirSync(dir).some((n) => n.endsWith(".sock"))) removeShellFiles(dir);
  } catch {}
}
