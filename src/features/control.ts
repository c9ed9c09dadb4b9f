// What protocol v6's control messages share across connections: the event log, the exit status of
// panes that have gone (a `wait_for` exit or `pane_info` may come after), and who this daemon is.
// One instance per daemon, made before the first workspace so every change has a seq.
import type { EventBus, ModelEvent } from "../model/events";
import type { Session } from "../model/session";
import { EventLog } from "./event-log";

export interface PaneExit {
  pane: number;
  exit_code: number | null;
  signal: string | null;
  at: number;
}

/** Exits remembered for panes that have gone. */
const EXITS_KEPT = 1024;

export class Control {
  readonly events: EventLog;
  private exits = new Map<number, PaneExit>();

  constructor(
    readonly session: Session,
    readonly bootId: string,
    readonly startedAt: number,
  ) {
    this.events = new EventLog(session, session.bus, bootId);
    session.bus.on((e) => this.onBus(e));
  }

  get bus(): EventBus {
    return this.session.bus;
  }

  private onBus(e: ModelEvent): void {
    // A respawned pane runs again: its last exit no longer answers `wait_for` exit.
    if (e.type === "pane_respawned") this.exits.delete(e.pane);
    if (e.type !== "pane_exited") return;
    this.exits.set(e.pane, { pane: e.pane, exit_code: e.exit_code, signal: e.signal, at: Date.now() });
    if (this.exits.size > EXITS_KEPT) this.exits.delete(this.exits.keys().next().value!);
  }

  exitOf(pane: number): PaneExit | undefined {
    return this.exits.get(pane);
  }
}
