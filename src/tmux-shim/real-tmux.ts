// Hand a call to the real tmux: the first `tmux` on PATH that is not ws (not a shim directory's,
// not a link to this binary). Bun has no exec, so it runs as a child with this process's stdio and
// its exit status (or 128 + its signal) becomes ours.
import { accessSync, constants, existsSync, realpathSync } from "node:fs";
import { MARKER } from "./state";
import type { Env } from "../paths";

function real(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

export function findRealTmux(env: Env): string | undefined {
  const self = real(process.execPath);
  for (const dir of (env.PATH ?? "").split(":")) {
    if (!dir || existsSync(`${dir}/${MARKER}`)) continue;
    const candidate = `${dir}/tmux`;
    try {
      accessSync(candidate, constants.X_OK);
    } catch {
      continue;
    }
    if (real(candidate) === self) continue;
    return candidate;
  }
  return undefined;
}

export function runRealTmux(args: string[], env: Env): number {
  const tmux = findRealTmux(env);
  if (!tmux) {
    console.error("tmux: no tmux server is ws's here, and no real tmux is on PATH");
    return 127;
  }
  const child = Bun.spawnSync([tmux, ...args], { stdio: ["inherit", "inherit", "inherit"], env: env as Record<string, string> });
  if (child.exitCode !== null) return child.exitCode;
  const signals: Record<string, number> = { SIGHUP: 1, SIGINT: 2, SIGQUIT: 3, SIGKILL: 9, SIGTERM: 15 };
  return 128 + (signals[String(child.signalCode)] ?? 1);
}
