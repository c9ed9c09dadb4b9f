// ws ship: runs here, in the CLI process, on the workstream's worktree (local to the CLI): the
// checkout this runs in, or with --name the workstream's worktree next to it. No event is sent
// (the `ship` message, sent to the server, ships there and publishes `shipped`).
import { CliError, globals, print, printResult } from "./common";
import type { HandlerInput } from "./handlers";
import { WsError } from "../protocol/errors";
import { safeText } from "../safe-text";

export async function ship({ fields }: HandlerInput): Promise<void> {
  const { ship: shipIt } = await import("../features/workstreams/ship");
  const { repoName, repoRoot, worktreesRoot, isWorktree } = await import("../features/workstreams/worktree");
  try {
    const { whichWorkstream, worktreeDirOf } = await import("../features/workstreams/which");
    let dir = process.cwd();
    const given = fields.name as string | undefined;
    if (given !== undefined && (!/^[A-Za-z0-9._-]+$/.test(given) || given.startsWith("."))) throw new CliError(`--name ${JSON.stringify(given)} is not a workstream's name`, 2, "usage");
    // The one rule (which.ts); the pane's tab is the server's to know, so it is not asked here.
    const which = whichWorkstream(given, { usePane: false });
    const workstream = which && "name" in which ? which.name : undefined;
    if (which && "name" in which && which.from !== "cwd") {
      const here = await repoRoot(process.cwd()).then(repoName, () => undefined);
      const found = worktreeDirOf(which.name, here);
      if (found === undefined || !(await isWorktree(found))) throw new CliError(`no workstream "${which.name}"${which.from === "env" ? " ($WS_WORKSTREAM)" : ""}: no worktree of that name under ${worktreesRoot()}`, 1, "not_a_workstream");
      dir = found;
    }
    const shown = (s: string) => print(safeText(s));
    const r = await shipIt(dir, {
      ...(workstream ? { workstream } : {}),
      ...(typeof fields.message === "string" ? { message: fields.message } : {}),
      push: fields.push === true,
      pr: fields.pr === true,
      draft: fields.draft === true,
      asUser: true,
      onStaged: globals.json ? undefined : (summary) => shown(`staged in ${dir}:\n${summary}`),
    });
    if (globals.json) return printResult("shipped", { ...r });
    if (r.commit) shown(`committed ${r.commit.slice(0, 12)} on ${r.branch}`);
    if (r.pushed) shown(`pushed ${r.branch} to ${r.remote}`);
    else if (r.unpushed) shown(`${r.unpushed} ${r.unpushed === 1 ? "commit" : "commits"} not pushed: ws ship --push`);
    if (r.pr) shown(`opened PR ${r.pr}`);
  } catch (e) {
    throw e instanceof WsError ? new CliError(e.message, 1, e.code) : e;
  }
}
