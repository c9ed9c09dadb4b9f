// ws ship: runs here, in the CLI process, on the workstream's worktree (local to the CLI): the
// checkout this runs in, or with --name the workstream's worktree next to it. No event is sent
// (the `ship` message, sent to the server, ships there and publishes `shipped`).
import { basename, dirname, join } from "node:path";
import { CliError, globals, print, printJson } from "./common";
import type { HandlerInput } from "./handlers";
import { WsError } from "../protocol/errors";
import { safeText } from "../safe-text";

/** The workstream a checkout under $WS_WORKTREES/REPO/NAME is (for its checkpoint prompts). */
async function worktreeName(dir: string, root: string): Promise<string | undefined> {
  const { git } = await import("../features/workstreams/git");
  const top = (await git(dir, ["rev-parse", "--show-toplevel"])).stdout.trim();
  return top && dirname(dirname(top)) === root ? basename(top) : undefined;
}

export async function ship({ fields }: HandlerInput): Promise<void> {
  const { ship: shipIt } = await import("../features/workstreams/ship");
  const { repoName, repoRoot, worktreesRoot, isWorktree } = await import("../features/workstreams/worktree");
  try {
    let dir = process.cwd();
    const name = fields.name as string | undefined;
    if (name !== undefined) {
      if (!/^[A-Za-z0-9._-]+$/.test(name) || name.startsWith(".")) throw new CliError(`--name ${JSON.stringify(name)} is not a workstream's name`, 2, "usage");
      dir = join(worktreesRoot(), repoName(await repoRoot(process.cwd())), name);
      if (!(await isWorktree(dir))) throw new CliError(`no workstream "${name}" of this repository: its worktree would be ${dir}`, 1, "not_a_workstream");
    }
    const shown = (s: string) => print(safeText(s));
    const workstream = name ?? (process.env.WS_WORKSTREAM || (await worktreeName(dir, worktreesRoot())));
    const r = await shipIt(dir, {
      ...(workstream ? { workstream } : {}),
      ...(typeof fields.message === "string" ? { message: fields.message } : {}),
      push: fields.push === true,
      pr: fields.pr === true,
      draft: fields.draft === true,
      asUser: true,
      onStaged: globals.json ? undefined : (summary) => shown(`staged in ${dir}:\n${summary}`),
    });
    if (globals.json) return printJson(r);
    if (r.commit) shown(`committed ${r.commit.slice(0, 12)} on ${r.branch}`);
    if (r.pushed) shown(`pushed ${r.branch} to ${r.remote}`);
    else if (r.unpushed) shown(`${r.unpushed} ${r.unpushed === 1 ? "commit" : "commits"} not pushed: ws ship --push`);
    if (r.pr) shown(`opened PR ${r.pr}`);
  } catch (e) {
    throw e instanceof WsError ? new CliError(e.message, 1, e.code) : e;
  }
}
