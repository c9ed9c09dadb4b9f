import { defineMessage, ok } from "./types";

export default defineMessage({
  type: "workspace_rename",
  since: 6,
  grant: "control",
  request: true,
  reply: "ok",
  summary: "Rename a workspace. Emits workspace_renamed.",
  fields: {
    name: { type: "string", name: true, required: true, description: "The workspace, exact then ignoring case" },
    to: { type: "string", name: true, required: true, description: "Its new name; no other workspace may have it (ignoring case)" },
  },
  errors: ["workspace_not_found", "workspace_exists"],
  example: { v: 6, id: 1, type: "workspace_rename", name: "main", to: "build" },
  cli: { path: "workspace rename", args: ["name", "to"] },
  handle(p, { session }) {
    session.renameWorkspace(session.workspace(p.name), p.to);
    return ok();
  },
});
