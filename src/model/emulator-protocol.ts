// What the daemon's main thread and the emulator worker (emulator-worker.ts) say to each other.
// Output and control go main → worker in order on the worker's port; the worker publishes each
// pane's state back; synchronous reads go on a port of their own (emulator-client.ts).
import { CellArrays, type CellSink } from "./cells";
import type { ScreenModes } from "./emulator-modes";
import type { ShellSnapshot } from "./shell-marks";
import type { TerminalColours } from "./terminal-colours";

export type ToWorker =
  | { t: "out"; id: number; bytes: Uint8Array }
  /** Drop the output not parsed yet (the pane is closing). */
  | { t: "discard"; id: number }
  | { t: "close"; id: number }
  /** The person's terminal's colours changed (an attach, a detach): what panes' queries get. */
  | { t: "colours"; colours: TerminalColours };

/** Everything cheap the main thread reads of a screen, sent with every publish. */
export interface ScreenState {
  cols: number;
  rows: number;
  cursorX: number;
  cursorY: number;
  baseY: number;
  normalCursorX: number;
  alt: boolean;
  modes: ScreenModes;
  shell: ShellSnapshot;
}

export type MarkEvent = { k: "started"; command: string | undefined } | { k: "finished"; command: string | undefined; exitCode: number | null; fid: number };

export interface Published {
  t: "pub";
  id: number;
  /** Bytes parsed since the last publish. */
  parsed: number;
  state: ScreenState;
  /** The screen's rows that changed, as cells. */
  cells?: RowCells;
  /** Titles the program set, in order. */
  titles?: string[];
  marks?: MarkEvent[];
  /** Answers to the program's queries, in order, for its PTY. */
  replies?: string[];
  /** Bells rung since the last publish. */
  bells?: number;
  /** OSC 52 payloads the program sent (checked). */
  clipboard?: string[];
}

/** Synchronous requests: a read of the pane's Emulator (or `cells`/`output`), or a change that
 * must be in place before the next output is parsed (`resize`, `resetShell`, `parseNow`). */
export interface Request {
  rid: number;
  id: number;
  m: string;
  a: unknown[];
}
export type Reply = { rid: number; r: unknown } | { rid: number; err: string };

/** Rows first..first+count-1 of a screen as cells, in the UI grid's shapes ("" and width 0: the
 * right half of a wide character). */
export class RowCells extends CellArrays implements CellSink {
  /** Hyperlinks by cell index (few cells have one). */
  links: Record<number, string> = {};
  constructor(
    readonly cols: number,
    readonly first: number,
    readonly count: number,
  ) {
    super(cols * count);
  }

  /** (x, y): column x of row first + y (render the screen into it at y0 = -first). */
  set(x: number, y: number, ch: string, width: number, fg = 0, bg = 0, attrs = 0, ul = 0, link?: string): void {
    if (x < 0 || x >= this.cols || y < 0 || y >= this.count) return;
    const i = y * this.cols + x;
    this.put(i, ch, width, fg, bg, attrs, ul);
    if (link !== undefined) this.links[i] = link;
    if (width === 2 && x + 1 < this.cols) this.put(i + 1, "", 0, fg, bg, attrs, ul);
  }
}

/** Copy rows [r0, r1] of `src` (screen rows; `src.first` is its first) into `sink` at (x0, y0 + r), w columns. */
export function drawCells(src: Pick<RowCells, "cols" | "first" | "count" | "chars" | "width" | "fg" | "bg" | "attrs" | "ul"> & { links: { get(i: number): string | undefined } | Record<number, string> }, sink: CellSink, x0: number, y0: number, w: number, r0: number, r1: number): void {
  const cols = src.cols;
  const all = src.links;
  const none = all instanceof Map ? all.size === 0 : Object.keys(all).length === 0;
  const linkAt = none ? () => undefined : all instanceof Map ? (i: number) => all.get(i) : (i: number) => (all as Record<number, string>)[i];
  for (let r = Math.max(r0, src.first); r <= r1 && r < src.first + src.count; r++) {
    const row = (r - src.first) * cols;
    const y = y0 + r;
    for (let c = 0; c < w; c++) {
      if (c >= cols) {
        sink.set(x0 + c, y, " ", 1);
        continue;
      }
      const i = row + c;
      const width = src.width[i]!;
      if (width === 0) continue; // right half: written with its left half
      // A wide char cut by the pane's right edge would spill onto the border.
      const link = linkAt(i);
      if (width === 2 && c === w - 1) sink.set(x0 + c, y, " ", 1, src.fg[i], src.bg[i], src.attrs[i], src.ul[i], link);
      else sink.set(x0 + c, y, src.chars[i]!, width, src.fg[i], src.bg[i], src.attrs[i], src.ul[i], link);
    }
  }
}
