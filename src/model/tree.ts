// The portable form of a tab's layout (layout_export gives it, layout_apply takes it): a split tree
// whose leaves say what to run where. Checked here before anything starts.
import type { Layout } from "./layout";
import { MAX_LAYOUT_DEPTH } from "./limits";
import { nameProblem } from "../protocol/names";
import { envProblem } from "./env-vars";
import type { BoxRequest } from "./box";
import { AGENT_DEFAULT, GRANT_LEVELS, isGrantLevel, type GrantLevel } from "../protocol/grants";

export type TreeNode =
  | { type: "pane"; pane?: number; label?: string; cwd?: string; command?: string[]; keep?: boolean; env?: Record<string, string>; box?: boolean; network?: boolean; box_write?: string[]; agent?: boolean; grants?: GrantLevel; resume?: string[] | false }
  | { type: "split"; direction: "right" | "down"; ratio: number; first: TreeNode; second: TreeNode };

/** The tree grammar, as the catalogue and docs give it. */
export const TREE_SHAPE =
  'node = {"type":"pane", "label"?: string, "cwd"?: string, "command"?: [string], "keep"?: boolean, "env"?: {"NAME": "value"}, "box"?: boolean, "network"?: boolean, "box_write"?: [string], "agent"?: boolean, "grants"?: "report"|"self"|"workspace"|"control", "resume"?: [string]|false} | {"type":"split", "direction": "right"|"down", "ratio": number in (0,1), "first": node, "second": node}';

export function checkTree(v: unknown, path = "root", depth = 0): string | undefined {
  if (depth > MAX_LAYOUT_DEPTH) return `\`${path}\` is nested too deep (at most ${MAX_LAYOUT_DEPTH} levels)`;
  if (typeof v !== "object" || v === null || Array.isArray(v)) return `\`${path}\` must be an object`;
  const o = v as Record<string, unknown>;
  const allowed = o.type === "pane" ? ["type", "pane", "label", "cwd", "command", "keep", "env", "box", "network", "box_write", "agent", "grants", "resume"] : ["type", "direction", "ratio", "first", "second"];
  if (o.type !== "pane" && o.type !== "split") return `\`${path}.type\` must be "pane" or "split"`;
  const extra = Object.keys(o).find((k) => !allowed.includes(k));
  if (extra) return `unknown field \`${path}.${extra}\` (accepted: ${allowed.join(", ")})`;
  if (o.type === "pane") {
    if (o.label !== undefined && typeof o.label !== "string") return `\`${path}.label\` must be a string`;
    const bad = typeof o.label === "string" && o.label !== "" ? nameProblem(o.label) : undefined;
    if (bad) return `invalid name in \`${path}.label\`: it ${bad}`;
    if (o.cwd !== undefined && typeof o.cwd !== "string") return `\`${path}.cwd\` must be a string`;
    if (o.pane !== undefined && !Number.isSafeInteger(o.pane)) return `\`${path}.pane\` must be an integer`;
    if (o.command !== undefined && !(Array.isArray(o.command) && o.command.every((x) => typeof x === "string"))) return `\`${path}.command\` must be an array of strings`;
    if (o.keep !== undefined && typeof o.keep !== "boolean") return `\`${path}.keep\` must be a boolean`;
    for (const k of ["box", "network", "agent"]) if (o[k] !== undefined && typeof o[k] !== "boolean") return `\`${path}.${k}\` must be a boolean`;
    if (o.box_write !== undefined && !(Array.isArray(o.box_write) && o.box_write.every((x) => typeof x === "string" && x !== "" && !x.includes("\0"))))
      return `\`${path}.box_write\` must be an array of paths`;
    if (o.resume !== undefined && o.resume !== false && !(Array.isArray(o.resume) && o.resume.length > 0 && o.resume.every((x) => typeof x === "string" && !x.includes("\0"))))
      return `\`${path}.resume\` must be false or a command (an argv list; {session} is the agent's session id)`;
    if (o.grants !== undefined && !isGrantLevel(o.grants)) return `\`${path}.grants\` must be one of ${GRANT_LEVELS.join(", ")}`;
    if (o.env !== undefined) return envProblem(o.env, `${path}.env`);
    return undefined;
  }
  if (o.direction !== "right" && o.direction !== "down") return `\`${path}.direction\` must be "right" or "down"`;
  if (typeof o.ratio !== "number" || !(o.ratio > 0 && o.ratio < 1)) return `\`${path}.ratio\` must be a number between 0 and 1`;
  return checkTree(o.first, `${path}.first`, depth + 1) ?? checkTree(o.second, `${path}.second`, depth + 1);
}

/** A tree as a tab to build: its layout over leaf numbers 1, 2, … and what each leaf runs. `paths`
 * names each leaf by where it is in the tree (root.first.second), for errors. */
export function treeToSpec(root: TreeNode): { layout: Layout; panes: Map<number, TreeLeaf>; paths: Map<number, string> } {
  const panes = new Map<number, TreeLeaf>();
  const paths = new Map<number, string>();
  const toLayout = (n: TreeNode, path: string): Layout => {
    if (n.type === "pane") {
      const key = panes.size + 1;
      panes.set(key, { cwd: n.cwd, argv: n.command ?? [], title: n.label, keep: n.keep, env: n.env, ...leafBox(n), ...(n.grants || n.agent ? { grants: n.grants ?? AGENT_DEFAULT } : {}), ...(n.resume !== undefined ? { resume: n.resume } : {}) });
      paths.set(key, path);
      return { kind: "pane", pane: key };
    }
    return { kind: "split", dir: n.direction === "right" ? "right" : "below", ratio: n.ratio, a: toLayout(n.first, `${path}.first`), b: toLayout(n.second, `${path}.second`) };
  };
  return { layout: toLayout(root, "root"), panes, paths };
}

export interface TreeLeaf {
  cwd?: string;
  argv: string[];
  title?: string;
  keep?: boolean;
  env?: Record<string, string>;
  box?: BoxRequest | false;
  /** Its grants (a leaf marked `agent` gets the agent default): docs/security.md "Grants". */
  grants?: GrantLevel;
  /** How a restore resumes its agent ({session}: the id it reported), or false: it starts fresh. */
  resume?: string[] | false;
}

/** A leaf's box, as the model takes it: `box` true or false, `network` (false alone boxes it),
 * `box_write`; nothing said: keys.toml decides. */
function leafBox(n: { box?: boolean; network?: boolean; box_write?: string[] }): { box?: BoxRequest | false } {
  if (n.box === false) return { box: false };
  if (n.box === undefined && n.network === undefined && n.box_write === undefined) return {};
  return { box: { ...(n.network === false ? { network: false } : {}), ...(n.box_write?.length ? { write: n.box_write } : {}) } };
}
