// The environment tmux gives what runs inside it, pointed at ws: `tmux` first on PATH (the shim's
// directory), TMUX naming the ws socket and server, TMUX_PANE the pane (%<ws pane id>).
import type { Env } from "../paths";

/** TMUX's value: socket, server pid, session (always 0: tools read only the socket). */
export const tmuxVar = (socket: string, serverPid: number) => `${socket},${serverPid},0`;

/** PATH with the shim's directory first (once). */
export const shimPath = (path: string | undefined, dir: string) => [dir, ...(path ?? "").split(":").filter((d) => d && d !== dir)].join(":");

export function shimEnv(env: Env, o: { socket: string; serverPid: number; dir: string }): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) if (v !== undefined) out[k] = v;
  out.PATH = shimPath(env.PATH, o.dir);
  out.TMUX = tmuxVar(o.socket, o.serverPid);
  if (env.WS_PANE_ID && /^\d+$/.test(env.WS_PANE_ID)) out.TMUX_PANE = `%${env.WS_PANE_ID}`;
  else delete out.TMUX_PANE;
  return out;
}
