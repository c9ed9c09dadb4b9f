// Which workstream a command means, one rule for ws checkpoint, done, fan, ship and open: the name
// given (NAME or --name), else $WS_WORKSTREAM, else the current directory (like git: walk up to a
// worktree ws made, $WS_WORKTREES/REPO/NAME), else the workstream whose tab holds $WS_PANE_ID.
// Runs in the CLI, where the directory is known; the server gets the name (or the pane).
import { readdirSync, realpathSync, statSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { pathNameProblem } from "../../protocol/names";
import { worktreesRoot } from "./worktree";

type Env = Record<string, string | undefined>;

export type Which = { name: string; from: "name" | "env" | "cwd" } | { pane: number; from: "pane" };

function real(p: string): string | undefined {
  try {
    return realpathSync(p);
  } catch {
    return undefined;
  }
}

/** The workstream whose worktree `cwd` is in (ws made it under the worktrees root), if any. */
export function workstreamOfDir(cwd: string, env: Env = process.env): string | undefined {
  const root = real(worktreesRoot(env));
  let dir = real(cwd);
  if (!root || !dir) return undefined;
  // The worktree is ROOT/REPO/NAME: the ancestor two levels below the root.
  while (dir !== dirname(dir)) {
    if (dirname(dirname(dir)) === root) {
      const name = basename(dir);
      return pathNameProblem(name) ? undefined : name;
    }
    dir = dirname(dir);
  }
  return undefined;
}

/** The workstream meant, by the one rule; undefined when nothing names one. */
export function whichWorkstream(given: string | undefined, o: { env?: Env; cwd?: string; usePane?: boolean } = {}): Which | undefined {
  const env = o.env ?? process.env;
  if (given !== undefined && given !== "") return { name: given, from: "name" };
  if (env.WS_WORKSTREAM) return { name: env.WS_WORKSTREAM, from: "env" };
  const here = workstreamOfDir(o.cwd ?? process.cwd(), env);
  if (here !== undefined) return { name: here, from: "cwd" };
  const pane = env.WS_PANE_ID;
  if (o.usePane !== false && pane && /^\d+$/.test(pane)) return { pane: Number(pane), from: "pane" };
  return undefined;
}

/** The message fields that name it: {name} or {pane}. */
export function whichFields(w: Which): { name: string } | { pane: number } {
  return "name" in w ? { name: w.name } : { pane: w.pane };
}

/** The worktree of workstream `name` ws made: ROOT/REPO/NAME, for REPO the checkout `cwd` is in
 * when that one exists, else the only REPO that has one. Undefined when none (or several) do. */
export function worktreeDirOf(name: string, repoName: string | undefined, env: Env = process.env): string | undefined {
  if (pathNameProblem(name)) return undefined;
  const root = worktreesRoot(env);
  const isDir = (p: string) => {
    try {
      return statSync(p).isDirectory();
    } catch {
      return false;
    }
  };
  if (repoName !== undefined && isDir(join(root, repoName, name))) return join(root, repoName, name);
  let repos: string[];
  try {
    repos = readdirSync(root);
  } catch {
    return undefined;
  }
  const found = repos.map((r) => join(root, r, name)).filter(isDir);
  return found.length === 1 ? found[0] : undefined;
}
