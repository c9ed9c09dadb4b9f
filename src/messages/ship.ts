// ship: commit a workstream's worktree, push its branch, open a PR (docs/workstreams.md, Ship).
// Sent to the server, the server ships the workstream's worktree and publishes `shipped`. `ws ship`
// itself runs in the CLI process on the checkout it runs in (src/cli/ship-cmds.ts: no server
// needed, the staged summary printed before the commit), from this entry's flags. Typed at the
// interface's command line it asks on the status line first (features/workstreams/ship-ask.ts).
import { defineMessage } from "./types";
import { workstreamsOf } from "./checkpoint-shared";
import { shipWorkstream } from "../features/workstreams/ship-ask";

export default defineMessage({
  type: "ship",
  since: 6,
  grant: "control",
  request: true,
  longRunning: true,
  reply: "shipped",
  summary:
    "Ship a workstream: commit everything in its worktree (git add -A) with `message`, then with push its branch (git push -u), with pr push and open a PR with gh pr create (title: message, else the branch's first commit; body: the last checkpoint prompts and the commits). Refused (ship_refused, saying what to do) before anything changes on a detached HEAD, changes without a message, nothing to commit or push, no remote, or gh missing for pr. Publishes `shipped`.",
  fields: {
    name: { type: "string", name: true, description: "The workstream (default: the checkout this runs in)" },
    pane: { type: "integer", description: "A pane in the workstream's tab, used when name is missing" },
    message: { type: "string", description: "The commit's message (needed when there is something to commit); also the PR's title" },
    push: { type: "boolean", default: false, description: "Push the branch (git push -u origin BRANCH)" },
    pr: { type: "boolean", default: false, description: "Push, then open a PR with gh pr create" },
    draft: { type: "boolean", default: false, description: "With pr: a draft PR" },
  },
  replyFields: {
    workstream: { type: "string", description: "The workstream" },
    dir: { type: "string", description: "Its worktree" },
    branch: { type: "string", description: "Its branch" },
    commit: { type: "string", optional: true, description: "The commit made, when there was something to commit" },
    summary: { type: "string", optional: true, description: "git diff --cached --stat of that commit" },
    unpushed: { type: "integer", description: "Commits no remote branch has, after it (0 once pushed)" },
    remote: { type: "string", optional: true, description: "The remote pushed to" },
    pushed: { type: "boolean", description: "Whether the branch was pushed" },
    pr: { type: "string", optional: true, description: "The PR's URL, with pr" },
  },
  errors: ["ship_refused", "not_a_workstream", "not_a_repo", "pane_not_found", "git_failed", "unsupported"],
  example: { v: 6, type: "ship", name: "fix-login", message: "Fix the login timeout", pr: true },
  cli: {
    path: "ship",
    summary: "Commit the workstream's worktree (git add -A; the staged summary first), then --push its branch, --pr open a PR with gh (runs in the CLI)",
    flags: ["message", "push", "pr", "draft", "name"],
    short: { m: "message" },
    run: "ship",
  },
  async handle(p, { services, session }) {
    const { svc, w } = workstreamsOf(services, p);
    const r = await shipWorkstream(svc, session, w, { ...(p.message !== undefined ? { message: p.message } : {}), push: p.push, pr: p.pr, draft: p.draft });
    return { type: "shipped", workstream: w.name, ...r };
  },
});
