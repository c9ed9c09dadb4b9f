// The interactive interface the server runs for its attached clients: the state the person sees
// and acts on (prefix, prompt, overlay, copy mode, notices: each client's own, client-state.ts)
// and the session's events that change it. The parts that do the work: the clients' lifecycle
// (client-lifecycle.ts), routing their input (input-router.ts) and scheduling each one's frames
// (frame-scheduler.ts, frame-fanout.ts).
//
// The per-client state is read and written through this object's fields (prompt, overlay, copy…),
// which are those of the client being served: the one whose event is handled, otherwise the
// latest active client (tmux's "best client" for a command that names none).
//
// One piece: every field here either redirects to the served client's state or answers the
// session's events for all clients at once; split, each half would need the other's internals.

import type { Session } from "../model/session";
import type { Connection } from "../protocol/connection";
import type { AttachParams, AttachedClientInfo, UiHooks, UiService } from "../features/services";
import type { Pane } from "../model/pane";
import type { TermEvent } from "../protocol/events";
import type { ExitNotice } from "../protocol/frames";
import type { AttachedClient, ClientLog } from "./attached-client";
import { logValue } from "../safe-text";
import { type Keymap, describeKeymap } from "./keymap";
import { type Prompt, newConfirm } from "./prompt";
import { type CopyMode, osc52, scrollCopy, enterCopyMode } from "./copy-mode";
import { runUiAction } from "./ui-actions";
import type { DragState } from "./mouse";
import { notificationBytes } from "../protocol/notification";
import { ClientSet, ClientView } from "./client-lifecycle";
import { ClientState, type ClientOverlay } from "./client-state";
import { FrameScheduler } from "./frame-scheduler";
import { FrameFanout } from "./frame-fanout";
import { clientFrameHost } from "./client-frame-host";
import { routeEvent, toPane, typeIn, typeStraight } from "./input-router";
import { FocusHistory } from "./focus-history";
import { usesTime } from "./status-format";
import { statusParts, TabNumbers } from "./status-parts";

/** How long a notification stays on the status line. */
export const NOTICE_MS = 5000;
/** How long display-panes shows the numbers (tmux's display-panes-time). */
export const PANE_NUMBERS_MS = 1000;
const OSC_NOTIFICATIONS: ReadonlySet<string> = new Set(["osc9", "osc777"]);

export interface InterfaceOptions {
  session: Session;
  keymap: Keymap;
  /** Problems found loading keys.toml, shown once on attach. */
  warnings?: string[];
  build: string;
  shutdown(keep: boolean): void;
  /** Whether the quit command saves the session first (not for a --local server). Default true. */
  keepOnQuit?: boolean;
  /** Where faults and dropped input are reported (the daemon's log). */
  log?: ClientLog;
  /** This server's socket, for command lines run from the interface (prefix :). */
  socketPath?: string;
}

// The hooks features set (tabBadge, dashboard, shipAsk, …), declared once in UiHooks.
export interface Interface extends UiHooks {}
// biome-ignore lint/suspicious/noUnsafeDeclarationMerging: UiHooks' members are all optional and set by features, so none needs initialising
export class Interface implements UiService {
  readonly session: Session;
  /** Changed in place by ws config reload (each client's passthrough holds the same object). */
  readonly keymap: Keymap;
  /** The client being served while its event is handled (otherwise the latest active one). */
  private acting: ClientView | undefined;
  /** The per-client state while no client is attached. */
  private readonly idle = new ClientState();
  /** A tab whose pane rang the bell while off screen is marked. */
  bellMark = (panes: number[]): boolean => this.clients.marked(panes);
  /** The last text copied (copy mode, a mouse selection), for `prefix ]` (one for every client, as
   * tmux's paste buffers). */
  lastCopy?: string;
  /** Tabs whose panes all get what is typed (sync-panes), by tab id. */
  readonly syncTabs = new Set<number>();
  readonly focusHistory: FocusHistory;
  private clockTimer: ReturnType<typeof setInterval> | undefined;
  private unsubscribe: () => void;
  private readonly log: ClientLog;
  /** The attached clients. */
  readonly clients: ClientSet;
  readonly frames: FrameFanout;

  constructor(readonly opts: InterfaceOptions) {
    this.session = opts.session;
    this.log = opts.log ?? console;
    this.keymap = opts.keymap;
    this.frames = new FrameFanout(
      () => this.clients.all.map((v) => v.frames),
      () => this.session.panes.values(),
    );
    this.clients = new ClientSet(opts.keymap, this.log, {
      event: (v, ev) => this.onEvent(v, ev),
      text: (v, bytes) => this.onText(v, bytes),
      gone: (v) => {
        // The last client to leave: what it had open waits for the next attach, as before there were several.
        if (!this.clients.all.length) this.idle.takeOver(v.state);
        this.invalidate();
      },
      latest: (v) => this.latestChanged(v),
      frames: (v) => {
        const f = new FrameScheduler(clientFrameHost(this, v), this.log);
        this.frames.adopt(f);
        return f;
      },
    });
    this.focusHistory = new FocusHistory(this.session);
    this.keymapChanged();
    for (const p of this.session.panes.values()) this.frames.track(p);
    // A pane's output is heard ahead of the features: the typed pane's echo is drawn before them.
    const offOutput = this.session.bus.onFirst((e) => {
      if (e.type === "pane_output") this.frames.paneOutput(e.pane);
    });
    const offRest = this.session.bus.on((e) => {
      switch (e.type) {
        case "pane_output":
          return; // heard above
        case "pane_created": {
          const p = this.session.panes.get(e.pane);
          if (p) this.frames.track(p);
          break;
        }
        case "tab_closed":
          this.tabNumbers.delete(e.tab);
          this.focusHistory.observe();
          break;
        case "tab_focused":
        case "pane_focused":
        case "workspace_focused":
        case "workspace_closed":
          this.focusHistory.observe();
          break;
        case "pane_closed":
          this.focusHistory.observe();
          this.clients.forget(e.pane);
          this.frames.paneClosed(e.pane);
          for (const st of this.states()) if (st.copy?.pane === e.pane) st.copy = undefined;
          break;
        case "server_quitting":
          this.detachClient({ reason: "quit", message: "the ws server quit" });
          return;
        case "notification":
          return this.notify(e.title, e.body, e.pane);
        case "pane_bell":
          this.clients.bell(e.pane);
          break;
        case "pane_clipboard":
          for (const v of this.clients.all) v.passthrough.clipboard(e.data);
          break;
      }
      this.invalidate();
    });
    this.unsubscribe = () => {
      offOutput();
      offRest();
    };
  }

  dispose(): void {
    this.unsubscribe();
    clearInterval(this.clockTimer);
    for (const st of this.states()) st.stop();
    for (const v of this.clients.all) v.frames.dispose();
  }

  // ---- the client served, and its own state ---------------------------------

  /** The client being served: the one whose event is handled, otherwise the latest active one. */
  get served(): ClientView | undefined {
    const a = this.acting;
    return a && this.clients.all.includes(a) ? a : this.clients.latest;
  }

  /** Stands for the served client, for features that keep something per client. */
  get servedKey(): object {
    return this.state;
  }

  /** Run `fn` as each attached client in turn. */
  eachClient(fn: () => void): void {
    for (const v of [...this.clients.all]) this.as(v, fn);
  }

  /** Runs a function later as the client served now (while it is attached): what an asynchronous
   * command shows (a command line's output) goes to the client that ran it. */
  servedLater(): (fn: () => void) => void {
    const v = this.served;
    return (fn) => (v && this.clients.all.includes(v) ? this.as(v, fn) : fn());
  }

  /** Run `fn` serving `v`. */
  private as(v: ClientView, fn: () => void): void {
    const before = this.acting;
    this.acting = v;
    try {
      fn();
    } finally {
      this.acting = before;
    }
  }

  /** The served client's own state (the idle one while none is attached). */
  private get state(): ClientState {
    return this.served?.state ?? this.idle;
  }

  /** Every client's state, the idle one's too. */
  private states(): ClientState[] {
    return [this.idle, ...this.clients.all.map((v) => v.state)];
  }

  get prefixPending(): boolean {
    return this.state.prefixPending;
  }
  set prefixPending(on: boolean) {
    this.state.prefixPending = on;
  }
  /** display-panes: each pane's number on screen until a key or PANE_NUMBERS_MS. */
  get paneNumbers(): boolean | undefined {
    return this.state.paneNumbers;
  }
  set paneNumbers(on: boolean | undefined) {
    this.state.paneNumbers = on;
  }
  /** True while an action runs from a key the person pressed after the prefix (the Dashboard
   * takes y/n at once only when opened so). */
  get fromPrefixKey(): boolean {
    return this.state.fromPrefixKey;
  }
  set fromPrefixKey(on: boolean) {
    this.state.fromPrefixKey = on;
  }
  get prompt(): Prompt | undefined {
    return this.state.prompt;
  }
  set prompt(p: Prompt | undefined) {
    this.state.prompt = p;
  }
  get overlay(): ClientOverlay | undefined {
    return this.state.overlay;
  }
  set overlay(o: ClientOverlay | undefined) {
    this.state.overlay = o;
  }
  get copy(): CopyMode | undefined {
    return this.state.copy;
  }
  set copy(c: CopyMode | undefined) {
    this.state.copy = c;
  }
  get message(): string | undefined {
    return this.state.message;
  }
  set message(m: string | undefined) {
    this.state.message = m;
  }
  get drag(): DragState | undefined {
    return this.state.drag;
  }
  set drag(d: DragState | undefined) {
    this.state.drag = d;
  }

  /** Take a keymap read again (ws config reload): in place, so whatever holds it sees the new one. */
  replaceKeymap(next: Keymap): void {
    const km = this.keymap as unknown as Record<string, unknown>;
    for (const k of Object.keys(km)) delete km[k];
    Object.assign(km, next);
    this.keymapChanged();
    this.invalidate();
  }

  private keymapChanged(): void {
    this.session.setBars(this.keymap.statusLine !== false);
    clearInterval(this.clockTimer);
    this.clockTimer = undefined;
    // {time} on the status line: a frame each minute keeps it right (none while nobody is attached).
    if (this.keymap.status && usesTime(this.keymap.status)) {
      this.clockTimer = setInterval(() => this.invalidate(), 15_000);
      this.clockTimer.unref?.();
    }
  }

  /** The status line's parts: keys.toml's [status] formats, or the defaults naming the prefix. */
  statusParts(): { left: string; right: string; badge: boolean } {
    return statusParts(this.session, this.keymap, this.syncTabs, (i) => this.tabNumber(i), () => this.statusBadge?.());
  }

  // ---- clients -------------------------------------------------------------

  /** The served client's connection, if any is attached. */
  get client(): AttachedClient | undefined {
    return this.served?.client;
  }

  /** The latest active client's $TERM, when it sent a sane one. */
  get clientTerm(): string | undefined {
    return this.clients.latest?.term;
  }

  /** The latest active terminal's XTVERSION answer, once it has given one. */
  get clientVersion(): string | undefined {
    return this.clients.latest?.version;
  }

  /** A client attaching: beside the others (`share`, v6), or replacing them (v1–v5, `ws attach -d`). */
  attach(req: AttachParams, conn: Connection, share = false): ClientView | undefined {
    const first = this.clients.all.length === 0;
    const v = this.clients.attach(req, conn, share);
    if (!v) return undefined;
    if (first) v.state.takeOver(this.idle);
    const notes = [...(this.opts.warnings ?? [])];
    if (req.build && req.build !== this.opts.build)
      notes.push(`this server is build ${this.opts.build}, your ws is ${req.build}: restart it (ws kill-server --keep, then ws)`);
    v.state.message = notes.length ? notes.join("  ·  ") : undefined;
    v.frames.restart();
    this.invalidate();
    return v;
  }

  /** End every client's stream with this notice (quit, ws restart). */
  detachClient(notice: ExitNotice): void {
    this.clients.detachAll(notice);
  }

  /** End the served client's stream (prefix d: the client that pressed it, as tmux's detach-client). */
  detachThis(notice: ExitNotice): void {
    const v = this.served;
    if (v) this.clients.detach(v, notice);
  }

  /** The attached clients, for attach_clients. */
  clientList(): AttachedClientInfo[] {
    const now = Date.now();
    return this.clients.all.map((v) => ({
      id: v.id,
      cols: v.cols,
      rows: v.rows,
      ...(v.term ? { term: v.term } : {}),
      ...(v.version ? { terminal: v.version } : {}),
      latest: v === this.clients.latest,
      attached_ms: now - v.attachedAt,
      idle_ms: now - v.activeSince,
    }));
  }

  /** End client `id`'s stream (attach_client_detach); false when none has that id. */
  detachClientId(id: number, notice: ExitNotice): boolean {
    const v = this.clients.get(id);
    if (!v) return false;
    this.clients.detach(v, notice);
    return true;
  }

  /** The latest active client changed: the session takes its size (tmux's window-size latest), and
   * panes asking the terminal's colours hear its. */
  private latestChanged(v: ClientView | undefined): void {
    if (v) this.session.setClientSize(v.cols, v.rows);
    this.session.setClientTerminal(v?.report);
    this.invalidate();
  }

  // ---- frames --------------------------------------------------------------

  /** Ask for a frame no later than `interval` after the last one (an earlier ask wins). */
  invalidate(interval?: number): void {
    this.frames.invalidate(interval);
  }

  /** The popup over the tab on screen, if one is open: it has the keys. */
  popup(): Pane | undefined {
    const ws = this.session.workspaces[this.session.current];
    const tab = ws?.tabs[ws.active];
    return tab?.popup && this.session.panes.get(tab.popup.pane);
  }

  /** A notification: on the status line for NOTICE_MS (a key clears it sooner), and to the outer
   * terminal as OSC 9 and OSC 777. The text is already free of control characters (notify). */
  private notify(title: string, body = "", pane?: number): void {
    if (!this.clients.all.length) return;
    const text = `${pane !== undefined ? `pane ${pane}: ` : ""}${title}${body ? `: ${body}` : ""}`;
    // Every client sees it, each for NOTICE_MS or until its own next key.
    for (const { state: st } of this.clients.all) {
      st.message = text;
      clearTimeout(st.noticeTimer);
      st.noticeTimer = setTimeout(() => {
        if (st.message !== text) return;
        st.message = undefined;
        this.invalidate();
      }, NOTICE_MS);
    }
    this.sendRaw(notificationBytes(OSC_NOTIFICATIONS, title, body));
    this.invalidate();
  }

  /** Raw bytes for every client's terminal outside the grid (notifications). */
  sendRaw(s: string): void {
    this.clients.send(s);
  }

  // ---- input ---------------------------------------------------------------

  focusedPane(): Pane | undefined {
    const popup = this.popup();
    if (popup) return popup;
    const ws = this.session.workspaces[this.session.current];
    const tab = ws?.tabs[ws.active];
    return tab ? this.session.panes.get(tab.focused) : undefined;
  }

  private onEvent(v: ClientView, ev: TermEvent): void {
    if (!this.clients.all.includes(v)) return;
    const before = this.acting;
    this.acting = v;
    try {
      if (typeof ev === "object" && "Resize" in ev) {
        // Only the latest active client's size is the session's; another's is where its frames fit.
        [v.cols, v.rows] = ev.Resize;
        if (this.clients.latest === v) this.session.setClientSize(v.cols, v.rows);
        v.frames.invalidate();
        return;
      }
      if (activity(ev)) this.clients.touch(v);
      else if (typeof ev === "object" && "Mouse" in ev && this.clients.latest !== v) return; // hover over a view fitted to another size
      this.handle(ev);
    } catch (e) {
      this.log.error(`attach client ${v.client.conn.id}: handling ${logValue(ev, 80)} failed: ${(e as Error)?.stack ?? e}`);
      this.message = (e as Error).message;
      this.invalidate();
    } finally {
      this.acting = before;
    }
  }

  /** Printable text the latest active client typed: straight into the focused pane when no key of
   * it means anything else there (typeStraight); false to route it key by key, as onEvent. */
  private onText(v: ClientView, bytes: Uint8Array): boolean {
    if (this.clients.latest !== v) return false;
    const before = this.acting;
    this.acting = v;
    try {
      if (!typeStraight(this, bytes)) return false;
      this.clients.touch(v);
    } catch (e) {
      this.log.error(`attach client ${v.client.conn.id}: typing ${logValue(new TextDecoder().decode(bytes), 80)} failed: ${(e as Error)?.stack ?? e}`);
      this.message = (e as Error).message;
      this.invalidate();
    } finally {
      this.acting = before;
    }
    return true;
  }

  handle(ev: TermEvent): void {
    routeEvent(this, ev);
  }

  /** What the person types: to the focused pane, or every pane of a synchronized tab. */
  typeIn(ev: TermEvent): void {
    typeIn(this, ev);
  }

  /** Hand an event to the focused pane, encoded for its modes. */
  toPane(ev: TermEvent, pane = this.focusedPane()): void {
    toPane(this, ev, pane);
  }

  run(command: string): void {
    runUiAction(this, command);
    this.invalidate();
  }

  // ---- overlays, prompts, copy mode -----------------------------------------

  ask(label: string, initial: string, submit: (t: string) => void, complete?: Prompt["complete"]): void {
    this.prompt = { label, text: initial, pos: [...initial].length, submit, complete };
    this.invalidate();
  }

  /** The first tab's number (keys.toml base-index). */
  get baseIndex(): number {
    return this.keymap.baseIndex ?? 1;
  }

  /** keys.toml status-style: the bars' colours. */
  get statusStyle(): { fg?: number; bg?: number } | undefined {
    return this.keymap.statusStyle;
  }

  private readonly tabNumbers = new TabNumbers();

  /** The number tab i of the workspace on screen shows (base-index, renumber-windows). */
  tabNumber(i: number): number {
    return this.tabNumbers.of(this.session.currentWorkspace.tabs, i, this.baseIndex, this.keymap.renumberWindows !== false);
  }

  /** Show (or, with false, stop showing) each pane's number, as tmux's display-panes. */
  showPaneNumbers(on: boolean): void {
    const st = this.state;
    clearTimeout(st.paneNumbersTimer);
    st.paneNumbers = on || undefined;
    st.paneNumbersTimer = on
      ? setTimeout(() => {
          st.paneNumbers = undefined;
          this.invalidate();
        }, PANE_NUMBERS_MS)
      : undefined;
    this.invalidate();
  }

  /** A y/n question on the status line: `y` runs `yes`, any other key cancels (and runs `no`). */
  confirm(question: string, yes: () => void, no?: () => void): void {
    this.prompt = newConfirm(question, yes, no);
    this.invalidate();
  }

  showHelp(): void {
    const lines = describeKeymap(this.keymap, "prefix");
    if (this.keymap.prefixTable.get("w") === "choose-tree" && this.keymap.prefixTable.get("N") === "new-workspace")
      lines.unshift("prefix w is the tree picker (choose-tree), as in tmux; prefix N makes a new workspace", "");
    this.overlay = { title: `Keys (prefix is ${this.keymap.prefix}; q or Esc closes)`, lines, scroll: 0 };
  }

  /** `onChar`: a letter key on the selected line (the dashboard's y and n); true closes the list. */
  pick(title: string, items: string[], selected: number, onPick: (i: number) => void, preview?: (i: number) => string[], onChar?: (ch: string, selected: number) => boolean): void {
    this.overlay = { title, lines: items, items: items.length, selected, scroll: 0, onPick, preview, ...(onChar ? { onChar } : {}) };
    if (preview) this.overlay.lines = [...items, ...preview(selected)];
    this.invalidate();
  }

  pickShown(title: string): number | undefined {
    return this.overlay?.title === title && this.overlay.items !== undefined ? this.overlay.selected : undefined;
  }

  /** Text to read (a command line's output): scrolls, q or Escape closes. */
  view(title: string, lines: string[]): void {
    this.overlay = { title, lines, scroll: 0 };
    this.invalidate();
  }

  /** Text copied (copy mode, a mouse selection): to the user's clipboard (OSC 52) and for prefix ]. */
  copied(text: string): void {
    this.client?.send(osc52(text));
    this.lastCopy = text;
    this.message = `copied ${[...text].length} characters`;
    this.invalidate();
  }

  enterCopy(): void {
    const p = this.focusedPane();
    if (!p) return;
    this.copy = enterCopyMode(p.id, p.emulator);
    this.invalidate();
  }

  /** Wheel in a pane that doesn't take the mouse: scroll its history. */
  scrollPane(pane: Pane, lines: number): void {
    if (!this.copy || this.copy.pane !== pane.id) {
      if (lines <= 0) return;
      this.copy = enterCopyMode(pane.id, pane.emulator);
    }
    scrollCopy(this.copy, pane.emulator, lines);
    if (this.copy.offset === 0 && lines < 0 && !this.copy.anchor) this.copy = undefined;
    this.invalidate();
  }
}

/** What makes a client the latest active one (tmux's client activity): what the person does,
 * not a resize, a focus report or the mouse merely moving. */
function activity(ev: TermEvent): boolean {
  if (typeof ev !== "object") return false;
  if ("Key" in ev) return ev.Key.kind !== "Release";
  if ("Paste" in ev) return true;
  if ("Mouse" in ev) return ev.Mouse.kind !== "Moved";
  return false;
}
