// checkpoint_save: record a workstream's worktree now (ws checkpoint save), as a turn start does.
import { defineMessage } from "./types";
import { workstreamsOf, CHECKPOINT_ERRORS } from "./checkpoint-shared";

export default defineMessage({
  type: "checkpoint_save",
  since: 6,
  grant: "control",
  request: true,
  longRunning: true,
  reply: "checkpoint",
  summary:
    "Checkpoint a workstream's worktree: its tracked, modified and untracked (not ignored) files as a commit in the workstream's shadow repository in ws's state dir (refs/checkpoints/N there; it borrows the repository's objects); the repository's refs, objects, branch, HEAD, index and stash stay as they are. An unchanged worktree records nothing (`saved` false).",
  fields: {
    name: { type: "string", name: true, description: "The workstream (default: the one this runs in)" },
    pane: { type: "integer", description: "A pane in the workstream's tab, used when name is missing" },
    message: { type: "string", default: "", description: "What the checkpoint is (its commit message; default: `manual checkpoint`)" },
  },
  replyFields: {
    saved: { type: "boolean", description: "Whether a checkpoint was recorded (false: nothing changed since the last)" },
    n: { type: "integer", optional: true, description: "Its number (when saved)" },
    commit: { type: "string", optional: true, description: "Its commit (when saved)" },
    files: { type: "integer", optional: true, description: "Files changed since the checkpoint before it (when saved)" },
  },
  errors: CHECKPOINT_ERRORS,
  example: { v: 6, type: "checkpoint_save", name: "fix-login", message: "before refactor" },
  cli: { path: "checkpoint save", summary: "Checkpoint a workstream's worktree now (default: the one this runs in)", flags: ["name", "message"], short: { m: "message" }, run: "checkpoint", view: "checkpointSaved" },
  async handle(p, { services }) {
    const { svc, w } = workstreamsOf(services, p);
    const c = await svc.checkpoints.save(w, p.message || "manual checkpoint");
    return c ? { type: "checkpoint", saved: true, n: c.n, commit: c.commit, files: c.files } : { type: "checkpoint", saved: false };
  },
});
