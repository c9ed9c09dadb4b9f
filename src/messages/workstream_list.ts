// workstream_list: every workstream ws knows of, open or stranded (ws workstream list). Workstreams
// are records on disk (features/workstreams/records.ts), so a crash or a new server lists them too.
import type { WorkstreamRow } from "../features/workstreams/service";
import { WsError } from "../protocol/errors";
import { defineMessage, replyTyped } from "./types";

export default defineMessage({
  type: "workstream_list",
  since: 6,
  grant: "control",
  request: true,
  reply: "workstreams",
  summary:
    "Every workstream of every repo ws made (their records in ws's state dir, read at start), by repo and name: open (its tab is there) or stranded (its tab is gone, after a crash, kill-server or a closed tab; ws done finishes it, and its name stays taken until then).",
  fields: {},
  replyFields: {
    workstreams: replyTyped<WorkstreamRow[]>()({
      type: "object[]",
      description: "Each {name, state (open or stranded), repo, dir, branch, pr?, review?, worktree (whether its directory is there), and while open workspace, tab, pane}",
    }),
  },
  errors: ["unsupported"],
  example: { v: 6, type: "workstream_list" },
  cli: { path: "workstream list", summary: "Every workstream of every repo ws made, open or stranded (ws done NAME finishes a stranded one)", view: "workstreams" },
  handle(_p, { services }) {
    const svc = services.get("workstreams");
    if (!svc) throw new WsError("workstreams are not supported by this ws build", "unsupported");
    return { type: "workstreams", workstreams: svc.list() };
  },
});
