import { snapshot } from "../model/views";
import { defineMessage, replyTyped } from "./types";

type Snapshot = ReturnType<typeof snapshot>;

export default defineMessage({
  type: "session_snapshot",
  since: 6,
  grant: "self",
  scope: "any",
  request: true,
  reply: "snapshot",
  summary: "Every workspace, tab, layout tree and pane in one reply, with the event seq it is current at: subscribe with that `after_seq` and `boot_id` to follow every change after it.",
  fields: {},
  replyFields: {
    boot_id: { type: "string", description: "This server start" },
    seq: { type: "integer", description: "The last event included; subscribe with after_seq = seq to follow on without a gap" },
    current: { type: "string|null", description: "The workspace on screen" },
    size: replyTyped<Snapshot["size"]>()({ type: "object", description: "`cols`, `rows`: the attached client's terminal (or the default)" }),
    workspaces: replyTyped<Snapshot["workspaces"]>()({ type: "array", description: "`id`, `name`, `current`, `active_tab`, `tabs` (each: `id`, `name`, `project`?, `active`, `focused`, `zoomed`, `panes`, `root` layout tree)" }),
    client: replyTyped<{ term: string; version: string } | null>()({ type: "object|null", description: "The attached terminal client, or null: `term`, its $TERM (empty when it sent none); `version`, its terminal's XTVERSION answer (empty until it gives one, and for a terminal that gives none)" }),
    panes: replyTyped<Snapshot["panes"]>()({ type: "array", description: "`pane`, `workspace`, `tab`, `label`, `title`, `command`, `cwd`, `pid`, `cols`, `rows`, `agent_status`?" }),
  },
  example: { v: 6, id: 1, type: "session_snapshot" },
  handle(_p, { session, services }) {
    const agents = services.get("agents");
    const ui = services.get("ui");
    const client = ui?.client ? { term: ui.clientTerm ?? "", version: ui.clientVersion ?? "" } : null;
    return { ...snapshot(session, { bootId: services.control.bootId, seq: services.control.events.seq }, (pane) => agents?.status(pane)?.status), client };
  },
});
