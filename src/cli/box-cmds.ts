// `ws box -- CMD…`: run CMD in a box (src/model/box.ts) here, in this directory's checkout, with
// this pane's socket. keys.toml's `box_agents = true` puts a directory first on every pane's PATH
// whose claude, codex, gemini and opencode are `ws box -- <name>`: typing `claude` in a shell pane
// starts the real one (found further down PATH) boxed. `ws doctor` says whether boxes work here.
import { chmodSync, existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { CliError } from "./common";
import type { HandlerInput } from "./handlers";
import { doctorChecks } from "./server-cmds";
import { BOXED_AGENTS, boxLaunch, boxSettings, boxTool, planBox, runtimeDirsOf } from "../model/box";
import { WsError } from "../protocol/errors";
import { execProgram } from "../platform/exec";
import { joinPath, selfArgv } from "../paths";
import { quoteSh } from "../shell-quote";
import { tiocstiBlocked } from "../platform/box-seccomp";

/** Marks a directory of agent wrappers, so the search for the real program skips it. */
const MARKER = ".ws-box-agents";

/** The wrappers' directory for a ws socket: `…/default.sock` → `…/default.agents`. */
export const agentsDir = (socket: string) => socket.replace(/\.sock$/, "") + ".agents";

/** Write the wrappers (replaced whole, each by a rename); returns their directory. */
export function installAgentWrappers(socket: string): string {
  const dir = agentsDir(socket);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
  if (!existsSync(`${dir}/${MARKER}`)) writeFileSync(`${dir}/${MARKER}`, "", { mode: 0o600 });
  const ws = selfArgv().map(quoteSh).join(" ");
  for (const name of BOXED_AGENTS) {
    const tmp = `${dir}/.${name}.${process.pid}`;
    writeFileSync(tmp, `#!/bin/sh\n# ws box_agents (keys.toml): ${name} in a box\nexec ${ws} box -- ${name} "$@"\n`, { mode: 0o700 });
    renameSync(tmp, `${dir}/${name}`);
  }
  return dir;
}

/** Remove the wrappers of a server that quit. Only a directory marked as theirs. */
export function removeAgentWrappers(socket: string): void {
  const dir = agentsDir(socket);
  if (existsSync(`${dir}/${MARKER}`)) rmSync(dir, { recursive: true, force: true });
}

/** PATH for each pane when keys.toml says `box_agents = true` (undefined when it doesn't): the
 * wrappers' directory first. Made at the first pane. */
export function agentsPath(socket: string, env: Record<string, string | undefined> = process.env): ((path: string | undefined) => string) | undefined {
  if (!boxSettings(env).boxAgents) return undefined;
  let dir: string | undefined;
  return (path) => {
    try {
      dir ??= installAgentWrappers(socket);
    } catch {
      return path ?? "";
    }
    return [dir, ...(path ?? "").split(":").filter((d) => d && d !== dir)].join(":");
  };
}

/** PATH without the wrappers' directories. */
const withoutWrappers = (path: string) =>
  path
    .split(":")
    .filter((d) => d && !existsSync(joinPath(d, MARKER)))
    .join(":");

export async function box({ fields }: HandlerInput): Promise<void> {
  const command = (fields.command as string[] | undefined) ?? [];
  if (!command.length) throw new CliError("ws box needs a command: ws box -- claude", 2, "usage");
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined) env[k] = v;
  env.PATH = withoutWrappers(env.PATH ?? "");
  const program = command[0]!.includes("/") ? command[0]! : Bun.which(command[0]!, { PATH: env.PATH });
  if (!program) throw new CliError(`can't run ${JSON.stringify(command[0])}: not found on PATH (outside ws's box_agents wrappers)`, 1, "program_not_found");
  const socket = env.WS_SOCKET;
  const runtime = runtimeDirsOf(socket, env);
  let run: { argv: string[]; env: Record<string, string> };
  try {
    const tool = boxTool(env);
    const plan = planBox(process.cwd(), { network: fields.network !== false }, { env, runtime, ...(socket ? { socket } : {}) });
    run = boxLaunch({ argv: [program, ...command.slice(1)], env }, plan, tool, runtime[runtime.length - 1]!);
  } catch (e) {
    if (e instanceof WsError) throw new CliError(`${e.message}${e.hint?.command ? ` (${e.hint.command})` : ""}`, 1, e.code);
    throw e;
  }
  const why = execProgram(run.argv[0]!, run.argv, run.env);
  throw new CliError(`can't start the box: ${why}`, 1, "spawn_failed");
}

doctorChecks.push(() => {
  try {
    const tool = boxTool(process.env);
    const tiocsti = tool.kind === "bwrap" && !tiocstiBlocked() ? " (TIOCSTI is refused by a seccomp filter: this kernel still allows it)" : "";
    const on = boxSettings(process.env);
    const settings = [on.box ? "box = true" : "", on.boxAgents ? "box_agents = true" : ""].filter(Boolean).join(", ");
    return [{ level: "ok" as const, text: `boxes work: ${tool.kind === "bwrap" ? `bubblewrap (${tool.path})` : "sandbox-exec"} ran a trivial box${tiocsti}${settings ? `; keys.toml: ${settings}` : ""}` }];
  } catch (e) {
    return [{ level: (boxSettings(process.env).box || boxSettings(process.env).boxAgents ? "error" : "warn") as "error" | "warn", text: `boxes don't work here: ${(e as Error).message}` }];
  }
});
