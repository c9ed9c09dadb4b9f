// ws tmux-shim [-- COMMAND…]: run COMMAND (default: your shell) where `tmux` is ws (docs/tmux-shim.md).
import { send, sock, CliError } from "./common";
import type { HandlerInput } from "./handlers";
import { installTmux } from "../tmux-shim/install";
import { shimEnv, tmuxVar } from "../tmux-shim/env";

export async function tmuxShim({ fields }: HandlerInput): Promise<void> {
  const socket = sock();
  const hello = await send("hello");
  const dir = installTmux(socket);
  const env = shimEnv(process.env, { socket, serverPid: Number(hello.pid), dir });
  const command = (fields.command as string[] | undefined)?.length ? (fields.command as string[]) : [process.env.SHELL || "/bin/sh"];
  let proc;
  try {
    proc = Bun.spawn(command, { stdio: ["inherit", "inherit", "inherit"], env });
  } catch (e) {
    throw new CliError(`can't run ${command[0]}: ${(e as Error).message}`);
  }
  process.exitCode = await proc.exited;
}

/** ws tmux COMMAND…: one tmux command line run by the shim's parser and command table, against
 * this server, from this process (a pane's call goes through its own socket, with its grants). */
export async function tmuxCommand({ words }: HandlerInput): Promise<void> {
  if (!words.length) throw new CliError("ws tmux needs a tmux command, e.g. ws tmux split-window -h", 2, "usage");
  const { main } = await import("../tmux-shim/main");
  const env: Record<string, string | undefined> = { ...process.env, TMUX: tmuxVar(sock(), 0) };
  if (env.WS_PANE_ID && /^\d+$/.test(env.WS_PANE_ID)) env.TMUX_PANE = `%${env.WS_PANE_ID}`;
  else delete env.TMUX_PANE;
  process.exitCode = await main(words, env);
}
