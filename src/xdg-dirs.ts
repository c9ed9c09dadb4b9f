// ws's own directories by the XDG base directory rules: $XDG_CONFIG_HOME/ws (keys.toml, templates,
// hosts), $XDG_DATA_HOME/ws (projects, worktrees), $XDG_STATE_HOME/ws (saved sessions, logs),
// each with its default under $HOME when the variable is unset. One rule for every file ws keeps.
import { homedir } from "node:os";
import { join } from "node:path";

type Env = Record<string, string | undefined>;

const XDG = {
  config: { variable: "XDG_CONFIG_HOME", under: [".config"] },
  data: { variable: "XDG_DATA_HOME", under: [".local", "share"] },
  state: { variable: "XDG_STATE_HOME", under: [".local", "state"] },
} as const;

/** The log of the server on `socketPath`, where `ws start` sends its output: <state>/ws/<name>.log. */
export function serverLogPath(socketPath: string, env: Env = process.env): string {
  const name = socketPath.slice(socketPath.lastIndexOf("/") + 1).replace(/\.sock$/, "");
  return wsDir("state", env, `${name}.log`);
}

/** `<XDG base of kind>/ws/<parts…>`, read from `env`. */
export function wsDir(kind: keyof typeof XDG, env: Env = process.env, ...parts: string[]): string {
  const { variable, under } = XDG[kind];
  return join(env[variable] || join(env.HOME || homedir(), ...under), "ws", ...parts);
}
