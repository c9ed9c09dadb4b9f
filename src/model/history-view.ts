// A pane's rows as one sequence: its compact history (history-store.ts) first, then xterm's own
// buffer (a short history margin and the screen). Everything that reads rows by number (pane
// read, waits, search, copy mode, a command's output, the save) reads this view, so a pane whose
// history lives in the store reads exactly as one whose history is all xterm's. Without a store
// (the alternate screen, a short history-limit, the setting off) it is xterm's buffer itself.
// Marks (RowMark) follow a row from xterm's buffer into the store.
import type { IBuffer, IBufferCell, IBufferLine, IMarker, Terminal } from "@xterm/headless";
import { captureTrims, normalLines } from "./history-capture";
import { HistoryStore, type HistoryPos } from "./history-store";

/** Rows of history xterm keeps itself above the screen: what a taller screen pulls back down
 * and what a resize reflows as xterm does; older rows go to the store. */
export const HISTORY_MARGIN = 100;

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
  store: HistoryStore;
  lines: ReturnType<typeof normalLines>;
  marks: Set<RowMark>;
  /** The next trim is ED 3 erasing the history, not history leaving the buffer. */
  erasing: boolean;
}

const attached = new WeakMap<Terminal, Attached>();

/** Whether panes keep their history in the store: WS_HISTORY_STORE=1 in the server's environment.
 * Off by default until capturing rows costs less: with it on, `seq 1 3000000` took 2.14 s detached
 * against 1.32 s off (tmux 0.93-1.0 s), and 3.8 s against 1.6 s to an attached screen
 * (bench/throughput.ts, same machine, medians of 3). */
export function historyStoreEnabled(): boolean {
  return process.env.WS_HISTORY_STORE === "1";
}

/** xterm's own history for a pane that keeps `limit` rows of it. */
export function xtermScrollback(limit: number, compact: boolean): number {
  return compact && limit > HISTORY_MARGIN ? HISTORY_MARGIN : limit;
}

/** Give `term` (made with xtermScrollback's history) a store for the rest of its `limit` rows. */
export function attachHistory(term: Terminal, limit: number): HistoryStore | undefined {
  if (limit <= HISTORY_MARGIN || term.options.scrollback !== HISTORY_MARGIN) return undefined;
  const lines = normalLines(term);
  if (!lines) return undefined;
  const a: Attached = { store: new HistoryStore({ limit: limit - HISTORY_MARGIN }), lines, marks: new Set(), erasing: false };
  if (!hook(a)) return undefined;
  attached.set(term, a);
  // ED 3 erases the history: the store's part too.
  term.parser.registerCsiHandler({ final: "J" }, (params) => {
    if (params[0] === 3 && term.buffer.active.type === "normal") {
      a.store.clear();
      const list = normalLines(term);
      a.erasing = !!list && list.length > term.rows;
    }
    return false;
  });
  return a.store;
}

function hook(a: Attached): boolean {
  const lines = a.lines;
  if (!lines) return false;
  let index = 0;
  return captureTrims(
    lines,
    (row) => {
      const pos = a.store.append(row);
      // Marks on this row (the index'th of this trim) now point into the store.
      for (const m of a.marks) if (pos && m.onXtermRow(index)) m.moveToStore(pos);
      index++;
    },
    () => {
      index = 0;
      const e = a.erasing;
      a.erasing = false;
      return e;
    },
  );
}

/** The store attached to `term`, current: a reset (RIS) gave xterm a fresh buffer and dropped its
 * history, so the store's goes too. */
function current(term: Terminal): Attached | undefined {
  const a = attached.get(term);
  if (!a) return undefined;
  const lines = normalLines(term);
  if (lines !== a.lines) {
    a.store.clear();
    a.lines = lines;
    hook(a);
  }
  return a;
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
  ) {}

  /** A mark at the cursor's row, `offset` rows from it, and column `col`. */
  static atCursor(term: Terminal, offset = 0, col = term.buffer.active.cursorX): RowMark | undefined {
    const marker = term.registerMarker(offset);
    if (!marker) return undefined;
    const a = term.buffer.active.type === "normal" ? current(term) : undefined;
    const m = new RowMark(term, a, marker, col);
    a?.marks.add(m);
    return m;
  }

  onXtermRow(index: number): boolean {
    return !this.pos && !this.marker?.isDisposed && this.marker?.line === index;
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
    if (this.pos && this.a) {
      if (current(this.term) !== this.a) return undefined;
      return this.a.store.rowOf(this.pos, this.col0, this.term.cols);
    }
    if (!this.marker || this.marker.isDisposed || this.marker.line < 0) return undefined;
    return { row: (this.a ? this.a.store.rowCount(this.term.cols) : 0) + this.marker.line, col: this.col0 };
  }

  dispose(): void {
    this.gone = true;
    this.marker?.dispose();
    this.a?.marks.delete(this);
  }
}

/** Run a resize without xterm dropping rows its reflow pushes past its own history: the limit is
 * raised for the reflow, and what is past the margin after it goes to the store. */
export function resizeKeepingHistory(term: Terminal, cols: number, resize: () => void): void {
  const a = current(term);
  if (!a || term.options.scrollback !== HISTORY_MARGIN) return resize();
  if (cols >= term.cols) {
    resize();
    return a.store.fitTo(term.cols);
  }
  const buf = term.buffer.normal;
  const grow = Math.ceil(term.cols / Math.max(1, cols));
  term.options.scrollback = HISTORY_MARGIN + buf.length * grow;
  try {
    resize();
  } finally {
    term.options.scrollback = HISTORY_MARGIN;
  }
  a.store.fitTo(term.cols);
}

/** The store's logical lines, for the save's text; `continued` when xterm's top row continues
 * the newest one (its text then goes on with xterm's first line). */
export function storeLineTexts(term: Terminal): { texts: string[]; continued: boolean } {
  const a = current(term);
  if (!a || a.store.lineCount === 0) return { texts: [], continued: false };
  const top = term.buffer.normal.getLine(0);
  const continued = a.store.hasOpen && top?.isWrapped === true;
  // The newest line's last captured row was full: its trailing cells are text (spaces), unless
  // a wide character that did not fit left the last one empty.
  const pad = a.store.openPad;
  const gap = pad === 1 && top?.getCell(0)?.getWidth() === 2;
  return { texts: a.store.lineTexts(continued ? (gap ? 0 : pad) : undefined), continued };
}
