// Which rows of a pane's screen changed since the interface last read them out of the emulator:
// the ranges xterm itself reports for repainting (its renderer relies on them), and every row on a
// reset or a resize. The range hook is internal to xterm; without it, or before anything
// is known, every row counts as changed.

import type { Terminal } from "@xterm/headless";
import { coreOf } from "./xterm-internals";

/** Changed rows, start..end inclusive (start > end: none); every row until something is known. */
export class RowRange {
  private start = 0;
  private end = Infinity;

  /** The rows to read again, or undefined for none; and forget them (they are being drawn). */
  take(): [number, number] | undefined {
    const r: [number, number] | undefined = this.start <= this.end ? [this.start, this.end] : undefined;
    this.start = Infinity;
    this.end = -1;
    return r;
  }

  mark(a: number, b: number): void {
    this.start = Math.min(this.start, a, b);
    this.end = Math.max(this.end, a, b);
  }

  markAll(): void {
    this.start = 0;
    this.end = Infinity;
  }
}

export class DirtyRows extends RowRange {
  private readonly precise: boolean;
  private readonly subscriptions: { dispose(): void }[] = [];

  constructor(term: Terminal) {
    super();
    const core = coreOf(term);
    const input = core?._inputHandler;
    this.precise = typeof input?.onRequestRefreshRows === "function";
    if (input?.onRequestRefreshRows) this.subscriptions.push(input.onRequestRefreshRows((e) => (e ? this.mark(e.start, e.end) : this.markAll())));
    if (typeof input?.onRequestReset === "function") this.subscriptions.push(input.onRequestReset(() => this.markAll()));
    // Scrolls need nothing here: xterm marks the rows a scroll moves (test/render.test.ts checks),
    // and a listener on every scrolled line would cost a flood.
    this.subscriptions.push(term.onResize(() => this.markAll()));
  }

  /** New output was parsed: without xterm's ranges, all of it may have changed. */
  output(): void {
    if (!this.precise) this.markAll();
  }

  dispose(): void {
    for (const s of this.subscriptions.splice(0)) s.dispose();
  }
}
