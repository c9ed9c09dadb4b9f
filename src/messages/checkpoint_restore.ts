// checkpoint_restore: put a workstream's worktree back to a checkpoint (ws checkpoint restore N).
import { defineMessage } from "./types";
import { workstreamsOf, CHECKPOINT_ERRORS, agentWorking } from "./checkpoint-shared";

export default defineMessage({
  type: "checkpoint_restore",
  since: 6,
  grant: "control",
  request: true,
  longRunning: true,
  reply: "checkpoint_restored",
  summary:
    "Put a workstream's worktree back to checkpoint n: files are written and removed so the worktree matches it (ignored files, the index, HEAD, the branch and the stash stay). First the present state is checkpointed (`saved`), so the restore can itself be undone. A path of the checkpoint that would overwrite a file in no checkpoint (one ignored now, or a link or ignored file where it needs a directory) is left as it is and named in `skipped`. Refused while the workstream's agent is working, unless force.",
  fields: {
    n: { type: "integer", required: true, min: 1, description: "The checkpoint to restore" },
    name: { type: "string", name: true, description: "The workstream (default: the one this runs in)" },
    pane: { type: "integer", description: "A pane in the workstream's tab, used when name is missing" },
    force: { type: "boolean", default: false, description: "Restore even while the agent is working" },
  },
  replyFields: {
    n: { type: "integer", description: "The checkpoint restored" },
    saved: { type: "integer", optional: true, description: "The checkpoint of the state before the restore (missing when it equals the last checkpoint)" },
    written: { type: "integer", description: "Files written" },
    removed: { type: "integer", description: "Files removed" },
    skipped: { type: "string[]", description: "Paths of the checkpoint left as they are, because writing them would destroy a file no checkpoint holds (at most 100)" },
    skipped_count: { type: "integer", description: "How many paths were skipped (all of them, where skipped lists the first 100)" },
  },
  errors: [...CHECKPOINT_ERRORS, "checkpoint_not_found", "agent_working"],
  example: { v: 6, type: "checkpoint_restore", name: "fix-login", n: 3 },
  cli: { path: "checkpoint restore", summary: "Put the worktree back to checkpoint N (checkpointing the present state first)", args: ["n"], flags: ["name", "force"], run: "checkpoint", view: "checkpointRestored" },
  async handle(p, { services, session }) {
    const { svc, w } = workstreamsOf(services, p);
    const r = await svc.checkpoints.restore(w, p.n, { force: p.force, working: agentWorking(session, services, w) });
    return { type: "checkpoint_restored", n: p.n, ...r };
  },
});
