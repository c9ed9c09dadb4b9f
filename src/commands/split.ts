import { WsError } from "../protocol/errors";
import { PANE_START_ERRORS, defineMessage } from "./types";
import { ENV_FIELD, KEEP_FIELD } from "./pane-fields";

export default defineMessage<{ pane: number; right: boolean; cwd: string; command: string[]; focus: boolean; size?: number; keep: boolean; env?: Record<string, string> }>({
  type: "split",
  since: 1,
  request: true,
  reply: "pane",
  summary: "Split pane and run command beside it. Replies with the new pane's id.",
  fields: {
    pane: { type: "integer", required: true, description: "The pane to split. It can be in any tab or workspace" },
    right: { type: "boolean", default: true, description: "true puts the new pane to the right, false below" },
    cwd: { type: "string", required: true, description: "Where the command starts" },
    command: { type: "string[]", required: true, description: "The program and its arguments. Empty runs the user's shell" },
    focus: { type: "boolean", default: true, description: "Show and focus the new pane (--focus=false builds it in the background)" },
    size: { type: "integer", description: "The new pane's size in the split's direction, in cells its program sees: columns to the right, rows below. Default: half" },
    keep: KEEP_FIELD,
    env: ENV_FIELD,
  },
  errors: ["pane_not_found", ...PANE_START_ERRORS],
  example: { v: 1, type: "split", pane: 4, right: false, cwd: "/code/snake", command: ["cargo", "run"], focus: false, size: 24 },
  cli: {
    path: "split",
    args: ["pane"],
    rest: "command",
    flags: ["cwd", "size", "focus", "keep", "env"],
    switches: {
      below: { field: "right", value: false, description: "Put the new pane below (default: to the right)" },
      right: { field: "right", value: true, description: "Put the new pane to the right (the default; as tmux's -h)" },
    },
    defaults: { pane: "$WS_PANE_ID", cwd: "$PWD", focus: false },
    view: "pane",
  },
  handle(p, { session }) {
    if (p.size !== undefined && p.size < 1) throw new WsError(`size must be at least 1, got ${p.size}`, "invalid_params", { param: "size" });
    const pane = session.split(p.pane, { right: p.right, cwd: p.cwd, strictCwd: true, argv: p.command, focus: p.focus, size: p.size, keep: p.keep, env: p.env });
    return { type: "pane", pane: pane.id };
  },
});
