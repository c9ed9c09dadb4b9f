// ws review's client side: the review's worktree (a review branch at the PR's or branch's head)
// and pr.md (title, body, files and checks from gh when it is installed, from git alone
// otherwise), then the open_review message for the server to lay out. Also the PR's unresolved
// review comments for ws pr comments. ws's notes about a review (pr.md, pr.json) live where git
// keeps the worktree's own files (`git rev-parse --git-path ws`), never in the checked-out tree,
// whose files and links are the PR's: written following no link, read back through safe-file.
import { join } from "node:path";
import { WsError } from "../../protocol/errors";
import { FileReadError, readTextFileAsync } from "../../safe-file";
import { WriteRefused, writeFileInside } from "../../safe-write";
import { DEFAULT_REVIEW_COMMAND, fill, loadTemplate } from "./templates";
import { defaultBranch, isWorktree, makeWorktree, repoName, repoRoot, reviewBranchWorktree, worktreesRoot } from "./worktree";
import { gh, git, gitSaid, onPath } from "./git";
import type { OpenReview } from "./service";
import { charClass, safeText } from "../../safe-text";
import { pathNameProblem } from "../../protocol/names";
import { log } from "../../log";

type Env = Record<string, string | undefined>;

interface PrMeta {
  number?: number;
  title?: string;
  body?: string;
  url?: string;
  headRefName?: string;
  baseRefName?: string;
  files?: { path: string; additions?: number; deletions?: number }[];
  statusCheckRollup?: { name?: string; context?: string; conclusion?: string; state?: string; status?: string }[];
}

const GH_FIELDS = "number,title,body,url,headRefName,baseRefName,files,statusCheckRollup";

/** What gh says of a PR (by number or branch), or undefined without gh or an answer. */
async function ghPr(ref: string, cwd: string): Promise<PrMeta | undefined> {
  if (!onPath("gh")) return undefined;
  const r = await gh(cwd, ["pr", "view", "--json", GH_FIELDS, "--", ref], { timeoutMs: 30_000 });
  if (r.code !== 0) return undefined;
  try {
    return JSON.parse(r.stdout) as PrMeta;
  } catch {
    return undefined;
  }
}

const notInNames = () => charClass(["c0", "del", "c1", "zeroWidth", "bidiMarks", "lineSeparators", "bidiEmbeddings", "bidiIsolates"], "g");

/** A name held to the name rule: no control characters, not too long. */
function plainName(s: string, max = 80): string {
  const clean = s.replace(notInNames(), " ").replace(/\s+/g, " ").trim();
  return clean.length > max ? clean.slice(0, max - 1) + "…" : clean;
}

/** pr.md from gh's answer, or from git alone. */
async function prMarkdown(dir: string, target: string, meta: PrMeta | undefined): Promise<string> {
  const out: string[] = [];
  if (meta) {
    out.push(`# ${meta.number !== undefined ? `#${meta.number} ` : ""}${meta.title ?? target}`, "");
    if (meta.url) out.push(meta.url, "");
    if (meta.headRefName) out.push(`Branch: ${meta.headRefName}${meta.baseRefName ? ` → ${meta.baseRefName}` : ""}`, "");
    out.push("## Description", "", meta.body?.trim() || "(none)", "");
    out.push("## Files", "", ...(meta.files?.length ? meta.files.map((f) => `- ${f.path} (+${f.additions ?? 0} −${f.deletions ?? 0})`) : ["(none listed)"]), "");
    const checks = meta.statusCheckRollup ?? [];
    out.push("## Checks", "", ...(checks.length ? checks.map((c) => `- ${c.name ?? c.context ?? "check"}: ${(c.conclusion || c.state || c.status || "pending").toLowerCase()}`) : ["(none)"]), "");
    return out.join("\n");
  }
  // git alone: what the branch adds over the default branch.
  const base = await defaultBranch(dir);
  const range = base ? `${base.ref}...HEAD` : "HEAD~1...HEAD";
  const log = await git(dir, ["log", "--format=- %h %s", ...(base ? ["--end-of-options", `${base.ref}..HEAD`] : ["-1"])]);
  const files = await git(dir, ["diff", "--numstat", "--no-ext-diff", "--no-textconv", "--end-of-options", range]);
  out.push(`# ${target}`, "", `(gh is not installed: from git alone${base ? `, against ${base.name}` : ""})`, "");
  out.push("## Commits", "", log.stdout.trim() || "(none)", "");
  const rows = files.stdout.trim().split("\n").filter(Boolean).map((l) => {
    const [a, d, path] = l.split("\t");
    return `- ${path} (+${a} −${d})`;
  });
  out.push("## Files", "", ...(rows.length ? rows : ["(none)"]), "", "## Checks", "", "(unknown without gh)", "");
  return out.join("\n");
}


/** The directory of ws's notes about the worktree `dir` is in: `ws` in its git directory, which
 * git made and keeps (the checked-out tree can't put a link there), and which goes with it. */
export async function metaDir(dir: string): Promise<{ root: string; rel: string; path: string }> {
  const r = await git(dir, ["rev-parse", "--absolute-git-dir"]);
  if (r.code !== 0 || !r.stdout.trim()) throw new WsError(`${dir} is not in a git repository: ${gitSaid(r)}`, "not_a_repo");
  const root = r.stdout.trim();
  return { root, rel: "ws", path: join(root, "ws") };
}

/** A note of ws's about a review, written into its git directory following no link. */
async function writeNote(dir: string, name: string, text: string): Promise<string> {
  const meta = await metaDir(dir);
  try {
    await writeFileInside(meta.root, `${meta.rel}/${name}`, text);
  } catch (e) {
    if (e instanceof WriteRefused) throw new WsError(`can't write the review's ${name}: ${e.message}. Remove it (ws review writes it afresh)`, "path_escapes", { param: "target" });
    throw e;
  }
  return join(meta.path, name);
}

/** Make (or reuse) the review's worktree, write pr.md and pr.json beside its git files, and return
 * open_review's fields. */
export async function prepareReview(target: string, o: { cwd: string; fresh: boolean; template: string; focus: boolean; env?: Env }): Promise<OpenReview> {
  const env = o.env ?? process.env;
  if (target.startsWith("-")) throw new WsError(`can't review ${JSON.stringify(target)}: a PR number or a branch name does not start with -`, "invalid_params", { param: "target" });
  const repo = await repoRoot(o.cwd);
  const pr = /^#?\d+$/.test(target) ? Number(target.replace("#", "")) : undefined;
  const meta = await ghPr(pr !== undefined ? String(pr) : target, repo);
  // The name names the review's directory: one plain path component (a branch's / and .. go).
  const label = pr !== undefined ? String(pr) : target.replace(/[^A-Za-z0-9._-]+/g, "-").replace(/\.{2,}/g, "-");
  const name = `review-${repoName(repo)}-${label}`;
  const bad = pathNameProblem(name);
  if (bad) throw new WsError(`can't review ${JSON.stringify(target)}: the review's name ${JSON.stringify(name)} ${bad}`, "invalid_params", { param: "target" });
  const dir = join(worktreesRoot(env), repoName(repo), name);
  let branch: string;
  if (await isWorktree(dir)) {
    branch = (await git(dir, ["rev-parse", "--abbrev-ref", "HEAD"])).stdout.trim();
  } else if (pr !== undefined) {
    branch = (await makeWorktree({ repo, dir, name, pr, prBranch: `review/pr-${pr}` })).branch;
  } else {
    branch = (await reviewBranchWorktree(repo, dir, target)).branch;
  }
  const context = await writeNote(dir, "pr.md", await prMarkdown(dir, pr !== undefined ? `PR ${pr}` : target, meta));
  const number = meta?.number ?? pr;
  await writeNote(dir, "pr.json", JSON.stringify({ number: number ?? null, url: meta?.url ?? null, branch: meta?.headRefName ?? target }) + "\n");
  const vars: Record<string, string> = {
    pr: number !== undefined ? String(number) : "",
    url: meta?.url ?? "",
    context,
    review_command: env.WS_REVIEW_COMMAND ?? DEFAULT_REVIEW_COMMAND,
  };
  const template = await loadTemplate(o.template, env);
  const titleText = meta?.title ? `${repoName(repo)}#${number} ${meta.title}` : pr !== undefined ? `${repoName(repo)}#${pr}` : `${repoName(repo)} ${target}`;
  return {
    workspace: plainName(fill(template.workspace ?? "PR Review", { ...vars, name, dir, repo, branch })) || "PR Review",
    title: plainName(titleText, 60),
    name,
    template: o.template,
    repo,
    dir,
    branch: meta?.headRefName ?? (pr === undefined ? target : branch),
    vars: Object.entries(vars),
    fresh: o.fresh,
    focus: o.focus,
  };
}

// ---- ws pr comments --------------------------------------------------------------------------

const THREADS_QUERY = `query($owner: String!, $name: String!, $number: Int!) {
  repository(owner: $owner, name: $name) { pullRequest(number: $number) {
    reviewThreads(first: 100) { nodes { isResolved path line comments(first: 20) { nodes { author { login } body } } } }
  } }
}`;

interface Thread {
  isResolved?: boolean;
  path?: string;
  line?: number | null;
  comments?: { nodes?: { author?: { login?: string } | null; body?: string }[] };
}

/** pr.json is a line of JSON; anything bigger is not ws's. */
const MAX_PR_JSON = 64 * 1024;

/** The PR this checkout reviews or works on: the review's own pr.json (ws review wrote it beside
 * this worktree's git files), else gh's guess. */
export async function currentPr(cwd: string): Promise<number | undefined> {
  const meta = await metaDir(cwd).catch(() => undefined);
  if (meta) {
    const file = join(meta.path, "pr.json");
    try {
      const n = JSON.parse(await readTextFileAsync(file, MAX_PR_JSON, true)).number;
      if (Number.isSafeInteger(n)) return n;
    } catch (e) {
      if (e instanceof FileReadError && e.code !== "ENOENT") log.warn(`ignored ${e.message}`);
    }
  }
  const r = await gh(cwd, ["pr", "view", "--json", "number"], { timeoutMs: 30_000 });
  if (r.code === 0) {
    try {
      const n = JSON.parse(r.stdout).number;
      if (Number.isSafeInteger(n)) return n;
    } catch {}
  }
  return undefined;
}

/** The request to the agent for PR `pr`'s unresolved review comments, or undefined for none. */
export async function unresolvedComments(pr: number, cwd: string): Promise<{ text: string; count: number } | undefined> {
  const r = await gh(cwd, ["api", "graphql", "-f", `query=${THREADS_QUERY}`, "-F", "owner={owner}", "-F", "name={repo}", "-F", `number=${pr}`], { timeoutMs: 60_000 });
  if (r.code !== 0) throw new WsError(`gh could not read PR ${pr}'s review comments: ${gitSaid(r)}`, "git_failed");
  let threads: Thread[];
  try {
    threads = JSON.parse(r.stdout).data.repository.pullRequest.reviewThreads.nodes ?? [];
  } catch {
    throw new WsError(`gh answered something that is not PR ${pr}'s review threads`, "git_failed");
  }
  const open = threads.filter((t) => !t.isResolved && t.comments?.nodes?.length);
  if (!open.length) return undefined;
  const items = open.map((t, i) => {
    const [first, ...replies] = t.comments!.nodes!;
    // Reviewers wrote these, and they are typed into the agent's terminal: a control character
    // (^C, ESC, CR) must arrive as text the agent reads, never as a key it obeys.
    const where = t.path ? safeText(`${t.path}${t.line ? `:${t.line}` : ""}`) : "(general)";
    const said = (c: { author?: { login?: string } | null; body?: string }) => safeText(`${c.author?.login ?? "someone"}: ${(c.body ?? "").trim()}`);
    return [`${i + 1}. ${where} — ${said(first!)}`, ...replies.map((c) => `   reply from ${said(c)}`)].join("\n");
  });
  return { count: open.length, text: `Address these unresolved review comments on PR #${pr}, then reply to or resolve each:\n\n${items.join("\n\n")}` };
}
