// A pane's rows as one sequence: its compact history (history-store.ts) first, then xterm's own
// buffer (a short history margin and the screen). Everything that reads rows by number (pane
// read, waits, search, copy mode, a command's output, the save) reads this view, so a pane whose
// history lives in the store reads exactly as one whose history is all xterm's. Without a store
// (the alternate screen, a short history-limit, the setting off) it is xterm's buffer itself.
// Marks (RowMark) follow a row from xterm's buffer into the store.
import type { IBuffer, IBufferCell, IBufferLine, IMarker, Terminal } from "@xterm/headless";
import { normalLines, takeTopRows, xtermHistoryRows } from "./history-capture";
import { HistoryStore, type HistoryPos } from "./history-store";
import { releasedRows } from "./released-rows";
import { coreOf, type RawBuffer } from "./xterm-internals";

/** Rows of history xterm keeps itself above the screen once its history has settled: what a
 * taller screen pulls back down and what a resize reflows as xterm does; older rows go to the store. */
export const HISTORY_MARGIN = 100;

/** How long a pane's output pauses before the rows above the margin move to the store, and the
 * longest they wait while it goes on. Meanwhile xterm holds them as without a store (reusing its
 * oldest row for each new one), so most rows of a flood pass the limit and are never encoded, and
 * xterm's buffer is not emptied under a flood only to be allocated again row by row. */
export const SETTLE_MS = 150;
export const SETTLE_MAX_MS = 2000;

/** The part of xterm's IBuffer that readers use. */
export interface Rows {
  readonly type: IBuffer["type"];
  readonly length: number;
  readonly baseY: number;
  readonly cursorX: number;
  readonly cursorY: number;
  getLine(y: number): IBufferLine | undefined;
  getNullCell(): IBufferCell;
}

interface Attached {
  term: Terminal;
  store: HistoryStore;
  lines: ReturnType<typeof normalLines>;
  marks: Set<RowMark>;
  timer: ReturnType<typeof setTimeout> | undefined;
  /** When output was last parsed, and when the timer was first set for it. */
  parsedAt: number;
  armedAt: number;
}

const attached = new WeakMap<Terminal, Attached>();

/** Whether panes keep their history in the store: on unless WS_HISTORY_STORE=0 in the server's
 * environment (then all history stays in xterm, ~3 KB a 100-column row). */
export function historyStoreEnabled(): boolean {
  return process.env.WS_HISTORY_STORE !== "0";
}

/** A pane's history store, kept in step with its xterm. */
export interface HistoryKeeper {
  /** Output was parsed: settle the history once it pauses. */
  parsed(): void;
  dispose(): void;
}

/** Give `term` a store for all but the last margin of its history (xterm's scrollback option:
 * xterm holds all of it until the rows move to the store); `store`: the one a terminal made again
 * takes over from the one before it (xterm-state.ts). */
export function attachHistory(term: Terminal, store?: HistoryStore): HistoryKeeper | undefined {
  const limit = term.options.scrollback ?? 0;
  if (limit <= HISTORY_MARGIN) return undefined;
  const lines = normalLines(term);
  if (!lines) return undefined;
  const a: Attached = { term, store: store ?? new HistoryStore({ limit: limit - HISTORY_MARGIN }), lines, marks: new Set(), timer: undefined, parsedAt: 0, armedAt: 0 };
  attached.set(term, a);
  // ED 3 erases the history: the store's part too (xterm erases its own).
  term.parser.registerCsiHandler({ final: "J" }, (params) => {
    if (params[0] === 3 && term.buffer.active.type === "normal") current(term, false)?.store.clear();
    return false;
  });
  const arm = (ms: number) => {
    a.timer = setTimeout(fire, ms);
    (a.timer as { unref?: () => void }).unref?.();
  };
  const fire = () => {
    a.timer = undefined;
    if (attached.get(term) !== a) return;
    const now = performance.now();
    const quiet = now - a.parsedAt;
    if (quiet >= SETTLE_MS) return settle(a, true);
    if (now - a.armedAt < SETTLE_MAX_MS) return arm(SETTLE_MS - quiet);
    settle(a, false);
  };
  return {
    parsed() {
      a.parsedAt = performance.now();
      if (a.timer === undefined && xtermHistoryRows(term) > HISTORY_MARGIN) {
        a.armedAt = a.parsedAt;
        arm(SETTLE_MS);
      }
    },
    dispose() {
      clearTimeout(a.timer);
      a.timer = undefined;
      attached.delete(term);
    },
  };
}

/** Move xterm's history rows above the margin into the store, oldest first; marks on them follow.
 * `quiet`: the pane has stopped printing (its released rows may need a collection to be freed;
 * a flood's are, by the collections its own output brings). */
function settle(a: Attached, quiet = true): void {
  const over = xtermHistoryRows(a.term) - HISTORY_MARGIN;
  if (over <= 0) return;
  const store = a.store;
  // Rows the store would drop at once are not encoded: every line before the last line start
  // with at least the store's limit of rows after it (a line goes whole; the store's go first).
  let skip = 0;
  const buf = a.term.buffer.normal;
  for (let j = over - store.limit; j >= 1 && !skip; j--) if (!buf.getLine(j)?.isWrapped) skip = j;
  if (skip) store.clear();
  let onRow: Map<number, RowMark[]> | undefined;
  for (const m of a.marks) {
    const y = m.xtermRow();
    if (y < skip || y >= over) continue;
    onRow ??= new Map();
    onRow.set(y, [...(onRow.get(y) ?? []), m]);
  }
  const moved = takeTopRows(a.term, over, (row, i) => {
    if (i < skip) return;
    const pos = store.append(row);
    const ms = onRow?.get(i);
    if (ms && pos) for (const m of ms) m.moveToStore(pos);
  });
  store.compact();
  // (xterm's row: three 32-bit words a column.)
  if (quiet) releasedRows(moved * a.term.cols * 12);
}

/** The store attached to `term`, current: a reset (RIS) gave xterm a fresh buffer and dropped its
 * history, so the store's goes too; and (unless `settled` is false) xterm's history past the
 * margin is moved into it, so that rows are numbered as every later read numbers them. */
function current(term: Terminal, settled = true): Attached | undefined {
  const a = attached.get(term);
  if (!a) return undefined;
  const lines = normalLines(term);
  if (lines !== a.lines) {
    a.store.clear();
    a.lines = lines;
  }
  if (settled) settle(a);
  return a;
}

/** Move `term`'s history past the margin into its store now (before reading xterm's rows
 * directly, as the save does). */
export function settleHistory(term: Terminal): void {
  current(term);
}

export function historyOf(term: Terminal): HistoryStore | undefined {
  return current(term)?.store;
}

/** History rows the store holds at the terminal's width (0 without a store). */
export function storeRows(term: Terminal): number {
  return current(term)?.store.rowCount(term.cols) ?? 0;
}

class View implements Rows {
  constructor(
    private readonly term: Terminal,
    private readonly buf: IBuffer,
    private readonly store: HistoryStore,
    private readonly offset: number,
  ) {}
  get type(): IBuffer["type"] {
    return this.buf.type;
  }
  get length(): number {
    return this.offset + this.buf.length;
  }
  get baseY(): number {
    return this.offset + this.buf.baseY;
  }
  get cursorX(): number {
    return this.buf.cursorX;
  }
  get cursorY(): number {
    return this.buf.cursorY;
  }
  getLine(y: number): IBufferLine | undefined {
    if (y < this.offset) return y < 0 ? undefined : this.store.getLine(this.term, y, this.term.cols);
    return this.buf.getLine(y - this.offset);
  }
  getNullCell(): IBufferCell {
    return this.buf.getNullCell();
  }
}

/** The normal buffer's rows, history store first. */
export function normalRows(term: Terminal): Rows {
  const a = current(term);
  const buf = term.buffer.normal;
  if (!a) return buf;
  const n = a.store.rowCount(term.cols);
  return n ? new View(term, buf, a.store, n) : buf;
}

/** The active buffer's rows: the normal one with its store, or the alternate screen. */
export function activeRows(term: Terminal): Rows {
  return term.buffer.active.type === "normal" ? normalRows(term) : term.buffer.active;
}

/** A RowMark's place without its terminal: in the store, on a row of xterm's buffer, or gone. */
export type CarriedMark = { pos: HistoryPos; col: number } | { line: number; col: number; alt: boolean } | undefined;

/**
 * A row mark that outlives xterm's buffer: an xterm marker while its row is there, then the
 * place in the store its row went to. `line` is its row in normalRows (-1 once gone).
 */
export class RowMark {
  private pos: HistoryPos | undefined;
  private gone = false;
  private constructor(
    private readonly term: Terminal,
    private readonly a: Attached | undefined,
    private readonly marker: IMarker | undefined,
    /** The column the mark was taken at. */
    private readonly col0: number,
    /** Taken on the alternate screen (its marker is that buffer's). */
    private readonly onAlt = false,
  ) {}

  /** A mark at the cursor's row, `offset` rows from it, and column `col`. */
  static atCursor(term: Terminal, offset = 0, col = term.buffer.active.cursorX): RowMark | undefined {
    const marker = term.registerMarker(offset);
    if (!marker) return undefined;
    const alt = term.buffer.active.type !== "normal";
    const a = alt ? undefined : current(term, false);
    const m = new RowMark(term, a, marker, col, alt);
    a?.marks.add(m);
    return m;
  }

  /** Where the mark is, apart from its terminal (taken before the terminal is put away). */
  carry(): CarriedMark {
    if (this.isDisposed) return undefined;
    if (this.pos) return { pos: this.pos, col: this.col0 };
    return { line: this.marker!.line, col: this.col0, alt: this.onAlt };
  }

  /** A carried mark in `term`, a terminal made again with the rows and store of the one it was
   * taken in (xterm-state.ts); one that was gone stays gone. */
  static carried(term: Terminal, c: CarriedMark): RowMark {
    const alt = !!c && "alt" in c && c.alt;
    const a = alt ? undefined : attached.get(term);
    let m: RowMark | undefined;
    if (c && "pos" in c) {
      if (a) {
        m = new RowMark(term, a, undefined, c.col);
        m.pos = c.pos;
      }
    } else if (c) {
      const buf = coreOf(term)?.buffers?.[alt ? "alt" : "normal"] as Partial<RawBuffer> | undefined;
      const marker = buf?.addMarker?.(c.line) as IMarker | undefined;
      if (marker) m = new RowMark(term, a, marker, c.col, alt);
    }
    if (!m) {
      m = new RowMark(term, undefined, undefined, 0);
      m.gone = true;
      return m;
    }
    a?.marks.add(m);
    return m;
  }

  /** Its row in xterm's normal buffer while it is there, else -1. */
  xtermRow(): number {
    return this.pos || !this.marker || this.marker.isDisposed ? -1 : this.marker.line;
  }

  moveToStore(pos: HistoryPos): void {
    this.pos = pos;
  }

  get isDisposed(): boolean {
    return this.gone || this.place() === undefined;
  }

  /** Its row in normalRows (or the alternate buffer's, for a mark taken there); -1 once gone. */
  get line(): number {
    return this.place()?.row ?? -1;
  }

  /** Its column (a history line re-wrapped at a new width moves it). */
  get col(): number {
    return this.place()?.col ?? 0;
  }

  private place(): { row: number; col: number } | undefined {
    if (this.gone) return undefined;
    // (Settled first: the rows it is counted among are the ones every read then sees.)
    const a = this.a && current(this.term);
    if (this.pos && this.a) {
      if (a !== this.a) return undefined;
      return this.a.store.rowOf(this.pos, this.col0, this.term.cols);
    }
    if (!this.marker || this.marker.isDisposed || this.marker.line < 0) return undefined;
    return { row: (a ? a.store.rowCount(this.term.cols) : 0) + this.marker.line, col: this.col0 };
  }

  dispose(): void {
    this.gone = true;
    this.marker?.dispose();
    this.a?.marks.delete(this);
  }
}

/** Run a resize with the history settled before and after it, and without xterm dropping rows
 * its reflow pushes past its own history: the limit is raised for the reflow, and what is past
 * the margin after it goes to the store. */
export function resizeKeepingHistory(term: Terminal, cols: number, resize: () => void): void {
  const a = current(term);
  const limit = term.options.scrollback ?? 0;
  if (!a) return resize();
  if (cols >= term.cols) {
    resize();
    settle(a);
    return a.store.fitTo(term.cols);
  }
  const buf = term.buffer.normal;
  const grow = Math.ceil(term.cols / Math.max(1, cols));
  term.options.scrollback = Math.max(limit, HISTORY_MARGIN + buf.length * grow);
  try {
    resize();
    settle(a);
  } finally {
    term.options.scrollback = limit;
  }
  a.store.fitTo(term.cols);
}

/** The store's logical lines, for the save's text; `continued` when xterm's top row continues
 * the newest one (its text then goes on with xterm's first line). */
export function storeLineTexts(term: Terminal): { texts: string[]; continued: boolean } {
  const a = current(term);
  if (!a) return { texts: [], continued: false };
  const top = term.buffer.normal.getLine(0);
  return historyLineTexts(a.store, top?.isWrapped === true, top?.getCell(0)?.getWidth() === 2);
}

/** A store's lines as text, given xterm's top row: whether it is wrapped (it continues the store's
 * newest line, when that one is open) and whether its first character is wide. */
export function historyLineTexts(store: HistoryStore, topWrapped: boolean, topWide: boolean): { texts: string[]; continued: boolean } {
  if (store.lineCount === 0) return { texts: [], continued: false };
  const continued = store.hasOpen && topWrapped;
  // The newest line's last captured row was full: its trailing cells are text (spaces), unless
  // a wide character that did not fit left the last one empty.
  const pad = store.openPad;
  const gap = pad === 1 && topWide;
  return { texts: store.lineTexts(continued ? (gap ? 0 : pad) : undefined), continued };
}
