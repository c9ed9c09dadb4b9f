// Workstream commands beyond single messages: ws new (new_workstream sent at v6, so failures come
// back), ws done (a caller inside the workstream may lose its connection with its tab), ws review
// (the worktree and its pr.md here, then open_review), ws pr comments, ws templates.
import { CliError, clientFailure, errorText, noServerError, print, printError, printResult, send, show, sock, globals } from "./common";
import { readStdinBounded } from "../safe-file";
import { MAX_PROMPT_CHARS } from "../features/agents/queue";
import { EXIT_USAGE } from "./exit-status";
import type { HandlerInput } from "./handlers";
import { request, NoServer } from "../client/request";
import { WsError } from "../protocol/errors";

/** new_workstream as a request: sent at v6 it waits for the tab (or the error). */
const NEW_WORKSTREAM_REQUEST = { since: 6, longRunning: true, stream: false };

export async function newWorkstream({ fields }: HandlerInput): Promise<void> {
  if (fields.branch !== undefined && fields.pr !== undefined) throw new CliError("give --branch or --pr, not both");
  // The server resolves nothing against this shell's directory: a relative --repo is made absolute here.
  if (typeof fields.repo === "string" && !fields.repo.startsWith("/") && !globals.hosts) fields.repo = `${process.cwd()}/${fields.repo}`;
  // --prompt -: the first prompt from stdin.
  if (fields.prompt === "-") fields.prompt = (await readStdinBounded(MAX_PROMPT_CHARS * 4)).toString("utf8").replace(/\r?\n$/, "");
  const reply = await send("new_workstream", fields, NEW_WORKSTREAM_REQUEST);
  // The agent's pane alone on stdout, for scripts (pane=$(ws new …)); what was made, on stderr.
  if (!globals.json) printError(`workstream ${fields.name}: pane ${reply.pane} in ${reply.workspace}, worktree ${reply.dir} on branch ${reply.branch}${reply.prompt !== undefined ? `; prompt ${reply.prompt} queued for its agent` : ""}`);
  show(reply, String(reply.pane));
}

export async function done({ fields }: HandlerInput): Promise<void> {
  const { whichWorkstream, whichFields } = await import("../features/workstreams/which");
  const here = process.env.WS_WORKSTREAM || undefined;
  const which = whichWorkstream(fields.name as string | undefined);
  if (!which) throw new CliError("which workstream? ws done NAME (or run it inside one: $WS_WORKSTREAM, or a directory in its worktree)", EXIT_USAGE, "usage");
  const name = "name" in which ? which.name : undefined;
  const pane = "pane" in which ? which.pane : undefined;
  // Asked from inside the workstream's tab, the tab (and this connection) may close before the reply.
  const inside = (name !== undefined && name === here) || pane !== undefined;
  const msg = { v: 6, type: "workstream_done", ...whichFields(which), force: fields.force === true };
  let reply;
  try {
    reply = await request(sock(), msg, globals.timeoutMs ?? 10 * 60_000);
  } catch (e) {
    if (e instanceof NoServer) throw noServerError(e);
    if (inside) return;
    throw clientFailure(e);
  }
  if (reply.type === "error") throw new CliError(errorText(reply), 1, String(reply.code ?? "internal"), reply);
  show(reply, `workstream ${name ?? `of pane ${pane}`} is done: its worktree is removed and its tab closed (the branch stays)`);
}

/** A workstream error from code running here (git, templates) as the CLI's error. */
function local<T>(p: Promise<T>): Promise<T> {
  return p.catch((e) => {
    throw e instanceof WsError ? new CliError(e.message, 1, e.code) : e;
  });
}

export async function review({ fields }: HandlerInput): Promise<void> {
  const { prepareReview } = await import("../features/workstreams/review");
  const msg = await local(prepareReview(String(fields.target), { cwd: process.cwd(), fresh: fields.fresh === true, template: String(fields.template ?? "review"), focus: fields.no_focus !== true }));
  const reply = await send("open_review", { ...msg });
  show(reply, `review ${msg.name}: pane ${reply.pane} in ${msg.workspace}, worktree ${msg.dir}`);
}

export async function prComments({ fields }: HandlerInput): Promise<void> {
  const { onPath } = await import("../features/workstreams/git");
  if (!onPath("gh")) throw new CliError("ws pr comments reads review comments through the GitHub CLI (gh), which is not installed here: install it and run gh auth login");
  const { currentPr, unresolvedComments } = await import("../features/workstreams/review");
  const pr = (fields.pr as number | undefined) ?? (await currentPr(process.cwd()));
  if (pr === undefined) throw new CliError("which PR? ws pr comments N (no pr.json of a review here, and gh found none for this branch)", EXIT_USAGE, "usage");
  const pane = fields.pane as number | undefined;
  if (pane === undefined) throw new CliError("run it in a pane of the review's tab, or give --pane N");
  const found = await local(unresolvedComments(pr, process.cwd()));
  if (!found) return print(`PR #${pr} has no unresolved review comments`);
  const reply = await send("agent_send", { pane, text: found.text });
  show(reply, `sent ${found.count} unresolved review ${found.count === 1 ? "thread" : "threads"} of PR #${pr} to the agent in pane ${reply.pane}`);
}

export async function templatesList(): Promise<void> {
  const { listTemplates } = await import("../features/workstreams/templates");
  const list = await listTemplates();
  if (globals.json) return printResult("templates", { templates: list });
  print(list.map((t) => `${t.name.padEnd(16)} ${t.file ?? "(built in)"}`).join("\n"));
}

export async function templatesShow({ fields }: HandlerInput): Promise<void> {
  const { loadTemplate } = await import("../features/workstreams/templates");
  const t = await local(loadTemplate(String(fields.name)));
  if (globals.json) return printResult("template", { name: t.name, file: t.file ?? null, text: t.text });
  print(t.text.replace(/\n$/, ""));
}

/** ws diff [NAME]: the workstream's worktree as it is now (committed, uncommitted and untracked
 * work: worktreeChanges, as ws fan status and compare see it) against its base, the commit where
 * its branch left the remote's default branch (else HEAD). Runs here, on the worktree. */
export async function diff({ fields }: HandlerInput): Promise<void> {
  const { whichWorkstream, worktreeDirOf } = await import("../features/workstreams/which");
  const { defaultBranch, repoName, repoRoot, worktreesRoot } = await import("../features/workstreams/worktree");
  const { worktreeChanges } = await import("../features/workstreams/fan-changes");
  const { git, gitOk } = await import("../features/workstreams/git");
  const which = whichWorkstream(fields.name as string | undefined, { usePane: false });
  if (!which || !("name" in which)) throw new CliError("which workstream? ws diff NAME (or run it inside one: $WS_WORKSTREAM, or a directory in its worktree)", EXIT_USAGE, "usage");
  const here = await local(repoRoot(process.cwd()).then(repoName)).catch(() => undefined);
  const dir = which.from === "cwd" ? (await git(process.cwd(), ["rev-parse", "--show-toplevel"])).stdout.trim() : worktreeDirOf(which.name, here);
  if (!dir) throw new CliError(`no workstream "${which.name}": no worktree of that name under ${worktreesRoot()}`, 1, "not_a_workstream");
  await local(
    (async () => {
      const def = await defaultBranch(await repoRoot(dir));
      const fork = def ? await git(dir, ["merge-base", "HEAD", "--end-of-options", def.ref]) : undefined;
      const base = fork && fork.code === 0 ? fork.stdout.trim() : await gitOk(dir, ["rev-parse", "--verify", "HEAD^{commit}"], "ws diff");
      const ch = await worktreeChanges(dir, base);
      const text = await gitOk(dir, ["diff", "--no-color", "--no-ext-diff", "--no-textconv", "--end-of-options", base, ch.tree], "ws diff");
      if (globals.json) return printResult("diff", { workstream: which.name, dir, base, tree: ch.tree, files: ch.files, added: ch.added, removed: ch.removed, paths: ch.paths, diff: text });
      print(text ? text.replace(/\n$/, "") : `workstream ${which.name}: no changes since ${base.slice(0, 12)}`);
    })(),
  );
}

/** ws review note TEXT: the note joins the workstream's agent's prompt queue (agent_send with
 * when idle): typed at once when the agent waits for input, else when it next does. */
export async function reviewNote({ fields }: HandlerInput): Promise<void> {
  const { whichWorkstream } = await import("../features/workstreams/which");
  const which = whichWorkstream(fields.name as string | undefined, { usePane: false });
  if (!which || !("name" in which)) throw new CliError("which workstream? ws review note TEXT --name NAME (or run it inside one: $WS_WORKSTREAM, or a directory in its worktree)", EXIT_USAGE, "usage");
  const reply = await send("agent_send", { to: which.name, text: String(fields.text), when: "idle" });
  show(reply, reply.queued ? `queued for the agent of ${which.name} (pane ${reply.pane}): its next prompt (ws agent queue shows it)` : `typed into the agent of ${which.name} (pane ${reply.pane})`);
}
