import { WsError } from "../protocol/errors";
import { PANE_START_ERRORS, defineMessage } from "./types";
import { BOX_FIELD, ENV_FIELD, GRANTS_FIELD, KEEP_FIELD, NETWORK_FIELD, boxFor, newPaneGrants } from "./pane-fields";

export default defineMessage({
  type: "split",
  since: 1,
  grant: "self",
  request: true,
  reply: "pane",
  replyFields: { pane: { type: "integer", description: "The new pane" } },
  summary: "Split pane and run command beside it. Replies with the new pane's id.",
  fields: {
    pane: { type: "integer", required: true, description: "The pane to split. It can be in any tab or workspace" },
    right: { type: "boolean", default: true, description: "true puts the new pane to the right, false below" },
    cwd: { type: "string", required: true, description: "Where the command starts" },
    command: { type: "string[]", required: true, description: "The program and its arguments. Empty runs the user's shell" },
    focus: { type: "boolean", default: true, description: "Show and focus the new pane (--focus=false builds it in the background)" },
    size: { type: "integer", description: "The new pane's size in the split's direction, in cells its program sees: columns to the right, rows below. Default: half" },
    percent: { type: "integer", min: 1, max: 99, description: "The new pane's size as a percentage of the pane it splits, in the split's direction (tmux's -l N%); size wins when both are given" },
    keep: KEEP_FIELD,
    env: ENV_FIELD,
    box: BOX_FIELD,
    network: NETWORK_FIELD,
    grants: GRANTS_FIELD,
  },
  errors: ["pane_not_found", ...PANE_START_ERRORS],
  example: { v: 1, type: "split", pane: 4, right: false, cwd: "/code/snake", command: ["cargo", "run"], focus: false, size: 24 },
  cli: {
    path: "split",
    args: ["pane"],
    rest: "command",
    flags: ["cwd", "size", "focus", "keep", "env", "box", "network", "grants"],
    switches: {
      below: { field: "right", value: false, description: "Put the new pane below (default: to the right)" },
      right: { field: "right", value: true, description: "Put the new pane to the right (the default; as tmux's -h)" },
    },
    defaults: { pane: "$WS_PANE_ID", cwd: "$PWD", focus: false },
    percent: { size: "percent" },
    view: "pane",
  },
  handle(p, ctx) {
    const { session } = ctx;
    const grants = newPaneGrants(ctx, p.grants);
    if (p.size !== undefined && p.size < 1) throw new WsError(`size must be at least 1, got ${p.size}`, "invalid_params", { param: "size" });
    let size = p.size;
    if (size === undefined && p.percent !== undefined) {
      const target = session.pane(p.pane);
      size = Math.max(1, Math.round(((p.right ? target.cols : target.rows) * p.percent) / 100));
    }
    const pane = session.split(p.pane, { right: p.right, cwd: p.cwd, strictCwd: true, argv: p.command, focus: p.focus, size, keep: p.keep, env: p.env, box: boxFor(ctx, p.box, p.network) });
    grants.apply(pane.id);
    return { type: "pane", pane: pane.id };
  },
});
