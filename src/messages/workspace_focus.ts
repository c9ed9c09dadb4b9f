import { defineMessage, ok } from "./types";

export default defineMessage({
  type: "workspace_focus",
  since: 5,
  grant: "control",
  request: true,
  reply: "ok",
  summary: "Switch to a workspace, by name (exact, else ignoring case).",
  fields: { name: { type: "string", name: true, required: true, description: "The workspace" } },
  example: { v: 5, type: "workspace_focus", name: "Games" },
  cli: { path: "workspace focus", args: ["name"] },
  handle({ name }, { session }) {
    session.focusWorkspace(session.workspace(name));
    return ok();
  },
});
