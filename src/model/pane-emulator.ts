// A pane's emulator as the rest of the daemon sees it: the one way the UI, the message handlers and
// persistence read a pane's emulator. Two implementations: the emulator itself on the main thread
// (src/model/emulator.ts), and a mirror of one that runs in a worker (src/model/emulator-client.ts,
// WS_EMULATOR=worker). Cheap reads (size, cursor, modes, the screen's rows) are answered from what
// the emulator last published; the rest (scrollback, text) ask it, synchronously.
import type { CellSink } from "./cells";
import type { ScreenModes } from "./emulator-modes";
import type { ReadOptions, ReadResult, Source } from "./text-sources";
import type { ShellView } from "./shell-marks";
import type { CellMatch, CellPos, CellRow } from "./cell-text";

/** Which rows of a screen changed since a reader last drew it (one tracker per reader). */
export interface RowTracker {
  /** New output was parsed (a tracker without precise ranges then counts every row). */
  output(): void;
  /** The rows to draw again, [first, last] (last may be Infinity), or undefined for none; and forget them. */
  take(): [number, number] | undefined;
  dispose(): void;
}

export interface PaneEmulator {
  /** The emulator's size (it may lag the pane's own for a moment after a resize). */
  readonly cols: number;
  readonly rows: number;
  readonly cursorX: number;
  /** Row of the cursor on the screen; baseY + cursorY is its line in the buffer. */
  readonly cursorY: number;
  /** Lines of history above the screen. */
  readonly baseY: number;
  /** The cursor's column on the normal screen (where it returns when the alternate one is left). */
  readonly normalCursorX: number;
  /** The program is on the alternate screen. */
  readonly alt: boolean;
  readonly modes: ScreenModes;
  readonly shell: ShellView;
  /** Its emulator is put away while nobody needs it (resting-emulator.ts). */
  readonly resting?: boolean;
  /** The program set a title. */
  onTitle: (title: string) => void;
  /** Answers to the program's queries (DA, DSR, DECRQM...), in order: for its PTY, nowhere else. */
  onReply: (data: string) => void;
  /** The program rang the bell. */
  onBell: () => void;
  /** The program set the clipboard (OSC 52): "Pc;base64", checked (emulator-passthrough.ts). */
  onClipboard: (data: string) => void;

  /** Parse output here and now (an in-thread emulator); undefined when bytes go to `send`. */
  parse?(bytes: Uint8Array): void | Promise<void>;
  /** Hand output to an emulator on another thread; `onParsed` reports each byte count parsed. */
  send?(bytes: Uint8Array): void;
  onParsed: (bytes: number) => void;
  /** Resolves once everything handed to the emulator so far is in its screen. */
  flushed(): Promise<void>;

  /** Drop output handed to `send` and not parsed yet (the pane is closing). */
  discard?(): void;
  resize(cols: number, rows: number): void;
  /** Forget the shell marks of the program before (pane_respawn). */
  resetShell(): void;
  /** Follow which rows change, for one reader. */
  trackRows(): RowTracker;
  /** Draw w × h cells of the screen (scrollBack lines up into the history) at (x0, y0); with `rows`, only those rows. */
  render(sink: CellSink, x0: number, y0: number, w: number, h: number, scrollBack?: number, rows?: [number, number]): void;

  /** pane_read. */
  readPane(o: ReadOptions): ReadResult;
  /** A source's lines with the buffer row each starts on (search, wait_for); with `screenOnly`,
   * only those on the screen (the history is not read). */
  sourceRows(source: Source, styled?: boolean, screenOnly?: boolean): { text: string; row: number }[];
  /** Mark the cursor's place, so that later text can be told from what was there (wait_for's
   * `new`); returns the mark's id, which `unmark` frees. */
  markCursor(): number;
  /** The source's lines written at or after a mark (text-sources.ts sourceRowsSince). */
  sourceRowsSince(source: Source, mark: number): { text: string; row: number }[];
  unmark(mark: number): void;
  /** The normal screen's history and screen as text, for a save; with `reuse`, rows read last
   * time that cannot have changed are not read again. */
  captureText(reuse: boolean): string;
  /** Buffer lines [from, to) as text, trailing blanks dropped. */
  lines(from: number, to: number): string[];
  /** Buffer lines [from, to) by cells, one entry each (copy mode and the mouse work in cells). */
  cellRows(from: number, to: number): CellRow[];
  /** The nearest match of `query` (case-insensitive) after the cell `from` (forward) or before
   * it, in the program's lines (wrapped rows joined): its first and last cells. */
  find(query: string, from: CellPos, forward: boolean): CellMatch | undefined;

  dispose(): void;
}
