import { pacedUntil } from "../model/pace";
import { WsError } from "../protocol/errors";
import { layoutReply } from "../model/views";
import { TREE_SHAPE, checkTree, type TreeNode } from "../model/tree";
import { typed } from "../protocol/schema";
import { LAYOUT_REPLY } from "./layout-shared";
import { PANE_START_ERRORS, defineMessage } from "./types";
import { boxTree, newPaneGrants } from "./pane-fields";
import { panesOf } from "../model/layout";

export default defineMessage({
  type: "layout_apply",
  since: 6,
  grant: "workspace",
  request: true,
  reply: "layout",
  summary: "Build a fresh tab from a split tree (as layout_export gives it), starting each pane's command in its cwd. With tab, the new tab replaces that one in its place (it is made first, then the old one closes). Running programs and scrollback are not carried over.",
  fields: {
    root: typed<TreeNode>()({ type: "object", required: true, shape: TREE_SHAPE, check: (v) => checkTree(v), description: "The tree. Pane ids in it are ignored: every pane is new" }),
    workspace: { type: "string", name: true, description: "The workspace for the tab (default: the replaced tab's, else the one on screen)" },
    name: { type: "string", name: true, description: "The new tab's name" },
    tab: { type: "integer", description: "A tab to replace, by id" },
    focus: { type: "boolean", default: false, description: "Switch the view to the new tab" },
  },
  replyFields: LAYOUT_REPLY,
  errors: ["workspace_not_found", "tab_not_found", ...PANE_START_ERRORS],
  example: {
    v: 6,
    id: 1,
    type: "layout_apply",
    name: "dev",
    root: { type: "split", direction: "right", ratio: 0.65, first: { type: "pane", label: "editor", cwd: "/repo" }, second: { type: "pane", label: "tests", cwd: "/repo", command: ["sh", "-c", "just test"] } },
  },
  cli: { path: "layout apply", summary: "Build a new tab from a split tree in a JSON file (- reads stdin), as ws layout export prints it", args: ["root"] },
  async handle(p, ctx) {
    const { session } = ctx;
    // From a pane: the panes it builds are its own, with its grants at most.
    const grants = newPaneGrants(ctx, undefined);
    const old = p.tab !== undefined ? session.tabById(p.tab) : undefined;
    const ws = p.workspace !== undefined ? session.workspace(p.workspace) : (old?.ws ?? session.currentWorkspace);
    if (old && old.ws !== ws) throw new WsError(`tab ${p.tab} is in workspace "${old.ws.name}", not "${ws.name}"`, "invalid_params", { param: "workspace" });
    // A pane at a time, the thread given back between them: other clients are answered meanwhile.
    // From a boxed pane: every pane it builds is boxed as it is.
    const root = boxTree(ctx, p.root);
    // Past the deadline the build stops and the panes it started go: nothing is left half-made.
    const tab = await session.applyTreePaced(ws, root, { name: p.name, focus: p.focus || (old !== undefined && old.ws.tabs[old.ws.active] === old.tab) }, pacedUntil(ctx.signal));
    if (old?.ws.tabs.includes(old.tab)) {
      const at = old.ws.tabs.indexOf(old.tab);
      session.closeTab(old.ws, old.tab);
      session.moveTab(ws, tab, at); // the replacement takes the old tab's place
    }
    for (const id of panesOf(tab.layout)) grants.apply(id);
    return layoutReply(session, ws, tab);
  },
});
