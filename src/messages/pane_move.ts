import { WsError } from "../protocol/errors";
import type { MoveTarget } from "../model/session";
import { defineMessage } from "./types";

export default defineMessage({
  type: "pane_move",
  since: 6,
  grant: "workspace",
  request: true,
  reply: "moved",
  summary:
    "Move a running pane, same id, its program still running (tmux join-pane / break-pane): beside another pane (`beside`), into a new tab of a workspace (`workspace`), or into a new workspace (`new_workspace`); with none, into a new tab of its own workspace. A tab left empty closes.",
  fields: {
    pane: { type: "integer", required: true, description: "The pane to move" },
    beside: { type: "integer", description: "Put it beside this pane, in that pane's tab" },
    right: { type: "boolean", default: true, description: "With `beside`: true puts it to the right, false below" },
    size: { type: "integer", min: 1, description: "With `beside`: its size in the split's direction, in cells (columns to the right, rows below). Default: half" },
    workspace: { type: "string", name: true, description: "Put it in a new tab at the end of this workspace" },
    new_workspace: { type: "string", name: true, description: "Put it in a new workspace of this name (one tab)" },
    name: { type: "string", name: true, description: "The new tab's name (not with `beside`)" },
    focus: { type: "boolean", default: false, description: "Show and focus it where it lands" },
  },
  replyFields: {
    pane: { type: "integer", description: "The pane (its id does not change)" },
    workspace: { type: "string", description: "The workspace it is in now" },
    tab: { type: "integer", description: "The tab it is in now" },
  },
  errors: ["pane_not_found", "workspace_not_found", "workspace_exists", "invalid_move"],
  example: { v: 6, id: 1, type: "pane_move", pane: 7, beside: 2, right: false, size: 10 },
  cli: {
    path: "pane move",
    summary: "Move a running pane, same id: beside a pane, to a new tab, or to a new workspace",
    args: ["pane"],
    flags: ["beside", "size", "workspace", "new_workspace", "name", "focus"], defaults: { pane: "$WS_PANE_ID" },     switches: { below: { field: "right", value: false, description: "With --beside: put it below (default: to the right)" } },
  },
  handle(p, { session }) {
    const given = (["beside", "workspace", "new_workspace"] as const).filter((k) => p[k] !== undefined);
    if (given.length > 1) throw new WsError(`give one of beside, workspace and new_workspace, not ${given.join(" and ")}`, "invalid_params", { param: given[1] });
    if (p.name !== undefined && p.beside !== undefined) throw new WsError("`name` names a new tab; a pane moved beside another joins its tab", "invalid_params", { param: "name" });
    const common = { focus: p.focus, name: p.name };
    const to: MoveTarget =
      p.beside !== undefined
        ? { ...common, beside: p.beside, right: p.right, size: p.size }
        : p.new_workspace !== undefined
          ? { ...common, newWorkspace: p.new_workspace }
          : { ...common, workspace: p.workspace ?? session.locate(p.pane).ws.name };
    const { ws, tab } = session.movePane(p.pane, to);
    return { type: "moved", pane: p.pane, workspace: ws.name, tab: tab.id };
  },
});
