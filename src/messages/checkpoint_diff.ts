// checkpoint_diff: the diff between two checkpoints, or from one to the worktree now.
import { defineMessage } from "./types";
import { workstreamsOf, CHECKPOINT_ERRORS } from "./checkpoint-shared";

export default defineMessage({
  type: "checkpoint_diff",
  since: 6,
  grant: "control",
  request: true,
  longRunning: true,
  reply: "checkpoint_diff",
  summary: "The diff (git diff, untracked files included) from checkpoint `from` to checkpoint `to`, or to the worktree as it is now when `to` is missing. At most 1 MiB of it (`truncated`).",
  fields: {
    from: { type: "integer", required: true, min: 1, description: "The checkpoint to diff from" },
    to: { type: "integer", min: 1, description: "The checkpoint to diff to (default: the worktree now)" },
    name: { type: "string", name: true, description: "The workstream (default: the one this runs in)" },
    pane: { type: "integer", description: "A pane in the workstream's tab, used when name is missing" },
  },
  replyFields: {
    diff: { type: "string", description: "git diff's output" },
    truncated: { type: "boolean", description: "The diff was longer than 1 MiB and was cut" },
  },
  errors: [...CHECKPOINT_ERRORS, "checkpoint_not_found"],
  example: { v: 6, type: "checkpoint_diff", name: "fix-login", from: 3 },
  cli: { path: "checkpoint diff", summary: "Show the diff between checkpoints N and M, or from N to the worktree now", args: ["from", "to?"], flags: ["name"], run: "checkpoint", view: "checkpointDiff" },
  async handle(p, { services }) {
    const { svc, w } = workstreamsOf(services, p);
    return { type: "checkpoint_diff", ...(await svc.checkpoints.diff(w, p.from, p.to)) };
  },
});
