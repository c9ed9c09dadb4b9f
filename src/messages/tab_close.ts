import { defineMessage, ok } from "./types";

export default defineMessage({
  type: "tab_close",
  since: 2,
  grant: "workspace",
  request: true,
  reply: "ok",
  summary: "Close a tab by name or 1-based number. Closing the last tab in ws is an error.",
  fields: {
    workspace: { type: "string", name: true, description: "The workspace the tab is in. Default: the workspace on screen" },
    tab: { type: "string", name: true, required: true, description: "The tab's name, or its number counting from 1" },
  },
  example: { v: 2, type: "tab_close", workspace: "Games", tab: "Tetris" },
  cli: { path: "tab close", args: ["tab"] },
  handle(p, { session }) {
    const ws = p.workspace !== undefined ? session.workspace(p.workspace) : session.currentWorkspace;
    session.closeTab(ws, session.findTab(ws, p.tab));
    return ok();
  },
});
