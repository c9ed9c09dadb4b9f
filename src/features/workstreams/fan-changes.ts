// What a ws fan candidate has done so far, from git: files changed and lines added and removed
// between the fan's base commit and the worktree as it is now (committed, modified and untracked
// files; ignored ones not), and running the template's check in the worktree. The worktree's
// index, HEAD and branch are only read (snapshotTree works on a temporary index).
import { snapshotTree } from "./checkpoints";
import { gitOk, run } from "./git";

export interface Changes {
  files: number;
  added: number;
  removed: number;
}

/** What a worktree changed since `base`: the tree of its present state (committed, modified and
 * untracked files, written through a temporary index), the paths that differ, and the counts. */
export interface WorktreeChanges extends Changes {
  tree: string;
  paths: string[];
}

/** Paths a WorktreeChanges names (the counts cover every file). */
export const MAX_CHANGED_PATHS = 1000;

/** Changes from `base` to the worktree's present state: the one answer ws fan status, ws fan
 * compare and ws diff give. A binary file counts as a file, no lines. */
export async function worktreeChanges(dir: string, base: string): Promise<WorktreeChanges> {
  const tree = await snapshotTree(dir);
  const out = await gitOk(dir, ["diff", "--numstat", "-z", "--no-renames", "--no-ext-diff", "--no-textconv", "--end-of-options", base, tree], "ws fan status");
  const c: WorktreeChanges = { tree, paths: [], files: 0, added: 0, removed: 0 };
  // -z: "ADDED\tREMOVED\tPATH\0" per file ("-" for a binary file's counts).
  for (const rec of out.split("\0")) {
    const m = /^(\d+|-)\t(\d+|-)\t(.*)$/s.exec(rec);
    if (!m) continue;
    c.files++;
    if (c.paths.length < MAX_CHANGED_PATHS) c.paths.push(m[3]!);
    if (m[1] !== "-") c.added += Number(m[1]);
    if (m[2] !== "-") c.removed += Number(m[2]);
  }
  return c;
}

/** The counts of worktreeChanges. */
export async function changesSince(dir: string, base: string): Promise<Changes> {
  const { files, added, removed } = await worktreeChanges(dir, base);
  return { files, added, removed };
}

export interface CheckResult {
  exit_code: number;
  /** The end of what it printed (stdout, then stderr), at most MAX_CHECK_OUTPUT characters. */
  output: string;
  ms: number;
}

/** The end of a check's output kept for ws fan status. */
export const MAX_CHECK_OUTPUT = 4096;
/** A check that runs longer is stopped (and fails). */
export const CHECK_TIMEOUT_MS = 30 * 60_000;

/** Run the check (an argv, never a shell string of ours) in the worktree. */
export async function runCheck(argv: string[], dir: string, env: Record<string, string>): Promise<CheckResult> {
  const began = Date.now();
  const r = await run(argv, { cwd: dir, env, timeoutMs: CHECK_TIMEOUT_MS });
  const all = `${r.stdout}${r.stderr}`;
  return { exit_code: r.code, output: all.slice(-MAX_CHECK_OUTPUT), ms: Date.now() - began };
}
