// Building a tab from a spec (a saved tab, or a layout_apply tree): the spec, the plan that gives
// its panes their ids and cells, how the build is run (at once or a pane at a time), and the
// builder that carries the plan out through the Session's own writes (SessionWrites), so a tab and
// a restored workspace enter the model whole or not at all.
import { leaf, panesOf, paneRects, type Layout, type PaneRect, type Rect } from "./layout";
import { treeToSpec, type TreeNode } from "./tree";
import type { NewPaneOptions } from "./launch";
import type { Pane } from "./pane";
import type { Tab, Workspace } from "./workspace";
import type { SessionWrites } from "./session-writes";
import { WsError } from "../protocol/errors";
import { discardPane } from "./pane-lifecycle";
import { checkName } from "../protocol/names";

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

/**
 * Builds tabs (layout_apply, restore) and restored workspaces. Every pane of a tab starts first,
 * its ids and its room reserved (`reserved` counts against the pane limit), and the tab enters the
 * model only once all have started; a workspace it builds (`building`) enters with its first whole
 * tab. A build that fails stops the panes it started and gives their ids back.
 */
export class TabBuilder {
  /** Panes being started by a build: counted against the limit, not yet in the model. */
  reserved = 0;
  /** Workspaces being built, not in the model until their first tab is whole. */
  private readonly building = new WeakSet<Workspace>();

  constructor(private readonly w: SessionWrites) {}

  /** A tree's tab at the end of `ws` (run with runNow or runPaced). */
  *tree(ws: Workspace, root: TreeNode, name: string | undefined): BuildSteps<Tab> {
    const { spec, paths } = treeTabSpec(root, name);
    this.w.checkRoom(spec.panes.size);
    for (const [key, leaf] of spec.panes) this.w.checkLaunch(leaf, paths.get(key));
    return (yield* this.steps(ws, spec, false)).tab;
  }

  /** A saved tab at the end of `ws`: a program that can't start gets the user's shell with a note. */
  restore(ws: Workspace, spec: RestoreTabSpec): BuildSteps<{ tab: Tab; ids: Map<number, number> }> {
    return this.steps(ws, spec, true);
  }

  /** Build `steps` into `ws`, a workspace not yet in the model: it enters with the first tab built. */
  *into<T>(ws: Workspace, steps: BuildSteps<T>): BuildSteps<T> {
    this.building.add(ws);
    try {
      return yield* steps;
    } finally {
      this.building.delete(ws);
    }
  }

  /** A new workspace rebuilt from saved tabs (persistence), `active` being the index of its active
   * tab, a pane at a time. A tab that can't be rebuilt is left out and said in `skipped`; with none
   * rebuilt, nothing is left and the first failure is thrown. */
  async restoreWorkspace(ws: Workspace, tabs: RestoreTabSpec[], active: number, pace: () => Promise<void>): Promise<{ ids: Map<number, number>; panes: number; skipped: string[] }> {
    if (!tabs.length) throw new Error(`workspace "${ws.name}" has no tabs to restore`);
    const ids = new Map<number, number>();
    let panes = 0;
    const skipped: string[] = [];
    let before = 0;
    let failure: unknown;
    this.building.add(ws);
    try {
      for (const [i, t] of tabs.entries()) {
        if (!this.building.has(ws) && !this.w.session.workspaces.includes(ws)) break; // closed by a client meanwhile
        try {
          const built = await runPaced(this.restore(ws, t), pace);
          for (const [a, b] of built.ids) ids.set(a, b);
          panes += built.ids.size;
        } catch (e) {
          failure = e;
          if (i < active) before++;
          skipped.push(`workspace ${JSON.stringify(ws.name)} tab ${i + 1} left out: ${(e as Error).message}`);
        }
      }
    } finally {
      this.building.delete(ws);
    }
    if (!ws.tabs.length || !this.w.session.workspaces.includes(ws)) throw failure ?? new Error(`workspace "${ws.name}" was closed while it was being restored`);
    ws.active = Math.min(Math.max(0, active - before), ws.tabs.length - 1);
    return { ids, panes, skipped };
  }

  /**
   * Start every pane of `spec`, yielding before each, then put the tab in the model. The new ids
   * and the room for the panes are reserved first. With `fallback` (restore) a program that can't
   * start gets the user's shell with a note; without it the first that can't start stops the
   * build. The workspace must still be there (or be one being built) at every step.
   */
  private *steps(ws: Workspace, spec: TabSpec, fallback: boolean): BuildSteps<{ tab: Tab; ids: Map<number, number> }> {
    const plan = this.reserve(ws, spec, fallback);
    const started: Pane[] = [];
    try {
      for (const id of plan.ids.values()) {
        yield;
        this.checkLive(ws);
        started.push(this.startPlanned(ws, plan, id, fallback));
      }
      if (this.building.has(ws)) {
        this.w.insertWorkspace(ws);
        this.building.delete(ws);
      } else this.w.checkLive(ws);
    } catch (e) {
      for (const p of started) discardPane(p);
      this.w.ids.unreservePanes(plan.first, plan.next);
      throw e;
    } finally {
      this.reserved -= plan.ids.size;
    }
    return this.commit(ws, plan, started);
  }

  private checkLive(ws: Workspace): void {
    if (!this.building.has(ws)) this.w.checkLive(ws);
  }

  /** Check a tab to build, plan it, and reserve its pane ids and its room. */
  private reserve(ws: Workspace, spec: TabSpec, fallback: boolean): TabPlan {
    this.checkLive(ws);
    if (spec.name) checkName("name", spec.name);
    if (spec.project) checkName("project", spec.project);
    const plan = planTab(spec, this.w.ids.next.pane, (id) => this.w.ids.takePromisedPane(id), this.w.session.layoutArea());
    // A saved tab was within the limits when it was made; only the server's bound applies to it.
    this.w.checkRoom(plan.ids.size, !fallback);
    this.w.ids.reservePanes(plan.next);
    this.reserved += plan.ids.size;
    return plan;
  }

  private startPlanned(ws: Workspace, plan: TabPlan, id: number, fallback: boolean): Pane {
    const o = plan.spec.panes.get(plan.byNew.get(id)!) ?? {};
    const r = plan.cells.get(id)!;
    try {
      const pane = this.w.start(ws, o, r.cols, r.rows, id);
      if (o.title) pane.restoreTitle(o.title);
      if (o.name) pane.setName(o.name);
      return pane;
    } catch (e) {
      // Out of descriptors or processes, a shell would fail too: say so rather than try.
      if (!fallback || (e instanceof WsError && e.code === "resource_exhausted")) throw e;
      return this.w.start(ws, { ...o, argv: [], preface: (o.preface ?? "") + fallbackNote(o.argv, e) }, r.cols, r.rows, id);
    }
  }

  private commit(ws: Workspace, plan: TabPlan, started: Pane[]): { tab: Tab; ids: Map<number, number> } {
    const { spec, ids, layout } = plan;
    for (const p of started) this.w.adopt(p);
    const tab: Tab = { id: this.w.ids.take("tab", spec.id), name: plan.name, project: plan.project, layout, focused: ids.get(spec.focused) ?? panesOf(layout)[0]! };
    if (spec.zoomed !== undefined && ids.has(spec.zoomed)) tab.zoomed = ids.get(spec.zoomed);
    this.w.insertTab(ws, tab, [...ids.values()]);
    // A program that ended while later panes were starting (a paced build gives the thread back)
    // had no one to tell: its exit is handled now that the pane is in the model.
    for (const p of started) if (p.exited) this.w.paneExited(p);
    return { tab, ids };
  }
}
