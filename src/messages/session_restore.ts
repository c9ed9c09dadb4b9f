import { WsError } from "../protocol/errors";
import { defineMessage, replyTyped } from "./types";

export default defineMessage({
  type: "session_restore",
  since: 6,
  grant: "control",
  request: true,
  reply: "session_restored",
  summary:
    "Rebuild the saved session into this server (ws session restore): its workspaces are added, and the tabs of a saved workspace whose name exists are added to it. Replies with counts and the saved → new pane ids.",
  fields: {},
  replyFields: {
    workspaces: { type: "integer", description: "Workspaces rebuilt (new ones, and existing ones that got saved tabs)" },
    saved: { type: "integer", description: "Workspaces in the save" },
    tabs: { type: "integer", description: "Tabs rebuilt" },
    panes: replyTyped<Record<string, number>>()({ type: "object", description: "Saved pane id → new pane id, for every pane rebuilt" }),
    saved_at: { type: "string", description: "When the save was made, as an ISO 8601 time" },
    skipped: replyTyped<string[]>()({ type: "array", description: "Each part of the save left out (a bad part, a workspace past the pane limit, …), and why" }),
    kept: { type: "string", optional: true, description: "With parts left out: where the original save was kept (ws session discard --unreadable deletes it)" },
  },
  errors: ["unsupported", "session_unreadable"],
  longRunning: true,
  example: { v: 6, type: "session_restore" },
  async handle(_p, { services }) {
    const svc = services.get("persistence");
    if (!svc) throw new WsError("this server does not save sessions", "unsupported");
    let r;
    try {
      r = await svc.restoreNow();
    } catch (e) {
      throw new WsError(`can't restore ${svc.opts.path}: ${(e as Error).message}`, "session_unreadable");
    }
    return {
      type: "session_restored",
      workspaces: r.workspaces,
      saved: r.saved,
      tabs: r.tabs,
      panes: Object.fromEntries(r.ids),
      saved_at: r.saved_at,
      skipped: r.skipped,
      ...(r.kept ? { kept: r.kept } : {}),
    };
  },
});
