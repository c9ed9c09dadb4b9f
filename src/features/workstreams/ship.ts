// ws ship: turn a workstream's worktree into a commit, a pushed branch and a PR. Runs in the CLI
// process (the worktree is local to it), git and gh through argv arrays (git.ts). Every refusal
// is checked before anything changes, and says what to do instead. The branch's name is whoever
// made it's choice (a PR's head): it goes to git only after --end-of-options, pushed as a full
// refspec, and one starting with "-" is refused.
import { WsError } from "../../protocol/errors";
import { gh, git, gitOk, gitSaid, onPath, optionName, userGit } from "./git";
import { defaultBranch, remoteOf } from "./worktree";
import { checkpointRoot, listCheckpoints } from "./checkpoints";

export interface ShipOptions {
  message?: string;
  push: boolean;
  pr: boolean;
  draft: boolean;
  /** Told the staged summary (git diff --cached --stat) before the commit is made. */
  onStaged?: (summary: string) => void;
  /** The workstream, whose last checkpoint prompts make the PR's body. */
  workstream?: string;
  /** Commit and push as the person's own git would (their hooks, their environment): ws ship in
   * their shell. Without it (the server's ship) git runs no repo hook. */
  asUser?: boolean;
}

/** Checkpoint prompts that go into a PR's body, newest last. */
const PR_PROMPTS = 5;

export interface Shipped {
  dir: string;
  branch: string;
  /** The commit made, when there was something to commit. */
  commit?: string;
  /** git diff --cached --stat of that commit. */
  summary?: string;
  /** Commits on the branch that no remote branch has, after the commit (0 once pushed). */
  unpushed: number;
  remote?: string;
  pushed: boolean;
  /** What gh pr create printed: the PR's URL. */
  pr?: string;
}

const refuse = (message: string) => new WsError(message, "ship_refused");

async function count(dir: string, args: string[]): Promise<number> {
  const r = await git(dir, ["rev-list", "--count", ...args]);
  return r.code === 0 ? Number(r.stdout.trim()) : 0;
}

/** The body's first part: the prompts that started the workstream's last turns (its checkpoints'
 * oldest of them first), the ones ws itself wrote (a restore's) left out; none without checkpoints. */
async function promptsPart(dir: string, workstream: string | undefined): Promise<string[]> {
  if (workstream === undefined) return [];
  const texts = (await listCheckpoints({ root: checkpointRoot(), dir, ws: workstream }).catch(() => []))
    .filter((c) => !c.after) // a turn's end repeats its prompt
    .map((c) => c.text)
    .filter((t) => t && !/^before restore to checkpoint \d+$/.test(t));
  const last = texts.slice(-PR_PROMPTS);
  return last.length ? ["Prompts:", "", ...last.map((t) => `- ${t}`), ""] : [];
}

/** What a ship would do, found before anything changes; every refusal is thrown from here. */
export interface ShipPlan {
  dir: string;
  branch: string;
  /** The remote to push to, with push or pr. */
  remote?: string;
  /** Whether the worktree has something to commit (git status --porcelain). */
  changed: boolean;
  /** Commits on the branch that no remote branch has, now. */
  unpushed: number;
  /** With pr: the remote's default branch (origin/main), the PR's base. */
  base?: { name: string; ref: string };
}

/** Check a ship of the checkout `cwd` is in, changing nothing: the refusals, and what it would do. */
export async function planShip(cwd: string, o: ShipOptions): Promise<ShipPlan> {
  const top = await git(cwd, ["rev-parse", "--show-toplevel"]);
  if (top.code !== 0 || !top.stdout.trim()) throw new WsError(`${cwd} is not in a git repository: run ws ship inside the workstream's worktree, or give --name`, "not_a_repo");
  const dir = top.stdout.trim();
  const head = await git(dir, ["symbolic-ref", "--quiet", "--short", "HEAD"]);
  if (head.code !== 0) throw refuse(`HEAD is detached in ${dir}: put the work on a branch first (git switch -c NAME), then ws ship again`);
  const branch = head.stdout.trim();
  const bad = optionName(branch);
  if (bad) throw refuse(`the branch's name ${JSON.stringify(branch)} ${bad}: rename it (git branch -m -- NEW), then ws ship again`);
  const publish = o.push || o.pr;
  const remote = publish ? await remoteOf(dir) : undefined;
  if (publish && !remote) throw refuse(`${dir} has no remote to push ${branch} to: add one (git remote add origin URL), or ship without --push/--pr`);
  if (o.pr && !onPath("gh")) throw refuse("--pr opens the PR with the GitHub CLI (gh), which is not installed here: install it and run gh auth login, or ws ship --push and open the PR yourself");

  // --no-optional-locks: looking must not write the index (git status refreshes it otherwise).
  const changed = (await gitOk(dir, ["--no-optional-locks", "status", "--porcelain"], "ws ship")).length > 0;
  const base = o.pr ? await defaultBranch(dir) : undefined;
  const unpushed = await count(dir, ["HEAD", "--not", "--remotes"]);
  const aheadOfBase = base ? await count(dir, ["--end-of-options", `${base.ref}..HEAD`]) : unpushed;
  if (!changed) {
    if (!publish) throw refuse(`nothing to commit in ${dir}${unpushed ? `; ${unpushed} ${unpushed === 1 ? "commit waits" : "commits wait"} to be pushed: ws ship --push` : ""}`);
    if (unpushed === 0 && !(o.pr && aheadOfBase > 0)) throw refuse(`nothing to commit and nothing to push: ${branch} is on the remote as it is. Let the agent make changes first`);
  } else if (o.message === undefined || o.message.trim() === "") {
    throw refuse(`${dir} has changes to commit: give the commit's message with -m MSG`);
  }
  return { dir, branch, changed, unpushed, ...(remote ? { remote } : {}), ...(base ? { base } : {}) };
}

/** Ship the checkout `cwd` is in: see docs/workstreams.md (Ship). */
export async function ship(cwd: string, o: ShipOptions): Promise<Shipped> {
  const { dir, branch, remote, changed, base, unpushed } = await planShip(cwd, o);
  const publish = o.push || o.pr;
  const out: Shipped = { dir, branch, unpushed, pushed: false, ...(remote ? { remote } : {}) };
  const commitGit = o.asUser ? userGit : git;
  if (changed) {
    await gitOk(dir, ["add", "-A"], "ws ship");
    out.summary = (await gitOk(dir, ["diff", "--cached", "--stat", "--no-ext-diff", "--no-textconv"], "ws ship")).replace(/\n+$/, "");
    o.onStaged?.(out.summary);
    const c = await commitGit(dir, ["commit", "--quiet", "-m", o.message!]);
    if (c.code !== 0) throw new WsError(`ws ship: git commit failed (the changes stay staged): ${gitSaid(c)}`, "git_failed");
    out.commit = await gitOk(dir, ["rev-parse", "HEAD"], "ws ship");
    out.unpushed = await count(dir, ["HEAD", "--not", "--remotes"]);
  }
  if (!publish) return out;

  const p = await commitGit(dir, ["push", "--quiet", "-u", "--end-of-options", remote!, `refs/heads/${branch}:refs/heads/${branch}`], { timeoutMs: 300_000 });
  if (p.code !== 0) throw new WsError(`ws ship: git push -u ${remote} ${branch} failed${out.commit ? " (the commit is made)" : ""}: ${gitSaid(p)}`, "git_failed");
  out.pushed = true;
  out.unpushed = 0;
  if (!o.pr) return out;

  const baseName = base?.name.slice(base.name.indexOf("/") + 1);
  const range = base ? `${base.ref}..HEAD` : "HEAD";
  const subjects = (await gitOk(dir, ["log", "--reverse", "--format=%s", "--end-of-options", range], "ws ship")).split("\n").filter(Boolean).slice(0, 100);
  const title = o.message?.trim() || subjects[0] || branch;
  const body = [...(await promptsPart(dir, o.workstream)), "Commits:", "", ...subjects.map((s) => `- ${s}`)].join("\n");
  // Each value joined to its flag: a title or body starting with "-" stays that flag's value.
  const argv = ["pr", "create", `--head=${branch}`, `--title=${title}`, `--body=${body}`, ...(baseName ? [`--base=${baseName}`] : []), ...(o.draft ? ["--draft"] : [])];
  const g = await gh(dir, argv, { timeoutMs: 120_000 });
  if (g.code !== 0) throw new WsError(`ws ship: gh pr create failed (${branch} is pushed): ${gitSaid(g)}`, "git_failed");
  out.pr = g.stdout.trim().split("\n").pop();
  return out;
}
