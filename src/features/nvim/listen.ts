// Neovim panes ws can drive: ws starts Neovim with `--listen` on a private socket in its socket
// directory (0700), and finds that socket again from the pane's own argv (so a saved and restored
// pane keeps it). Pure string work: templates call nvimListenArgv when they start a pane.
import { checkSocketPath, socketPathProblem } from "../../platform/socket-check";

const LISTEN = "--listen";

/** Whether argv runs Neovim (`nvim` or a path ending in /nvim). */
export function isNvim(argv: readonly string[]): boolean {
  const p = argv[0] ?? "";
  return p === "nvim" || p.endsWith("/nvim");
}

/** A fresh socket path for a Neovim in `socketDir` (the server's socket directory); throws
 * SocketPathTooLong where that directory is too deep for one. */
export function nvimSocketPath(socketDir: string): string {
  const token = crypto.randomUUID().replace(/-/g, "").slice(0, 16);
  const path = `${socketDir.replace(/\/+$/, "")}/nvim-${token}.sock`;
  checkSocketPath(path);
  return path;
}

/**
 * argv with `--listen <private socket>` added when it runs Neovim without a --listen of its own;
 * any other argv unchanged. For templates: a pane whose command is `nvim` becomes one `ws open`
 * can drive. `socketDir` is the server's socket directory (parentDir(session.opts.socketPath)).
 */
export function nvimListenArgv(argv: readonly string[], socketDir: string): string[] {
  if (!isNvim(argv) || argv.includes(LISTEN)) return [...argv];
  // A socket directory too deep for Neovim's socket: the pane still starts, without one (ws open
  // then starts its own Neovim, and says why if that can't listen either).
  if (socketPathProblem(`${socketDir.replace(/\/+$/, "")}/nvim-${"0".repeat(16)}.sock`)) return [...argv];
  return [argv[0]!, LISTEN, nvimSocketPath(socketDir), ...argv.slice(1)];
}

/** The socket a pane's Neovim listens on, when ws gave it one (a --listen inside `socketDir`). */
export function nvimSocketOf(argv: readonly string[], socketDir: string): string | undefined {
  if (!isNvim(argv)) return undefined;
  const i = argv.indexOf(LISTEN);
  const sock = i >= 0 ? argv[i + 1] : undefined;
  const dir = socketDir.replace(/\/+$/, "") + "/";
  return sock?.startsWith(dir) && !sock.slice(dir.length).includes("/") ? sock : undefined;
}
