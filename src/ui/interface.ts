// The interactive interface the server runs for its attached client: the state the person sees
// and acts on (prefix, prompt, overlay, copy mode, notices) and the session's events that change
// it. Three parts do the work: the client's lifecycle (client-lifecycle.ts), routing its input
// (input-router.ts) and scheduling frames (frame-scheduler.ts).

import type { Session } from "../model/session";
import type { Connection } from "../protocol/connection";
import type { AttachParams, UiHooks, UiService } from "../features/services";
import type { Pane } from "../model/pane";
import type { TermEvent, KeyEvent } from "../protocol/events";
import type { ExitNotice } from "../protocol/frames";
import type { AttachedClient, ClientLog } from "./attached-client";
import { quote } from "../protocol/quote";
import type { Overlay } from "./compositor";
import { type Keymap, describeKeymap } from "./keymap";
import { type Prompt, newConfirm } from "./prompt";
import { type CopyMode, osc52, scrollCopy, enterCopyMode } from "./copy-mode";
import { runUiCommand } from "./ui-commands";
import type { DragState } from "./mouse";
import { notificationBytes } from "../protocol/notification";
import { Passthrough } from "./passthrough";
import { ClientSlot } from "./client-lifecycle";
import { FrameScheduler, type FrameHost } from "./frame-scheduler";
import { routeEvent, toPane, typeIn } from "./input-router";
import { FocusHistory } from "./focus-history";
import { clock, DEFAULT_LEFT, DEFAULT_RIGHT, hostName, renderFormat, usesTime } from "./status-format";

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
export class Interface implements FrameHost, UiService {
  readonly session: Session;
  /** Changed in place by ws config reload (the passthrough holds the same object). */
  readonly keymap: Keymap;
  prefixPending = false;
  /** display-panes: each pane's number on screen until a key or PANE_NUMBERS_MS. */
  paneNumbers?: boolean;
  private paneNumbersTimer: ReturnType<typeof setTimeout> | undefined;
  /** True while a command runs from a key the person pressed after the prefix (the Dashboard
   * takes y/n at once only when opened so). */
  fromPrefixKey = false;
  prompt?: Prompt;
  /** `items`: how many of the lines can be picked (the rest is the selected item's preview). */
  overlay?: Overlay & { onKey?: (k: KeyEvent) => boolean; onPick?: (i: number) => void; items?: number; preview?: (i: number) => string[]; onChar?: (ch: string, selected: number) => boolean };
  copy?: CopyMode;
  message?: string;
  drag?: DragState;
  /** A tab whose pane rang the bell while off screen is marked. */
  bellMark = (panes: number[]): boolean => this.passthrough.marked(panes);
  /** The last text copied (copy mode, a mouse selection), for `prefix ]`. */
  lastCopy?: string;
  /** Tabs whose panes all get what is typed (sync-panes), by tab id. */
  readonly syncTabs = new Set<number>();
  readonly focusHistory: FocusHistory;
  private clockTimer: ReturnType<typeof setInterval> | undefined;
  private unsubscribe: () => void;
  private readonly log: ClientLog;
  private noticeTimer: ReturnType<typeof setTimeout> | undefined;
  /** Bells, clipboard, title and cursor colour from the panes to the user's terminal. */
  private passthrough: Passthrough;
  /** The attached client. */
  readonly clients: ClientSlot;
  readonly frames: FrameScheduler;

  constructor(readonly opts: InterfaceOptions) {
    this.session = opts.session;
    this.log = opts.log ?? console;
    this.keymap = opts.keymap;
    this.passthrough = new Passthrough(opts.keymap);
    this.clients = new ClientSlot(this.passthrough, this.log, {
      event: (c, ev) => this.onEvent(c, ev),
      gone: () => {
        this.prefixPending = false;
      },
      terminal: (r) => this.session.setClientTerminal(r),
    });
    this.frames = new FrameScheduler(this, this.log);
    this.focusHistory = new FocusHistory(this.session);
    this.keymapChanged();
    for (const p of this.session.panes.values()) this.frames.track(p);
    this.unsubscribe = this.session.bus.on((e) => {
      switch (e.type) {
        case "pane_created": {
          const p = this.session.panes.get(e.pane);
          if (p) this.frames.track(p);
          break;
        }
        case "pane_output":
          this.frames.paneOutput(e.pane);
          return;
        case "tab_focused":
        case "pane_focused":
        case "workspace_focused":
        case "tab_closed":
        case "workspace_closed":
          this.focusHistory.observe();
          break;
        case "pane_closed":
          this.focusHistory.observe();
          this.passthrough.forget(e.pane);
          this.frames.paneClosed(e.pane);
          if (this.copy?.pane === e.pane) this.copy = undefined;
          break;
        case "server_quitting":
          this.detachClient({ reason: "quit", message: "the ws server quit" });
          return;
        case "notification":
          return this.notify(e.title, e.body, e.pane);
        case "pane_bell":
          this.passthrough.bell(e.pane, this.frames.isVisible(e.pane));
          break;
        case "pane_clipboard":
          this.passthrough.clipboard(e.data);
          break;
      }
      this.invalidate();
    });
  }

  dispose(): void {
    this.unsubscribe();
    clearInterval(this.clockTimer);
    clearTimeout(this.noticeTimer);
    clearTimeout(this.paneNumbersTimer);
    this.frames.dispose();
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
    const s = this.session;
    const ws = s.currentWorkspace;
    const tab = ws.tabs[ws.active];
    const f = this.keymap.status ?? {};
    const sync = tab && this.syncTabs.has(tab.id) ? "SYNC" : "";
    const values: Record<string, string | undefined> = {
      workspace: ws.name,
      tab: tab ? s.tabName(tab) : "",
      tab_index: `${ws.active + 1}/${ws.tabs.length}`,
      pane: tab ? `${tab.focused}${tab.zoomed !== undefined ? " (zoomed)" : ""}` : "-",
      agents: f.left?.includes("{agents}") || f.right?.includes("{agents}") ? this.statusBadge?.() : undefined,
      time: clock(),
      host: hostName(),
      prefix: this.keymap.prefix,
      sync,
    };
    const left = renderFormat(f.left ?? DEFAULT_LEFT, values) + (f.left === undefined && sync ? "  SYNC" : "");
    const right = renderFormat(f.right ?? DEFAULT_RIGHT, values);
    // The agents summary shows after the left part unless a format places it itself.
    const placed = !!(f.left?.includes("{agents}") || f.right?.includes("{agents}"));
    return { left, right, badge: !placed };
  }

  // ---- clients -------------------------------------------------------------

  /** The attached client, if any. */
  get client(): AttachedClient | undefined {
    return this.clients.client;
  }

  /** The attached client's $TERM, when it sent a sane one. */
  get clientTerm(): string | undefined {
    return this.clients.term;
  }

  /** The attached terminal's XTVERSION answer, once it has given one. */
  get clientVersion(): string | undefined {
    return this.clients.version;
  }

  attach(req: AttachParams, conn: Connection): void {
    this.clients.attach(req, conn);
    // A y/n question was for whoever pressed the key; the next key from this client is not its answer.
    if (this.prompt?.confirm) this.prompt = undefined;
    this.session.resizeScreen(req.cols, req.rows);
    const notes = [...(this.opts.warnings ?? [])];
    if (req.build && req.build !== this.opts.build)
      notes.push(`this server is build ${this.opts.build}, your ws is ${req.build}: restart it (ws kill-server --keep, then ws)`);
    this.message = notes.length ? notes.join("  ·  ") : undefined;
    this.frames.restart();
    this.invalidate();
  }

  detachClient(notice: ExitNotice): void {
    this.clients.detach(notice);
  }

  // ---- frames --------------------------------------------------------------

  /** Ask for a frame no later than `interval` after the last one (an earlier ask wins). */
  invalidate(interval?: number): void {
    this.frames.invalidate(interval);
  }

  /** FrameHost: focus reports follow the pane with the keys, frame by frame. */
  framing(focused: Pane | undefined): void {
    this.clients.paneFocus.sync(focused);
  }

  /** FrameHost: the terminal's modes for the focused pane and what passes through to it. */
  frameLead(focused: Pane | undefined, visible: Set<number>): string {
    return this.clients.outerModes.update(focused?.screen.modes, this.keymap.mouse !== false) + this.passthrough.take(focused, visible);
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
    if (!this.client) return;
    const text = `${pane !== undefined ? `pane ${pane}: ` : ""}${title}${body ? `: ${body}` : ""}`;
    this.message = text;
    clearTimeout(this.noticeTimer);
    this.noticeTimer = setTimeout(() => {
      if (this.message !== text) return;
      this.message = undefined;
      this.invalidate();
    }, NOTICE_MS);
    this.sendRaw(notificationBytes(OSC_NOTIFICATIONS, title, body));
    this.invalidate();
  }

  /** Raw bytes for the client's terminal outside the grid (OSC 52). */
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

  private onEvent(c: AttachedClient, ev: TermEvent): void {
    if (c !== this.client) return;
    try {
      this.handle(ev);
    } catch (e) {
      this.log.error(`attach client ${c.conn.id}: handling ${quote(ev, 80)} failed: ${(e as Error)?.stack ?? e}`);
      this.message = (e as Error).message;
      this.invalidate();
    }
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
    runUiCommand(this, command);
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

  /** Show (or, with false, stop showing) each pane's number, as tmux's display-panes. */
  showPaneNumbers(on: boolean): void {
    clearTimeout(this.paneNumbersTimer);
    this.paneNumbers = on || undefined;
    this.paneNumbersTimer = on ? setTimeout(() => this.showPaneNumbers(false), PANE_NUMBERS_MS) : undefined;
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
    this.sendRaw(osc52(text));
    this.lastCopy = text;
    this.message = `copied ${[...text].length} characters`;
    this.invalidate();
  }

  enterCopy(): void {
    const p = this.focusedPane();
    if (!p) return;
    this.copy = enterCopyMode(p.id, p.screen);
    this.invalidate();
  }

  /** Wheel in a pane that doesn't take the mouse: scroll its history. */
  scrollPane(pane: Pane, lines: number): void {
    if (!this.copy || this.copy.pane !== pane.id) {
      if (lines <= 0) return;
      this.copy = enterCopyMode(pane.id, pane.screen);
    }
    scrollCopy(this.copy, pane.screen, lines);
    if (this.copy.offset === 0 && lines < 0 && !this.copy.anchor) this.copy = undefined;
    this.invalidate();
  }
}
