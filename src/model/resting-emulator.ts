// A pane's emulator that lets go of its emulator while nobody needs it. An xterm terminal costs
// ~200–300 KB whatever it shows; a pane that printed nothing for REST_MS, that no client shows
// (no row tracker) and that no wait holds a mark in, keeps its state in a compact form instead
// (Emulator.putAway: its rows packed, its history in the store it already had) and gets an
// emulator back, the same in every way, on the first thing that needs one: output, a resize, a
// client showing it, any read. Cheap reads (size, cursor, modes, the shell's state) are answered
// from what it was when it went to rest, without waking it.
import type { CellSink } from "./cells";
import type { CellMatch, CellPos, CellRow } from "./cell-text";
import { Emulator, type EmulatorOptions, type PutAway } from "./emulator";
import type { ScreenModes } from "./emulator-modes";
import type { ScreenState } from "./emulator-protocol";
import { envInt } from "./limits";
import { pack, unpack, type PackedValue } from "./packed-value";
import { releasedRows } from "./released-rows";
import { restedText } from "./rested-text";
import type { PaneEmulator, RowTracker } from "./pane-emulator";
import type { FinishedCommand, ShellState, ShellView } from "./shell-marks";
import type { ReadOptions, ReadResult, Source } from "./text-sources";

/** How long a pane stays quiet and unshown before its emulator is put away (0: never). */
export const REST_MS = envInt("WS_EMULATOR_REST_MS", 5000);

/** What an xterm terminal costs apart from its rows (measured: ~150 KB), and a row's cell (its
 * three words and its share of the row's objects); its row list holds a slot per line it may keep. */
const TERMINAL_BYTES = 150 * 1024;
const CELL_BYTES = 16;

/** Emulators held and put away, over all panes (what a test and `ws` itself can count). */
export const emulatorCount = { live: 0, resting: 0 };

/** What cheap reads answer while the emulator is put away: what a worker's publish carries, less
 * the shell's state (kept by the resting emulator's own marks). */
type Still = Omit<ScreenState, "shell">;
/** What the shell's state reads answer while the emulator is put away. */
type StillShell = { seen: boolean; state: ShellState; prompts: number; command: string | undefined };

export class RestingEmulator implements PaneEmulator {
  private emu: Emulator | undefined;
  /** The emulator put away: its state packed (packed-value.ts), and what cheap reads answer. */
  private away: { state: PackedValue<PutAway>; still: Still; shell: StillShell } | undefined;
  private trackers = 0;
  private parsing = 0;
  private lastUse = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private disposed = false;
  readonly shell: ShellView;
  onTitle: (title: string) => void = () => {};
  onParsed: (bytes: number) => void = () => {};
  onReply: (data: string) => void = () => {};
  onBell: () => void = () => {};
  onClipboard: (data: string) => void = () => {};

  /** `restMs`: its quiet time before it rests (a test gives its own; the server, WS_EMULATOR_REST_MS). */
  constructor(
    o: EmulatorOptions,
    private readonly restMs = REST_MS,
  ) {
    this.shell = new RestingShell(this);
    this.wire(new Emulator(o));
    this.used();
  }

  /** The emulator, brought back if it was put away; the pane counts as used now. */
  live(): Emulator {
    this.used();
    if (this.emu) return this.emu;
    const state = unpack(this.away!.state);
    if (this.disposed) return new Emulator(state.options, state);
    this.away = undefined;
    emulatorCount.resting--;
    return this.wire(new Emulator(state.options, state));
  }

  /** Whether the emulator is put away now. */
  get resting(): boolean {
    return this.emu === undefined;
  }

  private wire(e: Emulator): Emulator {
    this.emu = e;
    emulatorCount.live++;
    e.onTitle = (t) => this.onTitle(t);
    e.onParsed = (n) => this.onParsed(n);
    e.onReply = (d) => this.onReply(d);
    e.onBell = () => this.onBell();
    e.onClipboard = (d) => this.onClipboard(d);
    e.shell.onStarted = (c) => this.shell.onStarted(c);
    // A command's output read after the emulator rested is read from the one that came back.
    e.shell.onFinished = (done) => this.shell.onFinished({ ...done, output: () => (this.emu === e ? done.output() : this.live().shell.lastOutput()) });
    return e;
  }

  private used(): void {
    this.lastUse = performance.now();
    if (this.restMs > 0 && this.timer === undefined && !this.disposed) this.arm(this.restMs);
  }

  private arm(ms: number): void {
    this.timer = setTimeout(() => this.tryRest(), ms);
    (this.timer as { unref?: () => void }).unref?.();
  }

  private tryRest(): void {
    this.timer = undefined;
    const e = this.emu;
    if (!e || this.disposed) return;
    const quiet = performance.now() - this.lastUse;
    if (quiet < this.restMs) return this.arm(this.restMs - quiet);
    // Shown, or mid-parse: looked at again after another delay.
    if (this.trackers || this.parsing) return this.arm(this.restMs);
    const still: Still = { cols: e.cols, rows: e.rows, cursorX: e.cursorX, cursorY: e.cursorY, baseY: e.baseY, normalCursorX: e.normalCursorX, alt: e.alt, modes: e.modes };
    const state = e.putAway();
    if (!state) return this.arm(this.restMs);
    const { seen, state: shellState, prompts, command } = state.shell;
    this.away = { state: pack(withoutEmptyStore(state)), still, shell: { seen, state: shellState, prompts, command } };
    this.emu = undefined;
    e.dispose();
    emulatorCount.live--;
    emulatorCount.resting++;
    // A quiet server allocates next to nothing: without a collection the terminal's memory stays.
    releasedRows(TERMINAL_BYTES + still.rows * still.cols * CELL_BYTES + (state.options.scrollback + still.rows) * 8);
  }

  /** The shell marks' state (ShellView's fields), from the emulator or what it left. */
  shellState(): StillShell {
    return this.emu ? this.emu.shell : this.away!.shell;
  }

  get cols(): number {
    return this.emu?.cols ?? this.away!.still.cols;
  }
  get rows(): number {
    return this.emu?.rows ?? this.away!.still.rows;
  }
  get cursorX(): number {
    return this.emu?.cursorX ?? this.away!.still.cursorX;
  }
  get cursorY(): number {
    return this.emu?.cursorY ?? this.away!.still.cursorY;
  }
  get baseY(): number {
    return this.emu?.baseY ?? this.away!.still.baseY;
  }
  get normalCursorX(): number {
    return this.emu?.normalCursorX ?? this.away!.still.normalCursorX;
  }
  get alt(): boolean {
    return this.emu?.alt ?? this.away!.still.alt;
  }
  get modes(): ScreenModes {
    return this.emu?.modes ?? this.away!.still.modes;
  }

  parse(bytes: Uint8Array): void | Promise<void> {
    const r = this.live().parse(bytes);
    if (!r) return;
    this.parsing++;
    return r.finally(() => {
      this.parsing--;
      this.used();
    });
  }

  flushed(): Promise<void> {
    return this.emu ? this.emu.flushed() : Promise.resolve();
  }

  resize(cols: number, rows: number): void {
    this.live().resize(cols, rows);
  }

  resetShell(): void {
    this.live().resetShell();
  }

  trackRows(): RowTracker {
    const t = this.live().trackRows();
    this.trackers++;
    let open = true;
    return {
      output: () => t.output(),
      take: () => t.take(),
      dispose: () => {
        if (open) this.trackers--;
        open = false;
        t.dispose();
        this.used();
      },
    };
  }

  render(sink: CellSink, x0: number, y0: number, w: number, h: number, scrollBack = 0, rows?: [number, number]): void {
    this.live().render(sink, x0, y0, w, h, scrollBack, rows);
  }
  readPane(o: ReadOptions): ReadResult {
    return this.live().readPane(o);
  }
  sourceRows(source: Source, styled?: boolean, screenOnly?: boolean): { text: string; row: number }[] {
    return this.live().sourceRows(source, styled, screenOnly);
  }
  markCursor(): number {
    return this.live().markCursor();
  }
  sourceRowsSince(source: Source, mark: number): { text: string; row: number }[] {
    return this.live().sourceRowsSince(source, mark);
  }
  unmark(mark: number): void {
    this.emu?.unmark(mark); // a mark keeps its emulator: none to unmark in one put away
  }
  captureText(reuse: boolean): string {
    // The save reads a resting pane's text from what it left: it stays at rest.
    if (!this.emu) return restedText(unpack(this.away!.state));
    return this.emu.captureText(reuse);
  }
  lines(from: number, to: number): string[] {
    return this.live().lines(from, to);
  }
  cellRows(from: number, to: number): CellRow[] {
    return this.live().cellRows(from, to);
  }
  find(query: string, from: CellPos, forward: boolean): CellMatch | undefined {
    return this.live().find(query, from, forward);
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    // (What it held stays readable, as a disposed emulator's last screen is.)
    if (this.emu) {
      this.emu.dispose();
      emulatorCount.live--;
    } else emulatorCount.resting--;
  }
}

/** An empty history store with no mark placed in it is left out: the emulator made again makes a
 * fresh one, the same (the store, made with the emulator, is one of the objects that would keep
 * the freed emulator's memory from being given back, see packed-value.ts). */
function withoutEmptyStore(state: PutAway): PutAway {
  const store = state.store;
  if (!store || store.lineCount > 0 || store.capturedRows > 0 || store.hasOpen) return state;
  const { inputStart, outputStart, outputEnd } = state.shell;
  if ([inputStart, outputStart, outputEnd].some((p) => p?.at && "pos" in p.at)) return state;
  return { ...state, store: undefined };
}

/** The pane's ShellView across its emulators: state read from the one there is (or what the one
 * put away left), the callbacks kept here. */
class RestingShell implements ShellView {
  onStarted: (command: string | undefined) => void = () => {};
  onFinished: (done: FinishedCommand) => void = () => {};
  constructor(private readonly emulator: RestingEmulator) {}
  get seen(): boolean {
    return this.emulator.shellState().seen;
  }
  get state(): ShellState {
    return this.emulator.shellState().state;
  }
  get prompts(): number {
    return this.emulator.shellState().prompts;
  }
  get command(): string | undefined {
    return this.emulator.shellState().command;
  }
  promptReadiness(expectB: boolean): "ready" | "typed" | "wait" | "busy" {
    return this.emulator.live().shell.promptReadiness(expectB);
  }
}
