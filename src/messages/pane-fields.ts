// Fields every message that starts a pane shares (tab_new, split, open_tab; layout leaves take the
// same two keys).
import { envProblem } from "../model/env-vars";
import { typed, type FieldSpec } from "../protocol/schema";
import { GRANT_LEVELS, type GrantLevel } from "../protocol/grants";
import { WsError } from "../protocol/errors";
import type { BoxRequest } from "../model/box";
import type { TreeNode } from "../model/tree";
import type { HandlerContext } from "./types";

export const KEEP_FIELD = {
  type: "boolean",
  default: false,
  description: "Keep the pane after its program exits, showing `[exited: status N]` (or the signal) on its last line, readable until closed (tmux remain-on-exit); `pane_respawn` runs it again",
} as const satisfies FieldSpec;

export const ENV_FIELD = typed<Record<string, string>>()({
  type: "object",
  keyValue: true,
  check: (v) => envProblem(v),
  shape: '{"NAME": "value", …}',
  description: "Environment variables for the program, over the server's own; ws's own (WS_SOCKET, WS_PANE_ID, WS_WORKSPACE, PWD) win. Names [A-Za-z_][A-Za-z0-9_]*, values without NUL (docs/limits.md)",
});

export const BOX_FIELD = {
  type: "boolean",
  description:
    "Run the program in a box (docs/security.md#boxes): its checkout read-write, the rest of $HOME read-only with secrets hidden, a private /tmp, and of ws only this pane's socket. Default: keys.toml's `box`. A box that can't be made is refused (box_unavailable, box_refused), never started unboxed",
} as const satisfies FieldSpec;

export const NETWORK_FIELD = {
  type: "boolean",
  default: true,
  description: "With `box`: false gives the box no network (an empty network namespace of its own)",
} as const satisfies FieldSpec;

/** The model's box request from a message's `box` and `network` (undefined: keys.toml decides). */
export function boxRequest(box: boolean | undefined, network: boolean): { network: boolean } | false | undefined {
  return box === undefined ? (network ? undefined : { network }) : box ? { network } : false;
}

/** The box of the pane whose socket the request came on, if that pane is boxed. */
function callerBox(ctx: Pick<HandlerContext, "session" | "callerPane">): BoxRequest | undefined {
  return ctx.callerPane !== undefined ? ctx.session.panes.get(ctx.callerPane)?.box : undefined;
}

/** A new pane's box: as asked, except that a pane started from a boxed pane's socket is boxed as
 * that pane is (its network stays off if it was, its box_write kept): a box must not start a
 * program outside itself. Asking such a pane for `box: false` is refused. */
export function boxFor(ctx: Pick<HandlerContext, "session" | "callerPane">, box: boolean | undefined, network: boolean): BoxRequest | false | undefined {
  const outer = callerBox(ctx);
  if (!outer) return boxRequest(box, network);
  if (box === false) throw new WsError(`refused: pane ${ctx.callerPane} runs in a box, and the panes it starts do too (box = false is the person's to ask)`, "forbidden", { param: "box", grant: "person" });
  return { ...outer, ...(network ? {} : { network: false }) };
}

/** A layout tree with every leaf boxed as boxFor says (a tree from a boxed pane's socket). */
export function boxTree(ctx: Pick<HandlerContext, "session" | "callerPane">, root: TreeNode): TreeNode {
  const outer = callerBox(ctx);
  if (!outer) return root;
  const walk = (n: TreeNode): TreeNode => {
    if (n.type === "split") return { ...n, first: walk(n.first), second: walk(n.second) };
    const b = boxFor(ctx, n.box, n.network !== false);
    if (!b) return n; // not reached: from a boxed pane boxFor boxes or refuses
    return { ...n, box: true, ...(b.network === false ? { network: false } : {}), ...(b.write?.length ? { box_write: [...b.write] } : {}) };
  };
  return walk(root);
}

export const GRANTS_FIELD = {
  type: "string",
  accepted: GRANT_LEVELS,
  description:
    'The new pane\'s grants: report, self, workspace or control (docs/security.md "Grants"). From a pane\'s socket, at most that pane\'s own, which is also the default; from the person, control by default',
} as const satisfies FieldSpec;

/**
 * The grants a pane started by this request gets, decided before it starts (a refused level leaves
 * no pane behind); `apply` records them, and the caller pane as its creator, once it exists.
 */
export function newPaneGrants(ctx: Pick<HandlerContext, "services" | "connection" | "callerPane">, asked: GrantLevel | undefined, fallback?: GrantLevel) {
  const grants = ctx.services.get("grants");
  const fromPane = ctx.callerPane !== undefined || !!grants?.isRestricted(ctx.connection);
  const creatorLevel = grants && fromPane ? grants.connectionLevel(ctx.connection, ctx.callerPane) : undefined;
  const level = grants?.forNewPane(asked, creatorLevel, fallback);
  return {
    apply(pane: number): void {
      if (!grants || level === undefined) return;
      grants.created(pane, ctx.callerPane);
      if (!fromPane && asked !== undefined) grants.set(pane, level);
      else if (level !== "control") grants.set(pane, level, creatorLevel ?? level);
    },
  };
}
