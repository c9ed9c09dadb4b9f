// A pane's terminal emulator: @xterm/headless with ws's speedups, its synchronous parse step, the
// modes xterm does not expose, the shell's OSC 133 marks and the title. It is a PaneEmulator
// itself when it runs on the main thread; the emulator worker (emulator-worker.ts) runs the same class.
import { Terminal } from "@xterm/headless";
import type { CellSink } from "./cells";
import { DirtyRows } from "./dirty-rows";
import { emulatorInput, type EmulatorInput } from "./emulator-input";
import { modesOf, trackModes, type ExtraModes, type ScreenModes } from "./emulator-modes";
import { readPane, sourceRows, sourceRowsSince, type ReadOptions, type ReadResult, type Source } from "./text-sources";
import { renderPane } from "./render-cells";
import type { RowTracker, PaneEmulator } from "./pane-emulator";
import { captureText, disposeText, type TextState } from "./text-capture";
import { ShellMarks, type CarriedShell } from "./shell-marks";
import { putState, takeState, type XtermState } from "./xterm-state";
import type { HistoryStore } from "./history-store";
import { installScrollShortcut, installXtermSpeedups } from "./xterm-speedups";
import { useModernWidths } from "./emulator-unicode";
import { answerQueries, type OwnColours } from "./emulator-queries";
import { rapidBlinkAsBlink } from "./emulator-sgr";
import { trackPassthrough } from "./emulator-passthrough";
import { resizeKeepingCursor } from "./cursor-reflow";
import { findFrom, readCellRows, type CellMatch, type CellPos, type CellRow } from "./cell-text";
import { activeRows, attachHistory, historyOf, historyStoreEnabled, resizeKeepingHistory, RowMark, type HistoryKeeper } from "./history-view";

export interface EmulatorOptions {
  cols: number;
  rows: number;
  scrollback: number;
  /** Keep the history past a short margin in the compact store (history-view.ts); default: on,
   * unless WS_HISTORY_STORE=0. */
  compactHistory?: boolean;
}

/** An emulator put away (Emulator.putAway): everything a new one needs to be it again, without
 * xterm's terminal (resting-emulator.ts holds it while nobody looks at the pane). */
export interface PutAway {
  options: EmulatorOptions;
  xterm: XtermState;
  extra: ExtraModes;
  colours: OwnColours;
  shell: CarriedShell;
  store: HistoryStore | undefined;
}

export class Emulator implements PaneEmulator {
  readonly term: Terminal;
  readonly shell: ShellMarks;
  private readonly extra: ExtraModes;
  private readonly colours: OwnColours;
  private readonly input: EmulatorInput;
  /** What captureText read last time, reused for the rows that cannot have changed. */
  private text: TextState | undefined;
  /** Marks a wait took (markCursor), by id: they follow their line as the history scrolls. */
  private readonly marks = new Map<number, RowMark | undefined>();
  private nextMark = 1;
  private history: HistoryKeeper | undefined;
  onTitle: (title: string) => void = () => {};
  onParsed: (bytes: number) => void = () => {};
  /** An answer to a query the program sent (DA, DSR, DECRQM...): for the pane's PTY, in order. */
  onReply: (data: string) => void = () => {};
  /** The program rang the bell (BEL outside a string). */
  onBell: () => void = () => {};
  onClipboard: (data: string) => void = () => {};

  /** `from`: an emulator put away, which this one becomes again (same screen, modes, marks). */
  constructor(
    private readonly o: EmulatorOptions,
    from?: PutAway,
  ) {
    // getWinSizeChars: CSI 18 t asks for the size in cells, which a pane answers as any terminal.
    // reflowCursorLine: an unfinished line (a progress bar, a prompt) keeps its text through a
    // narrower size and back, as tmux's; the cursor is put back on it (cursor-reflow.ts).
    const compact = o.compactHistory ?? historyStoreEnabled();
    this.term = new Terminal({ cols: o.cols, rows: o.rows, scrollback: o.scrollback, allowProposedApi: true, reflowCursorLine: true, windowOptions: { getWinSizeChars: true } });
    installXtermSpeedups(this.term);
    installScrollShortcut(this.term);
    useModernWidths(this.term);
    this.term.onTitleChange((t) => this.onTitle(t));
    this.input = emulatorInput(this.term);
    // xterm answers most queries itself, through onData (a headless terminal has no keyboard).
    this.term.onData((d) => this.onReply(d));
    this.term.onBell(() => this.onBell());
    const reply = (d: string) => this.onReply(d);
    this.extra = trackModes(this.term, reply);
    this.colours = answerQueries(this.term, this.extra, reply);
    rapidBlinkAsBlink(this.term);
    trackPassthrough(this.term, this.extra, (d) => this.onClipboard(d));
    if (compact) this.history = attachHistory(this.term, from?.store);
    if (!from) {
      this.shell = new ShellMarks(this.term);
      return;
    }
    if (!putState(this.term, from.xterm)) throw new Error("an emulator put away could not be made again");
    const { kitty, ...rest } = from.extra;
    Object.assign(this.extra, rest);
    if (kitty && this.extra.kitty) {
      this.extra.kitty.main = [...kitty.main];
      this.extra.kitty.alt = [...kitty.alt];
    }
    Object.assign(this.colours, { ...from.colours, palette: new Map(from.colours.palette) });
    this.shell = ShellMarks.carried(this.term, from.shell);
  }

  /** Everything this emulator is, to make it again later (then dispose of this one); undefined
   * while it cannot be put away: a wait holds a mark in it, or its parser is mid-sequence. */
  putAway(): PutAway | undefined {
    if (this.marks.size || this.term.modes.synchronizedOutputMode) return undefined;
    const store = this.history ? historyOf(this.term) : undefined; // (settles the history first)
    const xterm = takeState(this.term);
    if (!xterm) return undefined;
    const extra: ExtraModes = { ...this.extra };
    if (this.extra.kitty) extra.kitty = { main: [...this.extra.kitty.main], alt: [...this.extra.kitty.alt] };
    const options = { ...this.o, cols: this.term.cols, rows: this.term.rows, scrollback: this.term.options.scrollback ?? this.o.scrollback };
    return { options, xterm, extra, colours: { ...this.colours, palette: new Map(this.colours.palette) }, shell: this.shell.carry(), store };
  }

  get cols(): number {
    return this.term.cols;
  }
  get rows(): number {
    return this.term.rows;
  }
  get cursorX(): number {
    return this.term.buffer.active.cursorX;
  }
  get cursorY(): number {
    return this.term.buffer.active.cursorY;
  }
  get baseY(): number {
    return activeRows(this.term).baseY;
  }
  get normalCursorX(): number {
    return this.term.buffer.normal.cursorX;
  }
  get alt(): boolean {
    return this.term.buffer.active.type === "alternate";
  }
  get modes(): ScreenModes {
    const m: ScreenModes = { ...modesOf(this.term, this.extra), cursorHidden: this.extra.cursorHidden, cursorShape: this.extra.cursorShape };
    if (this.extra.cursorColor !== undefined) m.cursorColor = this.extra.cursorColor;
    if (this.term.modes.synchronizedOutputMode) m.synchronizedSince = this.extra.syncSince ?? Date.now();
    return m;
  }

  parse(bytes: Uint8Array): void | Promise<void> {
    const r = this.input(bytes);
    this.history?.parsed();
    return r;
  }

  flushed(): Promise<void> {
    // Where xterm's parse step is missing, output goes through its own write queue.
    return new Promise((resolve) => this.term.write("", resolve));
  }

  resize(cols: number, rows: number): void {
    resizeKeepingHistory(this.term, cols, () => resizeKeepingCursor(this.term, cols, rows));
  }

  resetShell(): void {
    this.shell.reset();
  }

  trackRows(): RowTracker {
    return new DirtyRows(this.term);
  }

  render(sink: CellSink, x0: number, y0: number, w: number, h: number, scrollBack = 0, rows?: [number, number]): void {
    renderPane(this.term, sink, x0, y0, w, h, scrollBack, rows);
  }

  readPane(o: ReadOptions): ReadResult {
    return readPane(this.term, o);
  }

  sourceRows(source: Source, styled = false, screenOnly = false): { text: string; row: number }[] {
    return sourceRows(this.term, source, styled, screenOnly);
  }

  markCursor(): number {
    const id = this.nextMark++;
    this.marks.set(id, RowMark.atCursor(this.term));
    return id;
  }

  sourceRowsSince(source: Source, mark: number): { text: string; row: number }[] {
    if (!this.marks.has(mark)) throw new Error(`no text mark ${mark}`);
    const m = this.marks.get(mark);
    const line = m && !m.isDisposed ? m.line : undefined;
    return sourceRowsSince(this.term, source, { line, col: line === undefined || !m ? 0 : m.col });
  }

  unmark(mark: number): void {
    this.marks.get(mark)?.dispose();
    this.marks.delete(mark);
  }

  captureText(reuse: boolean): string {
    if (!reuse) {
      disposeText(this.text);
      this.text = undefined;
    }
    const r = captureText(this.term, this.text);
    this.text = r.state;
    return r.text;
  }

  lines(from: number, to: number): string[] {
    const buf = activeRows(this.term);
    const out: string[] = [];
    for (let y = Math.max(0, from); y < to; y++) out.push(buf.getLine(y)?.translateToString(true) ?? "");
    return out;
  }

  cellRows(from: number, to: number): CellRow[] {
    return readCellRows(this.term, from, to);
  }

  find(query: string, from: CellPos, forward: boolean): CellMatch | undefined {
    return findFrom(this.term, query, from, forward);
  }

  dispose(): void {
    disposeText(this.text);
    this.text = undefined;
    this.shell.dispose();
    this.history?.dispose();
    this.term.dispose();
  }
}
