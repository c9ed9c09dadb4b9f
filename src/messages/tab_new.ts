import { PANE_START_ERRORS, defineMessage } from "./types";
import { pacedUntil } from "../model/pace";
import { BOX_FIELD, ENV_FIELD, GRANTS_FIELD, KEEP_FIELD, NETWORK_FIELD, boxFor, newPaneGrants } from "./pane-fields";

export default defineMessage({
  type: "tab_new",
  since: 2,
  grant: "workspace",
  request: true,
  reply: "pane",
  replyFields: { pane: { type: "integer", description: "The new tab's pane" } },
  summary: "Open a tab in a workspace. Replies with the tab's pane id.",
  fields: {
    workspace: { type: "string", name: true, description: "Workspace name, exact then ignoring case. Default: the workspace on screen" },
    name: { type: "string", name: true, description: "The tab's name" },
    cwd: { type: "string", description: "Where the command starts. The ws CLI sends its own directory (not with -H, where that directory is on another machine)" },
    project: { type: "string", name: true, description: "Project slug to link the tab to. An unknown slug is an error (project_not_found)" },
    command: { type: "string[]", default: [], description: "The program and its arguments. Empty runs the user's shell" },
    focus: { type: "boolean", default: false, description: "Switch the view to the new tab" },
    keep: KEEP_FIELD,
    env: ENV_FIELD,
    box: BOX_FIELD,
    network: NETWORK_FIELD,
    grants: GRANTS_FIELD,
  },
  errors: ["workspace_not_found", "project_not_found", ...PANE_START_ERRORS],
  example: { v: 2, type: "tab_new", workspace: "Games", name: "Tetris", cwd: "/code/tetris", project: "tetris", command: ["nvim"] },
  cli: { path: "tab new", rest: "command", defaults: { cwd: "$PWD", focus: false }, view: "pane" },
  async handle(p, ctx) {
    const { session, services } = ctx;
    if (p.project !== undefined) services.get("projects")?.check(p.project);
    const grants = newPaneGrants(ctx, p.grants);
    const ws = p.workspace !== undefined ? session.workspace(p.workspace) : session.currentWorkspace;
    // The program starts on a turn of its own, as a layout's panes do; a request whose deadline
    // passed meanwhile (a stalled server) starts nothing, so its retry makes the only tab.
    await pacedUntil(ctx.signal)();
    const { pane } = session.newTab(ws, { name: p.name, cwd: p.cwd, strictCwd: true, project: p.project, argv: p.command, focus: p.focus, keep: p.keep, env: p.env, box: boxFor(ctx, p.box, p.network) });
    grants.apply(pane.id);
    return { type: "pane", pane: pane.id };
  },
});
