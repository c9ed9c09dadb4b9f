// fan_keep: keep one candidate of a fan, finish the others (ws fan keep NAME K).
import { defineMessage } from "./types";
import { fansOf } from "./fan-shared";

export default defineMessage({
  type: "fan_keep",
  since: 6,
  grant: "control",
  request: true,
  longRunning: true,
  reply: "fan_kept",
  summary:
    "Keep candidate k of a fan: every other candidate is finished as workstream_done with force does it (tab closed, worktree removed even with changes; its checkpoints deleted), its branch kept unless delete_branches. Then the fan is forgotten; the kept workstream goes on as any other.",
  fields: {
    name: { type: "string", name: true, required: true, description: "The fan, or one of its candidates' workstreams" },
    k: { type: "integer", required: true, min: 1, description: "The candidate to keep (1…N)" },
    delete_branches: { type: "boolean", default: false, description: "Delete the other candidates' branches too" },
  },
  replyFields: {
    kept: { type: "string", description: "The workstream kept" },
    branch: { type: "string", description: "Its branch" },
    closed: { type: "string[]", description: "The workstreams finished" },
    deleted_branches: { type: "string[]", description: "The branches deleted" },
  },
  errors: ["not_a_workstream", "invalid_params", "git_failed", "unsupported"],
  example: { v: 6, type: "fan_keep", name: "login", k: 2 },
  cli: { path: "fan keep", summary: "Keep candidate K, close the others as ws done --force (--delete-branches: their branches too)", args: ["name", "k"], flags: ["delete_branches"], view: "fanKept" },
  async handle(p, { services }) {
    const r = await fansOf(services).keep(p.name, p.k, p.delete_branches);
    return { type: "fan_kept", ...r };
  },
});
