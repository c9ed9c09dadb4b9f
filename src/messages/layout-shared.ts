// Reply fields shared by the layout messages (not a message itself).
import type { TreeNode } from "../model/tree";
import { type ReplyFields, replyTyped } from "./types";

export const LAYOUT_REPLY = {
  workspace: { type: "string", description: "The tab's workspace" },
  tab: { type: "integer", description: "The tab's id" },
  zoomed: { type: "integer|null", description: "The pane filling the tab, if any" },
  focused: { type: "integer", description: "The tab's focused pane" },
  panes: { type: "integer[]", description: "The tab's panes, in tree order" },
  root: replyTyped<TreeNode>()({ type: "object", description: 'The split tree: {"type":"pane","pane","label","cwd","command"} or {"type":"split","direction":"right"|"down","ratio","first","second"}' }),
} as const satisfies ReplyFields;
