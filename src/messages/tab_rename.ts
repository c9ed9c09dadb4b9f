import { defineMessage, ok } from "./types";

export default defineMessage({
  type: "tab_rename",
  since: 6,
  grant: "workspace",
  request: true,
  reply: "ok",
  summary: "Name a tab; an empty name gives it back its automatic one (its focused pane's label). Emits tab_renamed.",
  fields: {
    workspace: { type: "string", name: true, description: "The workspace the tab is in. Default: the workspace on screen" },
    tab: { type: "string", name: true, required: true, description: "The tab's name, or its number counting from 1 (as tab_close)" },
    to: { type: "string", required: true, description: "Its new name, or empty for none" },
  },
  errors: ["workspace_not_found", "tab_not_found"],
  example: { v: 6, id: 1, type: "tab_rename", workspace: "main", tab: "2", to: "logs" },
  cli: { path: "tab rename", args: ["tab", "to"] },
  handle(p, { session }) {
    const ws = p.workspace !== undefined ? session.workspace(p.workspace) : session.currentWorkspace;
    session.renameTab(ws, session.findTab(ws, p.tab), p.to);
    return ok();
  },
});
