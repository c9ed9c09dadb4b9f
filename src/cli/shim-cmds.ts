// ws tmux-shim [-- COMMAND…]: run COMMAND (default: your shell) where `tmux` is ws (docs/tmux-shim.md).
import { send, sock, CliError } from "./common";
import type { HandlerInput } from "./handlers";
import { installTmux } from "../tmux-shim/install";
import { shimEnv } from "../tmux-shim/env";

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
