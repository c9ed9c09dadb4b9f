// workstream_done: finish a workstream (ws done). Refuses uncommitted changes, commits on no
// remote branch, a name that is no workstream and the last tab in ws, each saying what to do;
// then removes the worktree (never the branch) and closes the tab. All or nothing: when git
// refuses, the workstream and its tab stay.
import { WsError } from "../protocol/errors";
import { defineMessage } from "./types";

export default defineMessage({
  type: "workstream_done",
  since: 2,
  grant: "control",
  request: true,
  longRunning: true,
  reply: "ok",
  summary:
    "Finish a workstream: close its tab and remove its git worktree (its branch stays). Give name or pane. Refused, saying what to do, for uncommitted changes, commits on no remote branch, not a workstream, or the last tab in ws. The worktree is removed first (git checks it again as it does, so files that appear meanwhile make it refuse, and the workstream stays), then the tab is closed; the reply comes after both.",
  fields: {
    name: { type: "string", name: true, description: "The workstream's name" },
    pane: { type: "integer", description: "A pane in the workstream's tab, used when name is missing" },
    force: { type: "boolean", default: false, description: "Remove it even with uncommitted or unpushed work" },
  },
  errors: ["not_a_workstream", "uncommitted_changes", "unpushed_commits", "last_pane", "pane_not_found", "git_failed", "unsupported"],
  example: { v: 2, type: "workstream_done", name: "pr-101" },
  cli: { path: "done", summary: "Finish a workstream: close its tab, remove its worktree (default: the one this runs in)", args: ["name?"], flags: ["force"], run: "done" },
  async handle(p, { services }) {
    const svc = services.get("workstreams");
    if (!svc) throw new WsError("workstreams are not supported by this ws build", "unsupported");
    await svc.done(p);
  },
});
