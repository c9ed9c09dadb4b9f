// The interface's attached clients: attaching (sharing the session with the others, or replacing
// them as the spec's v1–v5 attach and `ws attach -d` do), driving each user's terminal, and letting
// go of one (detach, quit, the connection gone). What each terminal was told to do (its modes,
// passthrough state) is set and undone here; which client is the latest active one (tmux's
// `window-size latest`: the last to type or attach) is kept here too.

import type { Connection } from "../protocol/connection";
import type { TermEvent } from "../protocol/events";
import type { ExitNotice } from "../protocol/frames";
import { AttachedClient, type ClientLog } from "./attached-client";
import { OuterModes, PaneFocus } from "./outer-modes";
import { Passthrough, type PassthroughSettings } from "./passthrough";
import type { AttachParams } from "../features/services";
import type { TerminalReport } from "../protocol/terminal-report";
import { ClientState } from "./client-state";
import type { FrameScheduler } from "./frame-scheduler";
import type { Pane } from "../model/pane";

/** At most this many clients attached at once; one more is refused (each costs a frame per change). */
export const MAX_CLIENTS = 16;

export interface ClientHooks {
  /** An event from a client. */
  event(v: ClientView, ev: TermEvent): void;
  /** Printable ASCII a client typed (AttachedClient.onText): true when taken as it is. */
  text(v: ClientView, bytes: Uint8Array): boolean;
  /** A client is gone (detached, replaced, or its connection closed). */
  gone(v: ClientView): void;
  /** The latest active client changed (undefined: none is attached now). */
  latest(v: ClientView | undefined): void;
  /** A new client's frame scheduler. */
  frames(v: ClientView): FrameScheduler;
}

/** One attached client: its connection, its terminal's state and its own part of the interface. */
export class ClientView {
  readonly state = new ClientState();
  /** The user's terminal's mouse and keypad modes, following the focused pane. */
  readonly outerModes = new OuterModes();
  readonly passthrough: Passthrough;
  frames!: FrameScheduler;
  /** Its $TERM, when it sent a sane one. */
  readonly term: string | undefined;
  /** What its terminal said about itself (colours, XTVERSION), once it has. */
  report: TerminalReport | undefined;
  cols: number;
  rows: number;
  /** When it last typed or attached, as a count (the latest active client has the largest). */
  activeAt = 0;
  /** Whether its terminal has focus (assumed until it says otherwise). */
  focused = true;
  /** When (Date.now()) it last typed or attached. */
  activeSince = Date.now();
  readonly attachedAt = Date.now();
  /** Where its screen's panes area starts on the session's, when its terminal is smaller than the
   * session (tmux's window offset: the part around the cursor). */
  offset = { x: 0, y: 0 };
  /** Whether its last frame was fitted to a size other than the session's. */
  fitted = false;
  client!: AttachedClient;

  constructor(
    readonly id: number,
    req: AttachParams,
    settings: PassthroughSettings,
    rang: Set<number>,
  ) {
    this.cols = req.cols;
    this.rows = req.rows;
    this.term = req.term !== undefined && /^[\x21-\x7e]{1,128}$/.test(req.term) ? req.term : undefined;
    this.passthrough = new Passthrough(settings, rang);
  }

  get version(): string | undefined {
    return this.report?.version;
  }
}

export class ClientSet {
  private views: ClientView[] = [];
  private nextId = 1;
  private activity = 0;
  private latestView: ClientView | undefined;
  /** Focus in/out reports to panes as the focus moves (one focus for the session's panes). */
  readonly paneFocus = new PaneFocus();
  /** Panes that rang while off screen, for every client's tab bar. */
  private readonly rang = new Set<number>();

  constructor(
    private readonly settings: PassthroughSettings,
    private readonly log: ClientLog,
    private readonly hooks: ClientHooks,
  ) {}

  /** Every attached client, in the order they attached. */
  get all(): readonly ClientView[] {
    return this.views;
  }

  /** The latest active client: the session's size is its size. */
  get latest(): ClientView | undefined {
    return this.latestView;
  }

  get(id: number): ClientView | undefined {
    return this.views.find((v) => v.id === id);
  }

  /** Whether a pane of `panes` rang while off screen. */
  marked(panes: number[]): boolean {
    return this.rang.size > 0 && panes.some((p) => this.rang.has(p));
  }

  forget(pane: number): void {
    this.rang.delete(pane);
  }

  /** A pane rang the bell: each client's terminal hears it once; a pane off screen everywhere
   * (or with nobody attached) marks its tab. */
  bell(pane: number): void {
    if (!this.views.length) this.rang.add(pane);
    for (const v of this.views) v.passthrough.bell(pane, v.frames.isVisible(pane));
  }

  /** Take a new client. `share`: beside those attached; otherwise it replaces them (keeping what
   * the latest had open). Undefined when MAX_CLIENTS are attached. */
  attach(req: AttachParams, conn: Connection, share: boolean): ClientView | undefined {
    const before = this.latestView;
    if (share && this.views.length >= MAX_CLIENTS) return undefined;
    const v = new ClientView(this.nextId++, req, this.settings, this.rang);
    if (!share) {
      if (before) v.state.takeOver(before.state);
      for (const old of [...this.views]) this.detach(old, { reason: "replaced", message: "attached from another terminal" }, false);
    }
    const c = new AttachedClient(
      conn,
      (ev) => this.hooks.event(v, ev),
      () => this.gone(v),
      this.log,
    );
    c.onText = (bytes) => this.hooks.text(v, bytes);
    v.client = c;
    v.frames = this.hooks.frames(v);
    this.views.push(v);
    c.onTerminal = (r) => {
      v.report = r;
      if (this.latestView === v) this.hooks.latest(v);
    };
    if (req.tty) c.driveTerminal(req.tty, req.tty_id, req.keys === "ask", v.term);
    c.send(v.passthrough.attached());
    this.touch(v);
    return v;
  }

  /** `v` typed or attached: it is the latest active client now. True when that is news. */
  touch(v: ClientView): boolean {
    v.activeAt = ++this.activity;
    v.activeSince = Date.now();
    if (this.latestView === v) return false;
    this.latestView = v;
    this.hooks.latest(v);
    return true;
  }

  /** Let a client go with `notice`, its terminal put back as it was. */
  detach(v: ClientView, notice: ExitNotice, tell = true): void {
    if (!this.views.includes(v)) return;
    v.client.send(v.passthrough.detaching());
    this.remove(v, tell);
    v.client.exit(notice);
  }

  /** Let every client go. */
  detachAll(notice: ExitNotice): void {
    for (const v of [...this.views]) this.detach(v, notice);
  }

  /** A client's terminal gained or lost focus: the focused pane hears of it when that changes
   * whether any attached terminal has focus. */
  focus(v: ClientView, gained: boolean, pane: Pane | undefined): void {
    const before = this.views.some((o) => o.focused);
    v.focused = gained;
    const now = this.views.some((o) => o.focused);
    if (now !== before || this.views.length === 1) this.paneFocus.outer(now, pane);
  }

  /** Raw bytes for every client's terminal outside the grid (notifications). */
  send(s: string): void {
    for (const v of this.views) v.client.send(s);
  }

  /** Its connection closed by itself. */
  private gone(v: ClientView): void {
    this.remove(v, true);
  }

  private remove(v: ClientView, tell: boolean): void {
    const at = this.views.indexOf(v);
    if (at < 0) return;
    this.views.splice(at, 1);
    v.state.stop();
    v.frames.dispose();
    if (this.latestView === v) {
      // The one active before it is the latest now.
      this.latestView = this.views.reduce<ClientView | undefined>((a, b) => (!a || b.activeAt > a.activeAt ? b : a), undefined);
      if (!this.latestView && tell) this.paneFocus.detached();
      if (tell) this.hooks.latest(this.latestView);
    }
    this.hooks.gone(v);
  }
}
