// What protocol v6's control messages share across connections: the event log, the exit status of
// panes that have gone (a `wait_for` exit or `pane_info` may come after), and who this daemon is.
// One instance per daemon, made before the first workspace so every change has a seq.
import type { EventBus, ModelEvent } from "../model/events";
import type { Session } from "../model/session";
import type { Source } from "../model/text-sources";
import { EventLog } from "./event-log";

export interface PaneExit {
  pane: number;
  exit_code: number | null;
  signal: string | null;
  at: number;
}

/** Exits remembered for panes that have gone. */
const EXITS_KEPT = 1024;
/** Panes whose last words are remembered, and how much of each source's text (its end). Last words
 * are the pane's last screen: what a script waits for was just printed, and an exit then costs a
 * screen's reading, not the history's. */
const LAST_WORDS_KEPT = 4;
const LAST_WORDS_MAX = 256 * 1024;

export class Control {
  readonly events: EventLog;
  private exits = new Map<number, PaneExit>();
  /** What a pane that closes as its program exits (not kept, not held) showed: an `output` wait
   * sent just after it closed (`p=$(ws tab new -- make); ws wait output $p OK`) still matches
   * its last words. Its text can't change once its program has gone, so it is read at the exit. */
  private lastWords = new Map<number, Record<Source, string>>();
  /** The server is quitting: nobody will wait on a pane again, and its panes' exits read nothing. */
  private quitting = false;

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
    if (e.type === "server_quitting") {
      this.quitting = true;
      this.lastWords.clear();
    }
    // A respawned pane runs again: its last exit no longer answers `wait_for` exit.
    if (e.type === "pane_respawned") {
      this.exits.delete(e.pane);
      this.lastWords.delete(e.pane);
    }
    if (e.type !== "pane_exited") return;
    this.exits.set(e.pane, { pane: e.pane, exit_code: e.exit_code, signal: e.signal, at: Date.now() });
    if (this.exits.size > EXITS_KEPT) this.exits.delete(this.exits.keys().next().value!);
    const pane = this.session.panes.get(e.pane);
    if (!pane || pane.keep || pane.held || this.quitting) return;
    const text = (rows: { text: string }[]) => rows.map((l) => l.text).join("\n").slice(-LAST_WORDS_MAX);
    // The screen is the end of `recent` as well; only the joining of wrapped rows differs.
    const screen = text(pane.emulator.sourceRows("visible"));
    this.lastWords.set(e.pane, { visible: screen, recent: screen, "recent-unwrapped": text(pane.emulator.sourceRows("recent-unwrapped", false, true)) });
    if (this.lastWords.size > LAST_WORDS_KEPT) this.lastWords.delete(this.lastWords.keys().next().value!);
  }

  exitOf(pane: number): PaneExit | undefined {
    return this.exits.get(pane);
  }

  /** A pane that closed as its program exited: its text from `source` then (see lastWords). */
  lastWordsOf(pane: number, source: Source): string | undefined {
    return this.session.panes.has(pane) ? undefined : this.lastWords.get(pane)?.[source];
  }
}
