import type { WorkspaceInfo } from "../model/views";
import { defineMessage, replyTyped } from "./types";
import { workspaceInfos } from "../model/views";

export default defineMessage({
  type: "workspace_list",
  since: 2,
  grant: "self",
  scope: "any",
  request: true,
  reply: "workspaces",
  summary: "List workspaces and their tabs.",
  fields: {},
  replyFields: {
    workspaces: replyTyped<WorkspaceInfo[]>()({
      type: "array",
      description: "Each: `name`, `current` (the one on screen), `tabs` (each: `name`, `project` (its project, if any), `panes` (ids, in layout order), `active`, `ports` (TCP ports its panes listen on, if any))",
    }),
  },
  example: { v: 2, type: "workspace_list" },
  cli: { path: "workspace list", view: "workspaces" },
  handle(_p, { session, services }) {
    return { type: "workspaces", workspaces: workspaceInfos(session, services.get("portsOf")) };
  },
});
