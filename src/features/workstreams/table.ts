// The workstreams the server knows, by name, and where each one's tab is: records the workstreams
// feature makes and forgets (ws new, ws review, ws done, a restore). A workstream points at a model
// tab but is not model state, so the table is the feature's and the model knows nothing of it: one
// table per Session, kept beside it (workstreamsOf) rather than in it. The table publishes its own
// events (events.ts) on the session's bus.
import type { Session } from "../../model/session";
import { paneWhere, tabWhere, type Place } from "../../model/session-lookups";
import { checkName } from "../../protocol/names";
import type { Workstream } from "./workstream";

export class WorkstreamTable {
  private readonly map = new Map<string, Workstream>();

  constructor(private readonly session: Session) {}

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
    return w.tab === undefined ? undefined : tabWhere(this.session, w.tab);
  }

  /** The workstream whose tab holds `pane`; in a tab several share (ws fan --tiled), the one the
   * pane's WS_WORKSTREAM names. */
  ofPane(pane: number): Workstream | undefined {
    const at = paneWhere(this.session, pane);
    if (!at) return undefined;
    let first: Workstream | undefined;
    for (const w of this.map.values()) {
      if (w.tab !== at.tab.id) continue;
      if (w.name === this.session.panes.get(pane)?.env.WS_WORKSTREAM) return w;
      first ??= w;
    }
    return first;
  }

  /** Record a workstream (or replace the record of one by that name: a review opened afresh). */
  add(w: Workstream): void {
    checkName("name", w.name);
    this.map.set(w.name, { ...w });
    const at = this.tabOf(w);
    this.session.bus.emit({ type: "workstream_created", workstream: w.name, ...(at ? { workspace: at.ws.name, tab: at.tab.id } : {}) });
  }

  /** Forget a workstream (ws done: its tab is closed and its worktree removed by the caller). */
  remove(name: string): void {
    if (!this.map.delete(name)) return;
    this.session.bus.emit({ type: "workstream_closed", workstream: name });
  }
}

const tables = new WeakMap<Session, WorkstreamTable>();

/** The session's workstreams: the one table, made on first use (a restore may record workstreams
 * before the feature has started). */
export function workstreamsOf(session: Session): WorkstreamTable {
  let t = tables.get(session);
  if (!t) tables.set(session, (t = new WorkstreamTable(session)));
  return t;
}
