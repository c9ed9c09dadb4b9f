import type { PaneListing } from "../model/views";
import { paneListing } from "../model/views";
import { defineMessage, replyTyped } from "./types";

export default defineMessage({
  type: "pane_list",
  since: 6,
  grant: "self",
  scope: "any",
  request: true,
  reply: "pane_list",
  summary: "Every pane, in workspace, tab and layout order: where it is, its label and title, what runs in its foreground, its cwd, pid and size, whether it is focused or has exited, and its agent status.",
  fields: {
    workspace: { type: "string", name: true, description: "Only this workspace's panes. Default: every workspace" },
  },
  replyFields: {
    panes: replyTyped<PaneListing[]>()({
      type: "array",
      description:
        "Each: `pane`, `workspace`, `workspace_number` (from 1), `tab` (id), `tab_name`, `tab_number` (from 1 in its workspace), `label`, `title`, `name` (pane_rename's, or null), `command` (the foreground process's argv; empty once exited), `start_command` (what it was started with; empty: the user's shell), `cwd`, `pid`, `cols`, `rows`, `focused` (its tab's focused pane), `exited`, `exit_code`, `signal`, `agent_status` (or null), `popup` (true for a popup, floating over its tab: it comes after its tab's panes)",
    }),
  },
  errors: ["workspace_not_found"],
  example: { v: 6, id: 1, type: "pane_list" },
  handle(p, { session, services }) {
    const agents = services.get("agents");
    const ws = p.workspace !== undefined ? session.workspace(p.workspace) : undefined;
    return paneListing(session, (pane) => agents?.status(pane)?.status, ws).then((panes) => ({ type: "pane_list", panes }));
  },
});
