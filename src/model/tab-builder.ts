// Building a tab from a spec (a saved tab, or a layout_apply tree): the spec, the plan that gives
// its panes their ids and cells, and how the build is run, at once or a pane at a time. The Session
// carries the plan out (it alone changes the model); what is here computes and changes nothing.
import { leaf, paneRects, type Layout, type PaneRect, type Rect } from "./layout";
import { treeToSpec, type TreeNode } from "./tree";
import type { NewPaneOptions } from "./launch";

/** A tab to build (a saved one, or a layout_apply tree). Pane numbers in `layout`, `focused` and
 * `zoomed` are keys of `panes`, not live ids: every pane gets a new id, except a saved id a restore
 * promised (promiseIds), which it keeps; so does the tab's saved `id`. */
export interface TabSpec {
  id?: number;
  name?: string;
  project?: string;
  layout: Layout;
  panes: Map<number, NewPaneOptions & { title?: string; name?: string }>;
  focused: number;
  zoomed?: number;
}

export type RestoreTabSpec = TabSpec;

/** A tab being built: its spec, its renumbered layout, the saved → new ids and each pane's cell. */
export interface TabPlan {
  spec: TabSpec;
  name?: string;
  project?: string;
  layout: Layout;
  ids: Map<number, number>;
  byNew: Map<number, number>;
  cells: Map<number, PaneRect>;
  /** The ids reserved: first up to (not including) next. */
  first: number;
  next: number;
}

/**
 * Plan a tab: its pane numbers become ids from `first` on, in layout order, except a saved id
 * `keepSaved` says it may keep; each pane gets its cell in `area`. (`name` and `project` are the
 * spec's, an empty one being none: older saves may hold one.)
 */
export function planTab(spec: TabSpec, first: number, keepSaved: (id: number) => boolean, area: Rect): TabPlan {
  const ids = new Map<number, number>();
  let next = first;
  const renumber = (l: Layout): Layout => {
    if (l.kind === "split") return { ...l, a: renumber(l.a), b: renumber(l.b) };
    if (!ids.has(l.pane)) ids.set(l.pane, keepSaved(l.pane) ? l.pane : next++);
    return leaf(ids.get(l.pane)!);
  };
  const layout = renumber(spec.layout);
  const cells = new Map(paneRects(layout, area, ids.size > 1).map((r) => [r.pane, r]));
  const byNew = new Map([...ids].map(([old, id]) => [id, old]));
  return { spec, name: spec.name || undefined, project: spec.project || undefined, layout, ids, byNew, cells, first, next };
}

/** A layout_apply tree as a spec: its leaves must start where they say (strictCwd); `paths` names
 * each leaf by its place in the tree, for errors. */
export function treeTabSpec(root: TreeNode, name: string | undefined): { spec: TabSpec; paths: Map<number, string> } {
  const { layout, panes, paths } = treeToSpec(root);
  const leaves = new Map([...panes].map(([key, leaf]) => [key, { ...leaf, strictCwd: true }]));
  return { spec: { name, layout, panes: leaves, focused: 1 }, paths };
}

/** What a restored pane shows when its program could not start again and it got a shell instead. */
export function fallbackNote(argv: string[] | undefined, e: unknown): string {
  return `\x1b[33mws: could not restart ${JSON.stringify(argv ?? [])}: ${(e as Error).message}; started a shell instead\x1b[0m\r\n`;
}

/**
 * A build's steps: a generator that yields before each pane starts and returns the result. One
 * implementation serves both ways of running it: `runNow` goes straight through; `runPaced` gives
 * the thread back (`pace`) at each yield, so hundreds of panes never hold other clients up for more
 * than one pane's start. A failing `pace` is thrown into the build, which then cleans up.
 */
export type BuildSteps<T> = Generator<void, T, void>;

export function runNow<T>(steps: BuildSteps<T>): T {
  let r = steps.next();
  while (!r.done) r = steps.next();
  return r.value;
}

export async function runPaced<T>(steps: BuildSteps<T>, pace: () => Promise<void>): Promise<T> {
  let r = steps.next();
  while (!r.done) {
    try {
      await pace();
    } catch (e) {
      r = steps.throw(e);
      continue;
    }
    r = steps.next();
  }
  return r.value;
}
