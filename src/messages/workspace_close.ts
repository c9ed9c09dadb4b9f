import { defineMessage, ok } from "./types";

export default defineMessage({
  type: "workspace_close",
  since: 2,
  grant: "control",
  request: true,
  reply: "ok",
  summary: "Close a workspace and everything in it. Closing the only workspace is an error.",
  fields: { name: { type: "string", name: true, required: true, description: "The workspace's name" } },
  example: { v: 2, type: "workspace_close", name: "Games" },
  cli: { path: "workspace close", args: ["name"] },
  handle({ name }, { session }) {
    session.closeWorkspace(session.workspace(name));
    return ok();
  },
});
