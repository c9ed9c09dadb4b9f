// The public event stream of protocol v6 (`subscribe`): model changes from the session bus, given a
// sequence number and kept in a bounded ring for replay, and the subscribers reading them. Memory
// stays bounded however slow a reader is: the ring has a fixed size in events and bytes, and a
// subscriber never has more than SUB_MAX_QUEUED bytes queued; a reader that falls behind catches up
// from the ring, and gets a `gap` only for events the ring no longer holds.
import type { Connection } from "../protocol/connection";
import type { EventBus, ModelEvent } from "../model/events";
import type { Session } from "../model/session";
import { OPT_IN, publishedOf } from "./events";

export const RETAIN_EVENTS = 4096;
export const RETAIN_BYTES = 4 * 1024 * 1024;
/** Bytes a subscriber may have queued unread before it counts as behind. */
export const SUB_MAX_QUEUED = 128 * 1024;
/** At most one `output` event per pane per subscriber in this interval. */
export const OUTPUT_INTERVAL_MS = 100;

interface Stored {
  seq: number;
  event: string;
  workspace?: string;
  pane?: number;
  /** The event line, serialized once. */
  line: string;
}

export interface Filter {
  types?: ReadonlySet<string>;
  workspace?: string;
  pane?: number;
}

function matches(f: Filter, e: { event: string; workspace?: string; pane?: number }): boolean {
  if (f.types ? !f.types.has(e.event) : OPT_IN.includes(e.event)) return false;
  if (f.workspace !== undefined && e.workspace !== f.workspace) return false;
  if (f.pane !== undefined && e.pane !== f.pane) return false;
  return true;
}

export class EventLog {
  seq = 0;
  private ring: Stored[] = [];
  private head = 0; // index of the oldest retained event in `ring`
  private bytes = 0;
  readonly subs = new Set<Subscription>();

  constructor(
    private session: Session,
    bus: EventBus,
    readonly bootId: string,
    private limits = { events: RETAIN_EVENTS, bytes: RETAIN_BYTES },
  ) {
    bus.on((e) => this.onBus(e));
  }

  /** The oldest retained seq (seq + 1 when none is retained). */
  get oldest(): number {
    return this.ring.length > this.head ? this.ring[this.head]!.seq : this.seq + 1;
  }

  get retained(): number {
    return this.ring.length - this.head;
  }

  get retainedBytes(): number {
    return this.bytes;
  }

  /** Retained events after `seq`, oldest first. */
  *since(seq: number): Generator<Stored> {
    // seqs are consecutive in the ring, so the start is found by arithmetic.
    const first = Math.max(this.head, this.head + (seq + 1 - this.oldest));
    for (let i = first; i < this.ring.length; i++) yield this.ring[i]!;
  }

  private where(pane: number): { workspace?: string; tab?: number } {
    const at = this.session.where(pane);
    return at ? { workspace: at.ws.name, tab: at.tab.id } : {};
  }

  private onBus(e: ModelEvent): void {
    if (e.type === "pane_output") {
      // Every echo comes through here: nothing to look up when nobody subscribes.
      if (!this.subs.size) return;
      const workspace = this.where(e.pane).workspace;
      for (const s of this.subs) s.output(e.pane, workspace);
      return;
    }
    const published = publishedOf(e.type);
    if (!published) return;
    // Exactly the fields its declaration publishes, those set.
    const fields: Record<string, unknown> = {};
    for (const name of Object.keys(published.fields)) {
      const v = (e as Record<string, unknown>)[name];
      if (v !== undefined) fields[name] = v;
    }
    // An event about a pane that doesn't say where the pane is (pane_exited, a pane_closed outside
    // any tab, an agent's) gets where it is now.
    const placed = typeof fields.pane === "number" && fields.workspace === undefined ? { ...this.where(fields.pane), ...fields } : fields;
    this.publish({ event: published.type, ...placed });
  }

  private publish(fields: { event: string; [k: string]: unknown }): void {
    const seq = ++this.seq;
    const { event, ...rest } = fields;
    const line = JSON.stringify({ v: 6, type: "event", event, seq, boot_id: this.bootId, time: Date.now(), ...rest }) + "\n";
    const stored: Stored = { seq, event, workspace: rest.workspace as string | undefined, pane: rest.pane as number | undefined, line };
    this.ring.push(stored);
    this.bytes += line.length;
    while (this.retained > this.limits.events || (this.bytes > this.limits.bytes && this.retained > 1)) this.evict();
    for (const s of this.subs) s.deliver(stored);
  }

  private evict(): void {
    const old = this.ring[this.head]!;
    this.head++;
    this.bytes -= old.line.length;
    for (const s of this.subs) s.evicted(old);
    // Compact now and then so the array does not grow without end.
    if (this.head > 1024 && this.head * 2 > this.ring.length) {
      this.ring = this.ring.slice(this.head);
      this.head = 0;
    }
  }

  /** Start a subscription on `conn`. Call `start` once the acknowledgement has been written. */
  subscribe(conn: Connection, filter: Filter, afterSeq: number): Subscription {
    const s = new Subscription(this, conn, filter, afterSeq);
    this.subs.add(s);
    return s;
  }
}

/** One subscriber: its filter, how far it has read, and what it lost. */
export class Subscription {
  private live = false;
  private behind = false;
  /** Matching events evicted from the ring before this subscriber got them. */
  private lost = 0;
  private lostFrom: number | undefined;
  private outputAt = new Map<number, number>();
  private outputTimers = new Map<number, ReturnType<typeof setTimeout>>();
  private outputPending = new Set<number>();
  closed = false;

  constructor(
    private log: EventLog,
    private conn: Connection,
    private filter: Filter,
    /** The last seq this subscriber has (been sent, or said it has). */
    private cursor: number,
  ) {}

  /** After the acknowledgement: replay what is retained after the cursor, then go live. */
  start(gap?: Record<string, unknown>): void {
    if (gap) this.write(this.gapLine(gap));
    this.live = true;
    this.catchUp();
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.log.subs.delete(this);
    for (const t of this.outputTimers.values()) clearTimeout(t);
    this.outputTimers.clear();
  }

  private gapLine(fields: Record<string, unknown>): string {
    // No seq of its own: a reader that keeps the last seq it saw must not skip past what follows.
    return JSON.stringify({ v: 6, type: "event", event: "gap", boot_id: this.log.bootId, time: Date.now(), ...fields }) + "\n";
  }

  private write(line: string): void {
    this.conn.write(line);
  }

  private full(): boolean {
    return this.conn.queuedBytes > SUB_MAX_QUEUED;
  }

  deliver(e: Stored): void {
    if (this.closed || this.conn.closed) return this.close();
    if (!this.live || this.behind) return; // catchUp() will read it from the ring
    if (!matches(this.filter, e)) {
      this.cursor = e.seq;
      return;
    }
    if (this.full()) return this.fallBehind();
    this.write(e.line);
    this.cursor = e.seq;
  }

  evicted(e: Stored): void {
    if (e.seq <= this.cursor) return;
    if (matches(this.filter, e)) {
      this.lost++;
      this.lostFrom ??= e.seq;
    }
    this.cursor = e.seq;
  }

  private fallBehind(): void {
    if (this.behind) return;
    this.behind = true;
    void this.conn.drained().then(() => {
      if (this.closed || this.conn.closed) return this.close();
      this.behind = false;
      this.catchUp();
    });
  }

  /** Write retained events after the cursor until caught up or the queue is full. */
  private catchUp(): void {
    if (this.lost) {
      this.write(this.gapLine({ reason: "overflow", dropped: this.lost, from_seq: this.lostFrom, to_seq: this.log.oldest - 1 }));
      this.lost = 0;
      this.lostFrom = undefined;
    }
    for (const e of this.log.since(this.cursor)) {
      if (matches(this.filter, e)) {
        if (this.full()) return this.fallBehind();
        this.write(e.line);
      }
      this.cursor = e.seq;
    }
    for (const pane of this.outputPending) this.sendOutput(pane);
    this.outputPending.clear();
  }

  /** A pane printed: an `output` event, at most one per OUTPUT_INTERVAL_MS (the last one always comes). */
  output(pane: number, workspace: string | undefined): void {
    if (this.closed || !this.live) return;
    if (!matches(this.filter, { event: "output", pane, workspace })) return;
    if (this.behind) return void this.outputPending.add(pane);
    const now = Date.now();
    const wait = (this.outputAt.get(pane) ?? 0) + OUTPUT_INTERVAL_MS - now;
    if (wait <= 0) return this.sendOutput(pane);
    if (!this.outputTimers.has(pane))
      this.outputTimers.set(pane, setTimeout(() => {
        this.outputTimers.delete(pane);
        if (!this.closed) this.sendOutput(pane);
      }, wait));
  }

  private sendOutput(pane: number): void {
    if (this.full()) {
      this.outputPending.add(pane);
      return this.fallBehind();
    }
    this.outputAt.set(pane, Date.now());
    this.write(JSON.stringify({ v: 6, type: "event", event: "output", boot_id: this.log.bootId, time: Date.now(), pane }) + "\n");
  }
}
