// The ids the Session hands out to panes, tabs and workspaces: counters that only go up, and the
// saved ids a restore may give back (promised). The Session owns one and alone changes it.

/** Saved ids above this are not kept (a hand-made save's 2^53 would leave no ids after it). */
const MAX_SAVED_ID = 2 ** 31 - 1;

export type IdKind = "pane" | "tab" | "workspace";

export class IdCounters {
  private readonly counters: Record<IdKind, number> = { pane: 1, tab: 1, workspace: 1 };
  /** Saved ids a restore may give back (promise): never issued by this server, and the counters
   * are above them, so nothing else can take them meanwhile. */
  private readonly promised: Record<IdKind, Set<number>> = { pane: new Set(), tab: new Set(), workspace: new Set() };

  /** The next id of each kind not yet given out. */
  get next(): Readonly<Record<IdKind, number>> {
    return this.counters;
  }

  /** A new id of `kind`. */
  issue(kind: IdKind): number {
    return this.counters[kind]++;
  }

  /** A build's pane ids, from the counter up to (not including) `next`, are taken. */
  reservePanes(next: number): void {
    this.counters.pane = next;
  }

  /** A failed build gives its ids back, unless later panes took ids after them meanwhile. */
  unreservePanes(first: number, next: number): void {
    if (this.counters.pane === next) this.counters.pane = first;
  }

  /** `saved` if it was promised (it is taken now), else a new id. */
  take(kind: IdKind, saved: number | undefined): number {
    if (saved !== undefined && this.promised[kind].delete(saved)) return saved;
    return this.issue(kind);
  }

  /** Whether a saved pane id was promised; it is taken now if so. */
  takePromisedPane(saved: number): boolean {
    return this.promised.pane.delete(saved);
  }

  /**
   * A restore is about to rebuild a save: the saved ids it may keep. An id this server has not
   * issued yet (at or above its counter) is promised to the restore; the counters move above every
   * saved id and the save's own counters (`next`: ids of panes closed before the save stay unused),
   * so no new pane, tab or workspace takes an id the restore or the saved run gave out. An id
   * issued already (a restore into a running server) is not promised: that part gets a new id.
   */
  promise(saved: Record<IdKind, number[]>, next: Partial<Record<IdKind, number>> = {}): void {
    for (const kind of ["pane", "tab", "workspace"] as const) {
      const counter = this.counters[kind];
      let top = counter;
      for (const id of saved[kind])
        if (Number.isSafeInteger(id) && id >= counter && id <= MAX_SAVED_ID) {
          this.promised[kind].add(id);
          top = Math.max(top, id + 1);
        }
      const n = next[kind];
      if (n !== undefined && Number.isSafeInteger(n) && n <= MAX_SAVED_ID + 1) top = Math.max(top, n);
      this.counters[kind] = top;
    }
  }

  /** The restore is over: ids it did not use are not given out (the counters are above them). */
  forgetPromised(): void {
    for (const set of Object.values(this.promised)) set.clear();
  }
}
