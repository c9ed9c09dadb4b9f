// checkpoint_list: a workstream's checkpoints, oldest first (ws checkpoint list).
import type { Checkpoint } from "../features/workstreams/checkpoints";
import { defineMessage, replyTyped } from "./types";
import { workstreamsOf, CHECKPOINT_ERRORS } from "./checkpoint-shared";

export default defineMessage({
  type: "checkpoint_list",
  since: 6,
  grant: "control",
  request: true,
  longRunning: true,
  reply: "checkpoints",
  summary: "A workstream's checkpoints, oldest first: number, time, the first line of the prompt that started the turn (or the save's message), and how many files changed since the one before.",
  fields: {
    name: { type: "string", name: true, description: "The workstream (default: the one this runs in)" },
    pane: { type: "integer", description: "A pane in the workstream's tab, used when name is missing" },
  },
  replyFields: {
    workstream: { type: "string", description: "The workstream" },
    checkpoints: replyTyped<Checkpoint[]>()({ type: "object[]", description: "Each {n, commit, time (Unix seconds), text, files, and for a turn's: turn (its number), after (true at its end, whose text is \"after turn N: <its prompt>\")}" }),
  },
  errors: CHECKPOINT_ERRORS,
  example: { v: 6, type: "checkpoint_list", name: "fix-login" },
  cli: { path: "checkpoint list", summary: "List a workstream's checkpoints (default: the one this runs in)", flags: ["name"], run: "checkpoint", view: "checkpoints" },
  async handle(p, { services }) {
    const { svc, w } = workstreamsOf(services, p);
    return { type: "checkpoints", workstream: w.name, checkpoints: await svc.checkpoints.list(w) };
  },
});
