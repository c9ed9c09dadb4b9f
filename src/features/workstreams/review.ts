// ws review's client side: the review's worktree (a review branch at the PR's or branch's head)
// and .ws/pr.md (title, body, files and checks from gh when it is installed, from git alone
// otherwise), then the open_review message for the server to lay out. Also the PR's unresolved
// review comments for ws pr comments.
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { WsError } from "../../protocol/errors";
import { DEFAULT_REVIEW_COMMAND, fill, loadTemplate } from "./templates";
import { defaultBranch, excludeWsDir, isWorktree, makeWorktree, repoName, repoRoot, reviewBranchWorktree, worktreesRoot } from "./worktree";
import { git, gitSaid, onPath, run } from "./git";
import type { OpenReview } from "./service";
import { charClass, safeText } from "../../safe-text";
import { pathNameProblem } from "../../protocol/names";

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
  const r = await run(["gh", "pr", "view", ref, "--json", GH_FIELDS], { cwd, timeoutMs: 30_000 });
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

/** .ws/pr.md from gh's answer, or from git alone. */
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
  const range = base ? `${base}...HEAD` : "HEAD~1...HEAD";
  const log = await git(dir, ["log", "--format=- %h %s", base ? `${base}..HEAD` : "-1"]);
  const files = await git(dir, ["diff", "--numstat", range]);
  out.push(`# ${target}`, "", `(gh is not installed: from git alone${base ? `, against ${base}` : ""})`, "");
  out.push("## Commits", "", log.stdout.trim() || "(none)", "");
  const rows = files.stdout.trim().split("\n").filter(Boolean).map((l) => {
    const [a, d, path] = l.split("\t");
    return `- ${path} (+${a} −${d})`;
  });
  out.push("## Files", "", ...(rows.length ? rows : ["(none)"]), "", "## Checks", "", "(unknown without gh)", "");
  return out.join("\n");
}


/** Make (or reuse) the review's worktree, write .ws/pr.md, and return open_review's fields. */
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
  await mkdir(join(dir, ".ws"), { recursive: true });
  await excludeWsDir(dir);
  await writeFile(join(dir, ".ws", "pr.md"), await prMarkdown(dir, pr !== undefined ? `PR ${pr}` : target, meta));
  const number = meta?.number ?? pr;
  await writeFile(join(dir, ".ws", "pr.json"), JSON.stringify({ number: number ?? null, url: meta?.url ?? null, branch: meta?.headRefName ?? target }) + "\n");
  const vars: Record<string, string> = {
    pr: number !== undefined ? String(number) : "",
    url: meta?.url ?? "",
    context: join(dir, ".ws", "pr.md"),
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

/** The PR this checkout reviews or works on: .ws/pr.json (ws review wrote it), else gh's guess. */
export async function currentPr(cwd: string): Promise<number | undefined> {
  try {
    const top = await repoRoot(cwd);
    const n = JSON.parse(await readFile(join(top, ".ws", "pr.json"), "utf8")).number;
    if (Number.isSafeInteger(n)) return n;
  } catch {}
  const r = await run(["gh", "pr", "view", "--json", "number"], { cwd, timeoutMs: 30_000 });
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
  const r = await run(["gh", "api", "graphql", "-f", `query=${THREADS_QUERY}`, "-F", "owner={owner}", "-F", "name={repo}", "-F", `number=${pr}`], { cwd, timeoutMs: 60_000 });
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
