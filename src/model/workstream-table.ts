// The workstreams the server knows, by name, and where each one's tab is: records the workstreams
// feature makes and forgets (ws new, ws review, ws done, a restore), kept beside the model because
// a workstream's tab is a model tab. Session.workstreams is the one table.
import type { EventBus } from "./events";
import type { Workstream } from "./workstream";
import { paneWhere, tabWhere, type ModelView, type Place } from "./session-lookups";

export class WorkstreamTable {
  private readonly map = new Map<string, Workstream>();

  constructor(
    private readonly model: ModelView,
    private readonly bus: EventBus,
    private readonly checkName: (param: string, name: string) => void,
  ) {}

  get(name: string): Workstream | undefined {
    return this.map.get(name);
  }

  has(name: string): boolean {
    return this.map.has(name);
  }

  keys(): IterableIterator<string> {
    return this.map.keys();
  }

  values(): IterableIterator<Workstream> {
    return this.map.values();
  }

  get size(): number {
    return this.map.size;
  }

  /** A workstream's tab, while it is open. */
  tabOf(w: Workstream): Place | undefined {
    return w.tab === undefined ? undefined : tabWhere(this.model, w.tab);
  }

  /** The workstream whose tab holds `pane`; in a tab several share (ws fan --tiled), the one the
   * pane's WS_WORKSTREAM names. */
  ofPane(pane: number): Workstream | undefined {
    const at = paneWhere(this.model, pane);
    if (!at) return undefined;
    let first: Workstream | undefined;
    for (const w of this.map.values()) {
      if (w.tab !== at.tab.id) continue;
      if (w.name === this.model.panes.get(pane)?.env.WS_WORKSTREAM) return w;
      first ??= w;
    }
    return first;
  }

  /** Record a workstream (or replace the record of one by that name: a review opened afresh). */
  add(w: Workstream): void {
    this.checkName("name", w.name);
    this.map.set(w.name, { ...w });
    const at = this.tabOf(w);
    this.bus.emit({ type: "workstream_created", workstream: w.name, ...(at ? { workspace: at.ws.name, tab: at.tab.id } : {}) });
  }

  /** Forget a workstream (ws done: its tab is closed and its worktree removed by the caller). */
  remove(name: string): void {
    if (!this.map.delete(name)) return;
    this.bus.emit({ type: "workstream_closed", workstream: name });
  }
}
