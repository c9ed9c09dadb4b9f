import { defineMessage } from "./types";
import { KEEP_FIELD } from "./pane-fields";

export default defineMessage({
  type: "open_tab",
  since: 1,
  grant: "control",
  request: false,
  summary: "Open a tab in the current workspace running command in cwd, and show it.",
  fields: {
    cwd: { type: "string", required: true, description: "Where the command starts" },
    command: { type: "string[]", default: [], description: "The program and its arguments. Empty runs the user's shell" },
    name: { type: "string", name: true, description: "The tab's name" },
    project: { type: "string", name: true, description: "The project slug the tab works on. An unknown slug is an error: no tab opens" },
    keep: KEEP_FIELD,
  },
  example: { v: 1, type: "open_tab", cwd: "/code/app", command: ["claude"], name: "Review" },
  handle(p, { session, services }) {
    if (p.project !== undefined) services.get("projects")?.check(p.project);
    session.newTab(session.currentWorkspace, { cwd: p.cwd, strictCwd: true, argv: p.command, name: p.name, project: p.project, focus: true, keep: p.keep });
  },
});
