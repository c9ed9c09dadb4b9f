// Git worktrees for workstreams: where they go, making one on a new branch, an existing branch or
// a PR's head, copying the main clone's untracked files into it, running setup, and the checks
// and removal of `ws done`. Used by the daemon (new_workstream, workstream_done) and by the CLI
// (ws review makes its worktree itself). Git only through argv arrays (git.ts).
import { mkdir, rm, rmdir, stat } from "node:fs/promises";
import { homedir } from "node:os";
import { basename, dirname, join } from "node:path";
import { WsError } from "../../protocol/errors";
import { copyProblem } from "./templates";
import { wsDir } from "../../xdg-dirs";
import { gh, git, gitOk, gitSaid, onPath, optionName, run } from "./git";
import { copyIntoWorktree, readWorktreeInclude } from "./copy";
import { log } from "../../log";

type Env = Record<string, string | undefined>;

/** Where worktrees go: $WS_WORKTREES, else $XDG_DATA_HOME/ws/worktrees (~/.local/share/ws/worktrees). */
export function worktreesRoot(env: Env = process.env): string {
  if (env.WS_WORKTREES) return expandHome(env.WS_WORKTREES, env);
  return wsDir("data", env, "worktrees");
}

export function expandHome(p: string, env: Env = process.env): string {
  return p.replace(/^~(?=\/|$)/, env.HOME || homedir());
}

async function exists(p: string): Promise<boolean> {
  try {
    await stat(p);
    return true;
  } catch {
    return false;
  }
}

/** The main clone of the git checkout `dir` is in: from inside a worktree (another workstream's),
 * the clone it belongs to, so new worktrees are its siblings. */
export async function repoRoot(dir: string): Promise<string> {
  if (!(await exists(dir))) throw new WsError(`${dir} does not exist`, "not_a_repo", { param: "repo" });
  const r = await git(dir, ["rev-parse", "--show-toplevel"]);
  if (r.code !== 0 || !r.stdout.trim()) throw new WsError(`${dir} is not in a git repository: run ws new inside a checkout, give --repo DIR, or set repo in the template`, "not_a_repo", { param: "repo" });
  const top = r.stdout.trim();
  const common = (await git(top, ["rev-parse", "--path-format=absolute", "--git-common-dir"])).stdout.trim();
  return common.endsWith("/.git") ? dirname(common) : top;
}

/** The remote new branches start from and PRs come from: origin, else the first one. A remote
 * whose name git would read as an option is no remote to ws. */
export async function remoteOf(repo: string): Promise<string | undefined> {
  const names = (await git(repo, ["remote"])).stdout.split("\n").filter((n) => n && !optionName(n));
  return names.includes("origin") ? "origin" : names[0];
}

const hasRef = async (repo: string, ref: string) => (await git(repo, ["show-ref", "--verify", "--quiet", "--end-of-options", ref])).code === 0;

export interface WorktreeRequest {
  /** The main clone's top directory. */
  repo: string;
  dir: string;
  /** The new branch's name (when neither branch nor pr is given), e.g. the workstream's name. */
  name: string;
  /** An existing branch to check out. */
  branch?: string;
  pr?: number;
  /** For pr: the local branch to make (default: gh's choice, else pr-N). */
  prBranch?: string;
  /** Where a new branch starts (default: the remote's default branch, else HEAD). */
  base?: string;
  /** A commit a new branch starts from, instead of base (ws fan: every candidate from one). */
  startCommit?: string;
}

export interface Worktree {
  repo: string;
  dir: string;
  branch: string;
  /** The branch was made for it (a failure later deletes it again). */
  newBranch: boolean;
}

/** Make the worktree. Refuses a taken path, a new branch that exists, a branch that doesn't. */
export async function makeWorktree(req: WorktreeRequest): Promise<Worktree> {
  const { repo, dir } = req;
  if (await exists(dir)) throw new WsError(`${dir} is taken: pick another name, or remove it (ws done, git worktree remove)`, "path_taken", { param: "name" });
  // Every check before anything is made: a refused name leaves no directory behind.
  if (req.pr === undefined) await checkBranchName(repo, req.branch ?? req.name, req.branch !== undefined ? "branch" : "name");
  const remote = await remoteOf(repo);
  // Fetch first, so a new branch starts from the remote's latest and an existing one is found.
  if (remote) {
    const f = await git(repo, ["fetch", "--quiet", "--end-of-options", remote]);
    if (f.code !== 0) log.warn(`git fetch ${remote} in ${repo} failed (${gitSaid(f)}); going on with what is here`);
  }
  if (req.pr !== undefined) return withParent(dir, () => prWorktree(req, remote));
  if (req.branch !== undefined) {
    const branch = req.branch;
    if (await hasRef(repo, `refs/heads/${branch}`)) {
      await withParent(dir, () => gitOk(repo, ["worktree", "add", "--end-of-options", dir, branch], `checking out ${branch}`));
      return { repo, dir, branch, newBranch: false };
    }
    if (remote && (await hasRef(repo, `refs/remotes/${remote}/${branch}`))) {
      await withParent(dir, () => gitOk(repo, ["worktree", "add", "--track", "-b", branch, "--end-of-options", dir, `refs/remotes/${remote}/${branch}`], `checking out ${remote}/${branch}`));
      return { repo, dir, branch, newBranch: true };
    }
    throw new WsError(`no branch "${branch}" in ${repo}${remote ? ` or on ${remote}` : ""}: leave out --branch to start a new branch ${req.name}`, "branch_not_found", { param: "branch" });
  }
  if (await hasRef(repo, `refs/heads/${req.name}`))
    throw new WsError(`branch "${req.name}" exists in ${repo}: use --branch ${req.name} to work on it, or pick another name`, "branch_exists", { param: "name", command: `ws new TEMPLATE ${req.name} --branch ${req.name}` });
  const start = req.startCommit ?? (await startPoint(repo, remote, req.base));
  await withParent(dir, () => gitOk(repo, ["worktree", "add", "--no-track", "-b", req.name, "--end-of-options", dir, start], `making branch ${req.name} from ${start}`));
  return { repo, dir, branch: req.name, newBranch: true };
}

/** Run `make` with `dir`'s parent in place; the directories made for it go again if it fails. */
async function withParent<T>(dir: string, make: () => Promise<T>): Promise<T> {
  const first = await mkdir(dirname(dir), { recursive: true });
  try {
    return await make();
  } catch (e) {
    if (first !== undefined) await removeEmptyUpTo(dirname(dir), first);
    throw e;
  }
}

/** Remove `from` and its parents up to `top` (inclusive) while they are empty. */
async function removeEmptyUpTo(from: string, top: string): Promise<void> {
  for (let d = from; d.length >= top.length; d = dirname(d)) {
    try {
      await rmdir(d);
    } catch {
      return;
    }
    if (d === top) return;
  }
}

/** A branch name git takes, and not one a git command could read as an option. */
async function checkBranchName(repo: string, name: string, param: string): Promise<void> {
  if (optionName(name) || (await git(repo, ["check-ref-format", "--branch", name])).code !== 0) throw new WsError(`"${name}" is not a valid git branch name`, "invalid_params", { param });
}

/** Where a new branch starts, as a full ref: the base on the remote when it is there, else locally. */
async function startPoint(repo: string, remote: string | undefined, base: string | undefined): Promise<string> {
  if (base !== undefined) {
    if (remote && (await hasRef(repo, `refs/remotes/${remote}/${base}`))) return `refs/remotes/${remote}/${base}`;
    if (await hasRef(repo, `refs/heads/${base}`)) return `refs/heads/${base}`;
    throw new WsError(`the template's base "${base}" is no branch in ${repo}${remote ? ` or on ${remote}` : ""}`, "branch_not_found", { param: "base" });
  }
  return (await defaultBranch(repo))?.ref ?? "HEAD";
}

/** PR N's head: `gh pr checkout` when gh is installed, else the remote's pull/N/head. */
async function prWorktree(req: WorktreeRequest, remote: string | undefined): Promise<Worktree> {
  const { repo, dir, pr } = req;
  if (onPath("gh")) {
    await gitOk(repo, ["worktree", "add", "--detach", "--end-of-options", dir], "making the worktree");
    const r = await gh(dir, ["pr", "checkout", String(pr), ...(req.prBranch ? ["--branch", req.prBranch, "--force"] : [])]);
    if (r.code !== 0) {
      await git(repo, ["worktree", "remove", "--force", "--end-of-options", dir]);
      throw new WsError(`gh pr checkout ${pr} failed: ${gitSaid(r)}`, "git_failed");
    }
    const branch = await gitOk(dir, ["rev-parse", "--abbrev-ref", "HEAD"], "reading the PR's branch");
    return { repo, dir, branch, newBranch: false };
  }
  if (!remote) throw new WsError(`${repo} has no remote to fetch PR ${pr} from (and gh is not installed)`, "git_failed");
  const branch = req.prBranch ?? `pr-${pr}`;
  if (!req.prBranch && (await hasRef(repo, `refs/heads/${branch}`)))
    throw new WsError(`branch "${branch}" exists in ${repo}: use --branch ${branch} to work on it`, "branch_exists", { param: "pr" });
  await gitOk(repo, ["fetch", "--quiet", "--end-of-options", remote, `refs/pull/${pr}/head`], `fetching PR ${pr} from ${remote}`);
  await gitOk(repo, ["worktree", "add", req.prBranch ? "-B" : "-b", branch, "--end-of-options", dir, "FETCH_HEAD"], `checking out PR ${pr}`);
  return { repo, dir, branch, newBranch: !req.prBranch };
}

/** A review's worktree on its own branch `review/<branch>`, at the branch's newest commit (the
 * remote's when it has it), so the branch itself may stay checked out elsewhere. */
export async function reviewBranchWorktree(repo: string, dir: string, branch: string): Promise<Worktree> {
  if (await exists(dir)) throw new WsError(`${dir} is taken`, "path_taken", { param: "name" });
  await checkBranchName(repo, branch, "branch");
  const remote = await remoteOf(repo);
  if (remote) await git(repo, ["fetch", "--quiet", "--end-of-options", remote]);
  const start = remote && (await hasRef(repo, `refs/remotes/${remote}/${branch}`)) ? `refs/remotes/${remote}/${branch}` : (await hasRef(repo, `refs/heads/${branch}`)) ? `refs/heads/${branch}` : undefined;
  if (!start) throw new WsError(`no branch "${branch}" in ${repo}${remote ? ` or on ${remote}` : ""}, and no PR by that number`, "branch_not_found", { param: "branch" });
  const review = `review/${branch}`;
  await withParent(dir, () => gitOk(repo, ["worktree", "add", "--no-track", "-B", review, "--end-of-options", dir, start], `checking out ${start} for review`));
  return { repo, dir, branch: review, newBranch: true };
}

/** Whether `dir` is the top of a worktree of some repo (a review opened before). */
export async function isWorktree(dir: string): Promise<boolean> {
  const r = await git(dir, ["rev-parse", "--show-toplevel"]);
  return r.code === 0 && r.stdout.trim() === dir;
}

/** The remote's default branch, if it says: `name` as people write it (origin/main), `ref` in
 * full (refs/remotes/origin/main), which is what git is given: the remote chose the name. */
export async function defaultBranch(repo: string): Promise<{ name: string; ref: string } | undefined> {
  const remote = await remoteOf(repo);
  if (!remote) return undefined;
  const head = await git(repo, ["symbolic-ref", "--quiet", "--end-of-options", `refs/remotes/${remote}/HEAD`]);
  const ref = head.stdout.trim();
  if (head.code === 0 && ref.startsWith("refs/remotes/")) return { name: ref.slice("refs/remotes/".length), ref };
  for (const b of ["main", "master"]) if (await hasRef(repo, `refs/remotes/${remote}/${b}`)) return { name: `${remote}/${b}`, ref: `refs/remotes/${remote}/${b}` };
  return undefined;
}

/** Undo a worktree made for a request that then failed: the tree, and a branch made for it. */
export async function undoWorktree(w: Worktree): Promise<void> {
  await git(w.repo, ["worktree", "remove", "--force", "--end-of-options", w.dir]);
  if (w.newBranch) await git(w.repo, ["branch", "-D", "--end-of-options", w.branch]);
  await rmdir(dirname(w.dir)).catch(() => {}); // the repo's directory of worktrees, when it is empty now
}

/** The copy list: the template's, plus the repo's .worktreeinclude (one path a line, # comments). */
export async function copyList(repo: string, fromTemplate: string[]): Promise<string[]> {
  const out = [...fromTemplate];
  for (const raw of (await readWorktreeInclude(repo)).split("\n")) {
    const line = raw.trim();
    if (!line || line.startsWith("#")) continue;
    const problem = copyProblem(line);
    if (problem) log.warn(`${repo}/.worktreeinclude: skipped ${JSON.stringify(line)}: it ${problem}`);
    else if (!out.includes(line)) out.push(line);
  }
  return out;
}

/** Copy each listed path that exists in the main clone into the worktree (modes kept), following
 * no symbolic link out of either (copy.ts: path_escapes names the one that would). */
export const copyFiles = copyIntoWorktree;

/** Run each setup command in the worktree, in order; the first that fails stops with its output. */
export async function runSetup(commands: string[][], dir: string, env: Record<string, string>): Promise<void> {
  for (const argv of commands) {
    const r = await run(argv, { cwd: dir, env, timeoutMs: 15 * 60_000 });
    if (r.code !== 0) {
      const said = (r.stderr || r.stdout).trim().split("\n").slice(-5).join("\n");
      throw new WsError(`setup command ${JSON.stringify(argv)} failed (exit status ${r.code})${said ? `:\n${said}` : ""}`, "setup_failed");
    }
  }
}

/** Why `ws done` should not remove the worktree yet, or undefined. A review's commits count only
 * when they are on no other branch either (the reviewed branch may be local only). */
export async function unfinishedWork(dir: string, o: { review?: boolean } = {}): Promise<WsError | undefined> {
  if (!(await exists(dir))) return undefined;
  const status = await git(dir, ["status", "--porcelain"]);
  if (status.code !== 0) return undefined; // not a worktree any more: nothing to lose
  const changed = status.stdout.split("\n").filter(Boolean);
  if (changed.length)
    return new WsError(
      `${dir} has uncommitted changes (${changed.length} ${changed.length === 1 ? "file" : "files"}: ${changed.slice(0, 3).map((l) => l.slice(3)).join(", ")}${changed.length > 3 ? ", …" : ""}): commit and push them, or ws done --force to throw them away`,
      "uncommitted_changes",
    );
  const branch = (await git(dir, ["rev-parse", "--abbrev-ref", "HEAD"])).stdout.trim();
  const others = o.review ? [`--exclude=refs/heads/${branch}`, "--branches"] : [];
  const unpushed = await git(dir, ["rev-list", "--count", "HEAD", "--not", "--remotes", ...others]);
  const n = Number(unpushed.stdout.trim());
  if (unpushed.code === 0 && n > 0)
    return new WsError(`${n} ${n === 1 ? "commit" : "commits"} on ${branch} ${n === 1 ? "is" : "are"} on no remote branch: push them (git push -u origin ${branch}), or ws done --force to leave them only in the branch`, "unpushed_commits");
  return undefined;
}

/** Remove the worktree (never its branch). Without force git refuses one with changes, checking
 * as it removes: that refusal is uncommitted_changes, any other failure git_failed. */
export async function removeWorktree(repo: string, dir: string, force: boolean, root?: string): Promise<void> {
  if (!(await exists(dir))) {
    await git(repo, ["worktree", "prune"]);
    return;
  }
  if (!(await exists(join(dir, ".git")))) {
    // Partly removed before (a file appeared while git deleted it): git knows it no more. The rest
    // goes only when forced, and only inside ws's own worktrees directory.
    if (!force || root === undefined || !dir.startsWith(root.replace(/\/*$/, "/")))
      throw new WsError(`${dir} was partly removed and is no git worktree any more: ws done --force removes the rest`, "git_failed");
    await rm(dir, { recursive: true, force: true });
    await git(repo, ["worktree", "prune"]);
    return;
  }
  const r = await git(repo, ["worktree", "remove", ...(force ? ["--force", "--force"] : []), "--end-of-options", dir]);
  if (r.code === 0) return;
  const said = gitSaid(r);
  const partly = (await exists(dir)) && !(await exists(join(dir, ".git"))) ? " (git removed part of it)" : "";
  if (/modified or untracked files/.test(said))
    throw new WsError(`${dir} changed while ws done ran: git refused to remove it (${said}). The workstream stays: commit and push the changes, or ws done --force to throw them away`, "uncommitted_changes");
  throw new WsError(`removing the worktree ${dir} failed${partly}: git worktree remove said: ${said}. The workstream stays: ws done again, or --force`, "git_failed");
}

export const repoName = (repo: string) => basename(repo);
