// When the attached client gets a frame, and what a frame reads out of the emulators.
//
// Frames are drawn on the leading edge: the first change after a quiet spell
// goes out at once (a key echo costs no tick), later changes within FRAME_MS
// are coalesced into one frame. Nothing runs while nothing changes.
//
// A frame draws into one of two grids it keeps and reads out of its emulator only a pane that
// changed; an unchanged pane's cells come from the previous frame. While someone types, a
// frame for the echo redraws the typed pane and leaves a flooding neighbour as it was last
// drawn, until that one's OUTPUT_FRAME_MS are up: the echo never waits behind a flood's redraw.
//
// A pane in synchronized output (?2026, Codex, opencode, Claude Code) is drawn as its last frame
// showed it, cursor included, until it leaves the mode or SYNC_HOLD_MS pass since it entered it,
// as kitty and WezTerm do: its half-drawn frames never reach the person. A popup's program is held
// the same way, and so are the panes under a popup that stays where it was.

import type { Session } from "../model/session";
import type { Pane } from "../model/pane";
import type { RowTracker } from "../model/pane-emulator";
import type { PaneRect } from "../model/layout";
import type { AttachedClient, ClientLog } from "./attached-client";
import { barsChanged, compose, drawClientBars, type UiView } from "./compositor";
import { Grid } from "./grid";
import { fitFrame } from "./client-fit";
import { hop } from "../platform/hop-trace";
import { plainEchoAt } from "./echo-ahead";

export const FRAME_MS = 8;
/** Output nobody is typing into (a build log, a flood) is drawn at most this often: the client and
 * its terminal then spend their time on what the person does, not on redrawing a flood. */
export const OUTPUT_FRAME_MS = 33;
/** How long after a key a pane's output counts as its echo, drawn at once: such a frame is cheap
 * (only the typed pane is read out of its emulator) and output frames coalesce per parse slice. */
const ECHO_WINDOW_MS = 250;

/** How long a pane in synchronized output may hold its frames: kitty's and WezTerm's timeout.
 * `WS_SYNC_HOLD_MS` (0–10000) in the server's environment changes it; 0 turns the hold off. */
export const SYNC_HOLD_MS = 150;

function syncHoldMs(): number {
  const v = Number(process.env.WS_SYNC_HOLD_MS);
  return process.env.WS_SYNC_HOLD_MS && Number.isFinite(v) && v >= 0 ? Math.min(v, 10_000) : SYNC_HOLD_MS;
}

/** What the scheduler draws for: the interface's state, its client and what goes ahead of a frame. */
export interface FrameHost extends UiView {
  readonly session: Session;
  readonly client: AttachedClient | undefined;
  popup(): Pane | undefined;
  focusedPane(): Pane | undefined;
  /** Each frame starts here, with the pane that has the keys (focus reports follow it). */
  framing(focused: Pane | undefined): void;
  /** Bytes for the client's terminal ahead of the frame's cells (its modes, passthrough). */
  frameLead(focused: Pane | undefined, visible: Set<number>): string;
  /** The client's terminal size, when it may differ from the session's (another client is the
   * latest active one): its frames are then fitted to it as tmux's (client-fit.ts). */
  clientSize?(): { cols: number; rows: number };
  /** Where the last frame put the client's view of the panes area (undefined: not fitted). */
  placed?(offset: { x: number; y: number } | undefined): void;
}

/** A pane as the last frame drew it: where, at which emulator size, and when it was last read
 * out of its emulator (as opposed to copied from the frame before). */
interface DrawnPane {
  where: string;
  readAt: number;
  /** Its place on the screen. */
  rect: PaneRect;
}
const placeKey = (p: Pane, r: PaneRect) => `${r.x},${r.y},${r.cols},${r.rows},${p.emulator.cols},${p.emulator.rows}`;

export class FrameScheduler {
  private scheduled = false;
  private dueAt = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private lastFrame = -Infinity;
  /** The pane last typed into, and when: its output is the echo the person waits for. */
  private typed = { pane: -1, at: -Infinity };
  private waitingDrain = false;
  /** Something besides pane output asked for the next frame (a key's own change, a command, the
   * clock): that frame works out what the bars say before it goes out. */
  private asked = false;
  /** The check of the bars after an echo's frame (checkBarsSoon). */
  private barsTimer: ReturnType<typeof setTimeout> | undefined;
  private visible = new Set<number>();
  /** The last frame's grid, the other one (reused for the next frame), and what the last frame
   * holds of each pane. */
  private front: Grid | undefined;
  private spare: Grid | undefined;
  private drawn = new Map<number, DrawnPane>();
  /** What the last frame drew over the panes (coverOf): a pane's cells can be copied from it only
   * when this frame draws the same over them. */
  private frontCover: string | undefined;
  /** Panes with output not yet drawn, and which of their rows changed. */
  private dirty = new Set<number>();
  private dirtyRows = new Map<number, RowTracker>();
  private readonly syncHoldMs = syncHoldMs();
  /** The two grids a client of another size than the session's gets its frames in, in turn (the
   * diff keeps the one it last rendered). */
  private fitted: Grid[] = [];

  constructor(
    private readonly host: FrameHost,
    private readonly log: ClientLog,
  ) {}

  /** Follow a pane's changed rows while frames show it, so a frame reads only those out of its
   * emulator. A pane no frame shows has no tracker (its emulator may then be put away): it is
   * drawn whole when it is shown again. */
  track(p: Pane): void {
    if (this.visible.has(p.id) && !this.dirtyRows.has(p.id)) this.dirtyRows.set(p.id, p.emulator.trackRows());
  }

  /** Trackers for the panes this frame showed, and none for the others. */
  private trackShown(): void {
    for (const [id, t] of this.dirtyRows) {
      if (this.visible.has(id)) continue;
      t.dispose();
      this.dirtyRows.delete(id);
    }
    for (const id of this.visible) {
      const p = this.host.session.panes.get(id);
      if (p) this.track(p);
    }
  }

  paneOutput(pane: number): void {
    this.dirty.add(pane);
    this.dirtyRows.get(pane)?.output();
    // Output from panes not on screen costs nothing now; it shows when they are.
    if (!this.visible.has(pane)) return;
    if (pane === this.typed.pane && performance.now() - this.typed.at < ECHO_WINDOW_MS) this.echoNow();
    else this.schedule(OUTPUT_FRAME_MS);
  }

  /** The typed pane's echo is parsed: its frame is drawn right here, not a microtask later, so
   * what else hears of the output (the features on the bus) comes after it. */
  private echoNow(): void {
    if (!this.host.client) return;
    clearTimeout(this.timer);
    this.timer = undefined;
    this.scheduled = true;
    this.frame();
  }

  /**
   * The typed pane's echo, read and not parsed yet (Pane.readEcho): written to the client's terminal
   * at once where it is sure to be what the echo's frame would draw (plainEchoAt), and into the
   * last frame, so the frame that follows the parse finds those cells already there and sends
   * nothing for them. Only onto plain cells of the pane's row, at the cursor the last frame left
   * in the terminal, with nothing undrawn, over the panes or queued before it. Whether it wrote.
   */
  echoAhead(pane: Pane, bytes: Uint8Array): boolean {
    // The client shows the last frame, and nothing has changed since but output (a layout, focus,
    // overlay or size change asks for a frame); nothing is drawn over the panes, nothing of this
    // pane waits to be drawn. (A client of another size shows a fitted grid, not the front.)
    const c = this.host.client;
    const g = this.front;
    if (!c || c.closed || c.busy || !g || !c.diff.shows(g) || this.asked || this.frontCover !== "" || this.dirty.has(pane.id)) return false;
    if (pane.id !== this.typed.pane || performance.now() - this.typed.at >= ECHO_WINDOW_MS) return false;
    const drawn = this.drawn.get(pane.id);
    const r = drawn?.rect;
    if (!r || drawn.where !== placeKey(pane, r)) return false;
    const at = plainEchoAt(pane.emulator, bytes);
    const n = bytes.length;
    if (!at || at.x + n >= Math.min(r.cols, pane.emulator.cols) || at.y >= Math.min(r.rows, pane.emulator.rows)) return false;
    // The terminal's cursor is where the last frame left it: at the pane's.
    const x = r.x + at.x, y = r.y + at.y;
    if (g.cursor.x !== x || g.cursor.y !== y) return false;
    const i0 = y * g.cols + x;
    for (let i = i0; i < i0 + n; i++) if (g.width[i] !== 1 || g.links.has(i)) return false;
    if (g.width[i0 + n] === 0) return false; // the cell after is a wide character's right half
    c.send(bytes);
    for (let i = 0; i < n; i++) g.set(x + i, y, String.fromCharCode(bytes[i]!), 1);
    g.cursor = { ...g.cursor, x: x + n };
    g.markRows(y, y); // the next frame, drawn into the grid this one began as, copies the row
    hop("echo-ahead");
    return true;
  }

  paneClosed(pane: number): void {
    this.dirty.delete(pane);
    this.dirtyRows.get(pane)?.dispose();
    this.dirtyRows.delete(pane);
  }

  /** Whether the last frame showed the pane. */
  isVisible(pane: number): boolean {
    return this.visible.has(pane);
  }

  /** The pane last typed into and when (performance.now()). */
  lastTyped(): { readonly pane: number; readonly at: number } {
    return this.typed;
  }

  /** The person typed into `pane`: its output for a while is an echo, drawn at once. */
  typedInto(pane: number, at = performance.now()): void {
    this.typed = { pane, at };
  }

  /** A new client: its first frame goes out at once. */
  restart(): void {
    this.lastFrame = -Infinity;
  }

  dispose(): void {
    clearTimeout(this.timer);
    clearTimeout(this.barsTimer);
    for (const d of this.dirtyRows.values()) d.dispose();
    this.dirtyRows.clear();
  }

  /** Ask for a frame no later than `interval` after the last one (an earlier ask wins). */
  invalidate(interval = FRAME_MS): void {
    if (!this.host.client) return;
    this.asked = true;
    this.schedule(interval);
  }

  private schedule(interval: number): void {
    if (!this.host.client) return;
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
      // Unless an echo's frame (echoNow) has been drawn meanwhile.
      queueMicrotask(() => {
        if (this.scheduled && this.timer === undefined) this.frame();
      });
    } else this.timer = setTimeout(() => this.frame(), due - now);
  }

  private frame(): void {
    this.scheduled = false;
    const c = this.host.client;
    if (!c || c.closed) return;
    const focused = this.host.focusedPane();
    this.host.framing(focused);
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
    hop("frame-start");
    // A frame for the echo alone takes the bars as the last frame had them, and checks them once
    // it has gone out: working out what they say (the clock, the agents' badges, the names) would
    // come before the echo otherwise.
    const echo = !this.asked && this.lastFrame - this.typed.at < ECHO_WINDOW_MS;
    this.asked = false;
    try {
      const fitting = this.fitting();
      const barsFromBase = echo && !fitting;
      const grid = this.compose(fitting, barsFromBase);
      hop("composed");
      this.visible = this.visiblePanes();
      this.trackShown();
      const lead = this.host.frameLead(focused, this.visible);
      c.send(lead);
      const ansi = c.diff.render(fitting ? this.fit(grid, fitting) : grid);
      hop("diffed");
      c.send(ansi);
      hop("frame-written");
      if (!fitting) this.host.placed?.(undefined);
      if (barsFromBase) this.checkBarsSoon();
    } catch (e) {
      this.front = this.spare = undefined; // half-drawn: start over from the emulators
      this.drawn.clear();
      // Runs from a timer, where nothing above could catch it: this client goes, the server stays.
      this.log.error(`drawing for attach client ${c.conn.id} failed, connection closed: ${(e as Error)?.stack ?? e}`);
      c.drop();
    }
  }

  /** After a frame that took its bars from the last one: whether they still say what they should
   * is worked out a little later, not at once: on two cores the program that shows the echo (the
   * person's terminal) waited for the CPU meanwhile (from the frame written to the echo seen, 0.25
   * ms at p50 against 0.17 when checked later, in one run). A frame follows when they changed. */
  private checkBarsSoon(): void {
    if (this.barsTimer) return;
    this.barsTimer = setTimeout(() => {
      this.barsTimer = undefined;
      const g = this.front;
      if (g && this.host.client && !this.host.client.closed && barsChanged(g, this.host.session, this.host)) this.invalidate(0);
    }, FRAME_MS);
  }

  /** The client's size when it is not the session's. */
  private fitting(): { cols: number; rows: number } | undefined {
    const size = this.host.clientSize?.();
    const s = this.host.session.size;
    return size && (size.cols !== s.cols || size.rows !== s.rows) ? size : undefined;
  }

  /** The session-sized frame as the client of `size` sees it. */
  private fit(frame: Grid, size: { cols: number; rows: number }): Grid {
    let g = this.fitted.length === 2 ? this.fitted.shift() : undefined;
    if (!g || g.cols !== size.cols || g.rows !== size.rows) g = new Grid(size.cols, size.rows);
    this.fitted.push(g);
    const { part, ...offset } = fitFrame(frame, g, this.host.session.bars);
    if (g.rows >= 3 || !this.host.session.bars) drawClientBars(g, this.host.session, this.host, part ? `[${offset.x},${offset.y}]` : undefined);
    this.host.placed?.(offset);
    return g;
  }

  /** Compose the next frame into the spare grid, reading out of their emulators only the panes
   * that changed and are due; the result becomes the front grid. `fitting`: the client's own
   * size, when it differs from the session's (its overlay is then drawn at its size, not here). */
  private compose(fitting?: { cols: number; rows: number }, barsFromBase = false): Grid {
    const host = this.host;
    const now = this.lastFrame;
    const { cols, rows } = host.session.size;
    const front = this.front && this.front.cols === cols && this.front.rows === rows ? this.front : undefined;
    const drawn = new Map<number, DrawnPane>();
    const echoing = now - this.typed.at < ECHO_WINDOW_MS;
    /** When the next frame is due for a pane held back (ms after this one); Infinity: none is. */
    let heldFor = Infinity;
    let cursorHeld = false;
    const focusedId = host.focusedPane()?.id;
    const cover = this.cover();
    const comparable = front !== undefined && cover !== undefined && cover === this.frontCover;
    const samePlaces = front && this.samePlaces();
    const grid = compose(host.session, host, {
      into: this.spare,
      base: samePlaces ? front : undefined,
      ...(fitting ? { overlay: false as const } : {}),
      barsFromBase,
      unchanged: (pane, r) => {
        const where = placeKey(pane, r);
        const before = this.drawn.get(pane.id);
        const same = comparable && host.copy?.pane !== pane.id && before?.where === where;
        // A neighbour's output, while the person types elsewhere, waits for its own frame rate.
        const hold = same && echoing && pane.id !== this.typed.pane && now - before!.readAt < OUTPUT_FRAME_MS;
        const syncLeft = same ? this.syncLeft(pane) : 0;
        if (same && (!this.dirty.has(pane.id) || hold || syncLeft > 0)) {
          if (this.dirty.has(pane.id)) heldFor = Math.min(heldFor, syncLeft > 0 ? syncLeft : OUTPUT_FRAME_MS);
          if (syncLeft > 0 && pane.id === focusedId) cursorHeld = true;
          drawn.set(pane.id, before!);
          return { from: front };
        }
        this.dirty.delete(pane.id);
        drawn.set(pane.id, { where, readAt: now, rect: r });
        const changed = this.dirtyRows.get(pane.id);
        const redraw = changed ? changed.take() : ([0, Infinity] as [number, number]);
        return same ? { from: front, redraw } : undefined;
      },
    });
    // A held pane's cursor stays where its last drawn frame had it, with its cells.
    if (cursorHeld && front) grid.cursor = { ...front.cursor };
    this.spare = front !== grid ? front : undefined;
    this.front = grid;
    this.drawn = drawn;
    this.frontCover = cover;
    if (heldFor < Infinity) this.invalidate(heldFor);
    return grid;
  }

  /** How much longer (ms) `pane`'s synchronized output holds its frames; 0 when it does not. */
  private syncLeft(pane: Pane): number {
    const since = pane.emulator.modes.synchronizedSince;
    if (since === undefined) return 0;
    return Math.max(0, since + this.syncHoldMs - Date.now());
  }

  /** What a frame draws over the panes now: "" nothing; the popup's pane and box (drawn again in the
   * same place, so what is under it copies from the last frame); undefined for what may differ
   * frame to frame (an overlay, copy mode, pane numbers), under which every pane is drawn anew. */
  private cover(): string | undefined {
    const host = this.host;
    if (host.overlay || host.copy || host.paneNumbers) return undefined;
    // Without the bars (status = "off") the last row is a pane's while no line is shown over it.
    const over = !host.session.bars && (host.prompt || host.message || host.prefixPending) ? "status over " : "";
    const popup = host.popup();
    if (!popup) return over;
    const ws = host.session.workspaces[host.session.current];
    const tab = ws?.tabs[ws.active];
    const box = tab && host.session.popupRects(tab);
    if (!box) return undefined;
    const { x, y, cols, rows } = box.outer;
    return `${over}popup ${popup.id} ${x},${y},${cols},${rows} ${tab.popup!.border === false ? "bare" : "framed"}`;
  }

  /** Whether the last frame shows the same panes in the same places, with nothing over them: then
   * the next frame starts as a copy of it (compose's `base`). */
  private samePlaces(): boolean {
    const { session } = this.host;
    if (this.frontCover !== "" || this.cover() !== "") return false;
    const ws = session.workspaces[session.current];
    const tab = ws?.tabs[ws.active];
    if (!tab) return false;
    const rects = session.rects(tab);
    if (rects.length !== this.drawn.size) return false;
    for (const r of rects) {
      const pane = session.panes.get(r.pane);
      if (!pane || this.drawn.get(r.pane)?.where !== placeKey(pane, r)) return false;
    }
    return true;
  }

  private visiblePanes(): Set<number> {
    const { session } = this.host;
    const ws = session.workspaces[session.current];
    const tab = ws?.tabs[ws.active];
    const ids = tab ? session.rects(tab).map((r) => r.pane) : [];
    if (tab?.popup) ids.push(tab.popup.pane);
    return new Set(ids);
  }
}
