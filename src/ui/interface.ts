// The interactive interface the server runs for its attached client: owns the
// client, the keymap state (prefix, prompt, overlay, copy mode), routes input
// to commands or the focused pane, and schedules frames.
//
// Frames are drawn on the leading edge: the first change after a quiet spell
// goes out at once (a key echo costs no tick), later changes within FRAME_MS
// are coalesced into one frame. Nothing runs while nothing changes.
//
// A frame draws into one of two grids it keeps and reads out of its emulator only a pane that
// changed; an unchanged pane's cells come from the previous frame. While someone types, a
// frame for the echo redraws the typed pane and leaves a flooding neighbour as it was last
// drawn, until that one's OUTPUT_FRAME_MS are up: the echo never waits behind a flood's redraw.

import type { Session } from "../model/session";
import type { Connection } from "../protocol/connection";
import type { AttachParams } from "../commands/attach";
import type { Pane } from "../model/pane";
import { type TermEvent, type KeyEvent } from "../protocol/events";
import type { ExitNotice } from "../protocol/frames";
import { AttachedClient, type ClientLog } from "./attached-client";
import { quote } from "../protocol/quote";
import { compose, type Overlay, type UiView } from "./compositor";
import { Grid } from "./grid";
import type { RowTracker } from "../model/screen";
import type { PaneRect } from "../model/layout";
import { encodeEvent } from "../model/key-encoder";
import { type Keymap, describeKeymap } from "./keymap";
import { keyName } from "./keymap-names";
import { type Prompt, promptKey, insertText, newConfirm } from "./prompt";
import { type CopyMode, copyKey, osc52, scrollCopy, searchCopy, enterCopyMode } from "./copy-mode";
import { runKeyCommand, runUiCommand } from "./ui-commands";
import { handleMouse, type DragState } from "./mouse";
import { notificationBytes } from "../protocol/notification";
import { OuterModes, PaneFocus } from "./outer-modes";
import { Passthrough } from "./passthrough";
import { FocusHistory } from "./focus-history";
import { clock, DEFAULT_LEFT, DEFAULT_RIGHT, hostName, renderFormat, usesTime } from "./status-format";

export const FRAME_MS = 8;
/** Output nobody is typing into (a build log, a flood) is drawn at most this often: the client and
 * its terminal then spend their time on what the person does, not on redrawing a flood. */
export const OUTPUT_FRAME_MS = 33;
/** How long after a key a pane's output counts as its echo, drawn at once: such a frame is cheap
 * (only the typed pane is read out of its emulator) and output frames coalesce per parse slice. */
const ECHO_WINDOW_MS = 250;
/** How long a notification stays on the status line. */
export const NOTICE_MS = 5000;
const OSC_NOTIFICATIONS: ReadonlySet<string> = new Set(["osc9", "osc777"]);

/** A pane as the last frame drew it: where, at which emulator size, and when it was last read
 * out of its emulator (as opposed to copied from the frame before). */
interface DrawnPane {
  where: string;
  readAt: number;
}
const placeKey = (p: Pane, r: PaneRect) => `${r.x},${r.y},${r.cols},${r.rows},${p.screen.cols},${p.screen.rows}`;

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

export class Interface implements UiView {
  readonly session: Session;
  /** Changed in place by ws config reload (the passthrough holds the same object). */
  readonly keymap: Keymap;
  client: AttachedClient | undefined;
  /** The attached client's $TERM, when it sent a sane one. */
  clientTerm: string | undefined;
  prefixPending = false;
  prompt?: Prompt;
  /** `items`: how many of the lines can be picked (the rest is the selected item's preview). */
  overlay?: Overlay & { onKey?: (k: KeyEvent) => boolean; onPick?: (i: number) => void; items?: number; preview?: (i: number) => string[]; onChar?: (ch: string, selected: number) => boolean };
  copy?: CopyMode;
  message?: string;
  drag?: DragState;
  /** Set by the agents feature: a tab's mark, the status line's summary, the Dashboard. */
  tabBadge?: (panes: number[]) => string | undefined;
  statusBadge?: () => string | undefined;
  /** A tab whose pane rang the bell while off screen is marked. */
  bellMark = (panes: number[]): boolean => this.passthrough.marked(panes);
  dashboard?: () => void;
  /** Set by the workstreams feature: ws new from the interface (the repo: `cwd`'s checkout). */
  newWorkstream?: (template: string, name: string, cwd: string | undefined) => Promise<unknown>;
  /** Set by the agents feature: the next agent that waits for the person, after `pane` (prefix !). */
  nextBlockedAgent?: (after: number | undefined) => number | undefined;
  /** Set by the ui feature: read keys.toml again (ws config reload, prefix r). */
  reloadConfig?: () => string[];
  /** The last text copied (copy mode, a mouse selection), for `prefix ]`. */
  lastCopy?: string;
  /** Tabs whose panes all get what is typed (sync-panes), by tab id. */
  readonly syncTabs = new Set<number>();
  readonly focusHistory: FocusHistory;
  private clockTimer: ReturnType<typeof setInterval> | undefined;
  private scheduled = false;
  private dueAt = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private lastFrame = -Infinity;
  /** The pane last typed into, and when: its output is the echo the person waits for. */
  private typed = { pane: -1, at: -Infinity };
  private waitingDrain = false;
  private visible = new Set<number>();
  /** The last frame's grid, the other one (reused for the next frame), and what the last frame
   * holds of each pane. */
  private front: Grid | undefined;
  private spare: Grid | undefined;
  private drawn = new Map<number, DrawnPane>();
  /** Whether the last frame had something drawn over the panes (an overlay, a copy-mode pane). */
  private frontCovered = true;
  /** Panes with output not yet drawn, and which of their rows changed. */
  private dirty = new Set<number>();
  private dirtyRows = new Map<number, RowTracker>();
  private unsubscribe: () => void;
  private readonly log: ClientLog;
  private noticeTimer: ReturnType<typeof setTimeout> | undefined;
  /** The user's terminal's mouse and keypad modes, following the focused pane. */
  private outerModes = new OuterModes();
  /** Focus in/out reports to panes as the focus moves. */
  private paneFocus = new PaneFocus();
  /** Bells, clipboard, title and cursor colour from the panes to the user's terminal. */
  private passthrough: Passthrough;

  constructor(readonly opts: InterfaceOptions) {
    this.session = opts.session;
    this.log = opts.log ?? console;
    this.keymap = opts.keymap;
    this.passthrough = new Passthrough(opts.keymap);
    this.focusHistory = new FocusHistory(this.session);
    this.keymapChanged();
    for (const p of this.session.panes.values()) this.track(p);
    this.unsubscribe = this.session.bus.on((e) => {
      switch (e.type) {
        case "pane_created": {
          const p = this.session.panes.get(e.pane);
          if (p) this.track(p);
          break;
        }
        case "pane_output":
          this.dirty.add(e.pane);
          this.dirtyRows.get(e.pane)?.output();
          // Output from panes not on screen costs nothing now; it shows when they are.
          if (this.visible.has(e.pane))
            this.invalidate(e.pane === this.typed.pane && performance.now() - this.typed.at < ECHO_WINDOW_MS ? 0 : OUTPUT_FRAME_MS);
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
          this.dirty.delete(e.pane);
          this.dirtyRows.get(e.pane)?.dispose();
          this.dirtyRows.delete(e.pane);
          if (this.copy?.pane === e.pane) this.copy = undefined;
          break;
        case "server_quitting":
          this.detachClient({ reason: "quit", message: "the ws server quit" });
          return;
        case "notification":
          return this.notify(e.title, e.body, e.pane);
        case "pane_bell":
          this.passthrough.bell(e.pane, this.visible.has(e.pane));
          break;
        case "pane_clipboard":
          this.passthrough.clipboard(e.data);
          break;
      }
      this.invalidate();
    });
  }

  private track(p: Pane) {
    if (!this.dirtyRows.has(p.id)) this.dirtyRows.set(p.id, p.screen.trackRows());
  }

  dispose(): void {
    this.unsubscribe();
    clearInterval(this.clockTimer);
    clearTimeout(this.noticeTimer);
    for (const d of this.dirtyRows.values()) d.dispose();
    this.dirtyRows.clear();
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

  attach(req: AttachParams, conn: Connection): void {
    const old = this.client;
    if (old) {
      this.client = undefined;
      old.exit({ reason: "replaced", message: "attached from another terminal" });
    }
    const c = new AttachedClient(
      conn,
      (ev) => this.onEvent(c, ev),
      (gone) => {
        if (this.client === gone) {
          this.client = undefined;
          this.prefixPending = false;
          this.paneFocus.detached();
        }
      },
      this.log,
    );
    this.client = c;
    this.outerModes.reset();
    if (req.tty) c.driveTerminal(req.tty, req.tty_id);
    c.send(this.passthrough.attached());
    this.clientTerm = req.term !== undefined && /^[\x21-\x7e]{1,128}$/.test(req.term) ? req.term : undefined;
    // A y/n question was for whoever pressed the key; the next key from this client is not its answer.
    if (this.prompt?.confirm) this.prompt = undefined;
    this.session.resizeScreen(req.cols, req.rows);
    const notes = [...(this.opts.warnings ?? [])];
    if (req.build && req.build !== this.opts.build)
      notes.push(`this server is build ${this.opts.build}, your ws is ${req.build}: restart it (ws kill-server --keep, then ws)`);
    this.message = notes.length ? notes.join("  ·  ") : undefined;
    this.lastFrame = -Infinity;
    this.invalidate();
  }

  detachClient(notice: ExitNotice): void {
    const c = this.client;
    this.client = undefined;
    c?.send(this.passthrough.detaching());
    c?.exit(notice);
    if (c) this.paneFocus.detached();
  }

  // ---- frames --------------------------------------------------------------

  /** Ask for a frame no later than `interval` after the last one (an earlier ask wins). */
  invalidate(interval = FRAME_MS): void {
    if (!this.client) return;
    const now = performance.now();
    const due = Math.max(now, this.lastFrame + interval);
    if (this.scheduled) {
      if (due >= this.dueAt) return;
      clearTimeout(this.timer); // a key's echo must not wait behind a flood's slower frame
    }
    this.scheduled = true;
    this.dueAt = due;
    if (due <= now) {
      // Right after what asked for it (a key, an echo parsed), not a loop turn later.
      this.timer = undefined;
      queueMicrotask(() => this.frame());
    } else this.timer = setTimeout(() => this.frame(), due - now);
  }

  private frame(): void {
    this.scheduled = false;
    const c = this.client;
    if (!c || c.closed) return;
    const focused = this.focusedPane();
    this.paneFocus.sync(focused);
    if (c.busy) {
      // The client hasn't taken the last frame: draw the newest state once it has.
      if (!this.waitingDrain) {
        this.waitingDrain = true;
        void c.drained().then(() => {
          this.waitingDrain = false;
          this.invalidate();
        });
      }
      return;
    }
    this.lastFrame = performance.now();
    try {
      const grid = this.compose();
      this.visible = this.visiblePanes();
      c.send(this.outerModes.update(focused?.screen.modes) + this.passthrough.take(focused, this.visible));
      c.send(c.diff.render(grid));
    } catch (e) {
      this.front = this.spare = undefined; // half-drawn: start over from the emulators
      this.drawn.clear();
      // Runs from a timer, where nothing above could catch it: this client goes, the server stays.
      this.log.error(`drawing for attach client ${c.conn.id} failed, connection closed: ${(e as Error)?.stack ?? e}`);
      c.drop();
    }
  }

  /** Compose the next frame into the spare grid, reading out of their emulators only the panes
   * that changed and are due; the result becomes the front grid. */
  private compose(): Grid {
    const now = this.lastFrame;
    const { cols, rows } = this.session.size;
    const front = this.front && this.front.cols === cols && this.front.rows === rows ? this.front : undefined;
    const drawn = new Map<number, DrawnPane>();
    const echoing = now - this.typed.at < ECHO_WINDOW_MS;
    let held = false;
    const grid = compose(this.session, this, {
      into: this.spare,
      base: front && this.samePlaces() ? front : undefined,
      unchanged: (pane, r) => {
        const where = placeKey(pane, r);
        const before = this.drawn.get(pane.id);
        const same = front && !this.frontCovered && this.copy?.pane !== pane.id && before?.where === where;
        // A neighbour's output, while the person types elsewhere, waits for its own frame rate.
        const hold = same && echoing && pane.id !== this.typed.pane && now - before!.readAt < OUTPUT_FRAME_MS;
        if (same && (!this.dirty.has(pane.id) || hold)) {
          if (this.dirty.has(pane.id)) held = true;
          drawn.set(pane.id, before!);
          return { from: front };
        }
        this.dirty.delete(pane.id);
        drawn.set(pane.id, { where, readAt: now });
        const changed = this.dirtyRows.get(pane.id);
        const redraw = changed ? changed.take() : ([0, Infinity] as [number, number]);
        return same ? { from: front, redraw } : undefined;
      },
    });
    this.spare = front !== grid ? front : undefined;
    this.front = grid;
    this.drawn = drawn;
    this.frontCovered = !!this.overlay || !!this.copy || !!this.popup();
    if (held) this.invalidate(OUTPUT_FRAME_MS);
    return grid;
  }

  /** Whether the last frame shows the same panes in the same places, with nothing over them: then
   * the next frame starts as a copy of it (compose's `base`). */
  private samePlaces(): boolean {
    if (this.frontCovered || this.overlay || this.copy || this.popup()) return false;
    const ws = this.session.workspaces[this.session.current];
    const tab = ws?.tabs[ws.active];
    if (!tab) return false;
    const rects = this.session.rects(tab);
    if (rects.length !== this.drawn.size) return false;
    for (const r of rects) {
      const pane = this.session.panes.get(r.pane);
      if (!pane || this.drawn.get(r.pane)?.where !== placeKey(pane, r)) return false;
    }
    return true;
  }

  private visiblePanes(): Set<number> {
    const ws = this.session.workspaces[this.session.current];
    const tab = ws?.tabs[ws.active];
    const ids = tab ? this.session.rects(tab).map((r) => r.pane) : [];
    if (tab?.popup) ids.push(tab.popup.pane);
    return new Set(ids);
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
    this.client?.send(s);
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
    if (typeof ev === "object" && "Resize" in ev) {
      const [cols, rows] = ev.Resize;
      this.session.resizeScreen(cols, rows);
      this.invalidate();
      return;
    }
    if (typeof ev === "object" && "Key" in ev) {
      if (ev.Key.kind === "Release") return;
      return this.key(ev.Key);
    }
    if (typeof ev === "object" && "Mouse" in ev) {
      if (this.popup()) return; // the layout under a popup is not for clicking
      return handleMouse(this, ev.Mouse);
    }
    if (ev === "FocusGained" || ev === "FocusLost") return this.paneFocus.outer(ev === "FocusGained", this.focusedPane());
    if (typeof ev === "object" && "Paste" in ev) {
      if (this.prompt) {
        insertText(this.prompt, ev.Paste);
        return this.invalidate();
      }
      if (this.overlay || this.copy) return;
      return this.typeIn(ev);
    }
    this.toPane(ev);
  }

  /** What the person types: to the focused pane, or to every pane of a synchronized tab (each
   * encoded for its own modes), as tmux's synchronize-panes. */
  typeIn(ev: TermEvent): void {
    const focused = this.focusedPane();
    const ws = this.session.currentWorkspace;
    const tab = ws.tabs[ws.active];
    if (!focused || !tab || !this.syncTabs.has(tab.id) || this.popup()) return this.toPane(ev, focused);
    for (const r of this.session.rects(tab)) {
      const p = this.session.panes.get(r.pane);
      if (p && p !== focused) this.toPane(ev, p);
    }
    this.toPane(ev, focused); // last: the typed pane's echo is the one drawn at once
  }

  /** Hand an event to the focused pane, encoded for its modes. */
  toPane(ev: TermEvent, pane = this.focusedPane()): void {
    // A key in a pane held after its program failed closes it (its status was there to read).
    if (pane?.held && typeof ev === "object" && "Key" in ev && ev.Key.kind !== "Release") return this.session.dismissHeld(pane.id);
    if (!pane || pane.exited) return;
    const bytes = encodeEvent(ev, pane.screen.modes);
    if (!bytes) return;
    pane.write(bytes);
    // Typing into a pane is the person attending to it (an agent's `done` becomes `idle`).
    if (performance.now() - this.typed.at > 500 || this.typed.pane !== pane.id) this.session.bus.emit({ type: "pane_input", pane: pane.id });
    this.typed = { pane: pane.id, at: performance.now() };
  }

  private key(k: KeyEvent): void {
    const hadMessage = this.message !== undefined;
    this.message = undefined;
    if (hadMessage) this.invalidate();
    const name = keyName(k);
    if (this.prompt) {
      const p = this.prompt;
      const r = promptKey(p, k);
      if (r !== "edit") this.prompt = undefined;
      if (r === "submit") p.submit(p.text);
      if (r === "cancel") p.cancel?.();
      return this.invalidate();
    }
    if (this.popup()) return this.popupKey(k);
    if (this.prefixPending) {
      this.prefixPending = false;
      this.invalidate();
      const cmd = name ? this.keymap.prefixTable.get(name) : undefined;
      if (cmd) this.runKey(cmd);
      return;
    }
    if (name && name === this.keymap.prefix) {
      this.prefixPending = true;
      return this.invalidate();
    }
    if (this.overlay) {
      this.overlayKey(k);
      return this.invalidate();
    }
    if (this.copy) {
      this.copyModeKey(k);
      return this.invalidate();
    }
    const root = name ? this.keymap.root.get(name) : undefined;
    if (root) return this.runKey(root);
    this.typeIn({ Key: k });
  }

  /** A key while a popup is open goes to it, as in tmux, where Esc and C-c close it once its
   * program has exited, and at any time when only a key closes it. */
  private popupKey(k: KeyEvent): void {
    const popup = this.popup()!;
    const ws = this.session.workspaces[this.session.current]!;
    const tab = ws.tabs[ws.active]!;
    const name = keyName(k);
    const closing = name === "Esc" || name === "C-c";
    if (closing && (popup.exited || tab.popup!.close === "key")) {
      this.session.closePopup(tab);
      return this.invalidate();
    }
    this.toPane({ Key: k });
  }

  run(command: string): void {
    runUiCommand(this, command);
    this.invalidate();
  }

  /** A command from a key: the ones that can't be undone ask y/n first (keys.toml `confirm`). */
  private runKey(command: string): void {
    runKeyCommand(this, command);
    this.invalidate();
  }

  // ---- overlays, prompts, copy mode -----------------------------------------

  ask(label: string, initial: string, submit: (t: string) => void, complete?: Prompt["complete"]): void {
    this.prompt = { label, text: initial, pos: [...initial].length, submit, complete };
    this.invalidate();
  }

  /** A y/n question on the status line: `y` runs `yes`, any other key cancels. */
  confirm(question: string, yes: () => void): void {
    this.prompt = newConfirm(question, yes);
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

  /** Text to read (a command line's output): scrolls, q or Escape closes. */
  view(title: string, lines: string[]): void {
    this.overlay = { title, lines, scroll: 0 };
    this.invalidate();
  }

  private overlayKey(k: KeyEvent): void {
    const o = this.overlay!;
    const c = k.code;
    const ch = typeof c === "object" && "Char" in c ? c.Char : undefined;
    const rows = Math.max(1, this.session.size.rows - 4);
    const move = (d: number) => {
      if (o.selected !== undefined) {
        o.selected = Math.max(0, Math.min((o.items ?? o.lines.length) - 1, o.selected + d));
        if (o.preview) o.lines = [...o.lines.slice(0, o.items), ...o.preview(o.selected)];
        if (o.selected < o.scroll) o.scroll = o.selected;
        if (o.selected >= o.scroll + rows) o.scroll = o.selected - rows + 1;
      } else o.scroll = Math.max(0, Math.min(Math.max(0, o.lines.length - rows), o.scroll + d));
    };
    if (ch && o.onChar && o.selected !== undefined && o.onChar(ch, o.selected)) this.overlay = undefined;
    else if (c === "Esc" || ch === "q") this.overlay = undefined;
    else if (c === "Up" || ch === "k") move(-1);
    else if (c === "Down" || ch === "j") move(1);
    else if (c === "PageUp") move(-rows);
    else if (c === "PageDown" || ch === " ") move(rows);
    else if (c === "Enter" && o.onPick && o.selected !== undefined) {
      this.overlay = undefined;
      o.onPick(o.selected);
    } else if (ch && /^[1-9]$/.test(ch) && o.onPick && !o.preview && Number(ch) <= o.lines.length) {
      this.overlay = undefined;
      o.onPick(Number(ch) - 1);
    }
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

  private copyModeKey(k: KeyEvent): void {
    const cm = this.copy!;
    const pane = this.session.panes.get(cm.pane);
    if (!pane) {
      this.copy = undefined;
      return;
    }
    const a = copyKey(cm, pane.screen, k);
    if (a.kind === "exit") this.copy = undefined;
    else if (a.kind === "copy") {
      this.copied(a.text);
      this.copy = undefined;
    } else if (a.kind === "search") {
      this.ask("search", cm.search ?? "", (q) => {
        if (this.copy === cm) searchCopy(cm, pane.screen, q);
      });
    }
  }
}
