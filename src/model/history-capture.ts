// Catch every row as it leaves the top of xterm's normal buffer, before xterm reuses or forgets
// it, and hand it to the history store (history-store.ts). xterm keeps its rows in a circular
// list that drops the oldest when full (on a scroll, a push, a splice, a trim, a shift); by the
// time it tells its listeners (onTrim) the row is already overwritten, so each of those methods
// is wrapped, on this terminal's list only, to read the rows first.
// Internal API: xterm's CircularList (push, recycle, splice, trimStart, shiftElements, length,
// maxLength, get). What xterm drops without these (reflow to a narrower width past maxLength) is
// kept by raising the limit around the resize (widenForResize).
import type { Terminal } from "@xterm/headless";

interface List {
  length: number;
  maxLength: number;
  get(i: number): unknown;
  push(v: unknown): void;
  recycle(): unknown;
  splice(start: number, deleteCount: number, ...items: unknown[]): void;
  trimStart(count: number): void;
  shiftElements(start: number, count: number, offset: number): void;
}

type Sink = (row: never) => void;

interface Core {
  buffers?: { normal?: { lines?: List; ybase: number; ydisp: number } };
}

/** The normal buffer's row list, when xterm's internals look as expected. */
export function normalLines(term: Terminal): List | undefined {
  const l = (term as unknown as { _core?: Core })._core?.buffers?.normal?.lines;
  const ok = l && typeof l.recycle === "function" && typeof l.trimStart === "function" && typeof l.splice === "function" && typeof l.shiftElements === "function";
  return ok ? l : undefined;
}

/** Wrap `list`'s trimming methods so `take` sees each row before it is dropped. `paused()` says
 * when a drop is an erase (ED 3), not history. Returns false when the list is not xterm's. */
export function captureTrims(list: List, take: Sink, paused: () => boolean = () => false): boolean {
  const own = list as List & { __wsCapture?: true };
  if (own.__wsCapture) return true;
  const p = Object.getPrototypeOf(list) as List;
  const give = (n: number, at: (i: number) => unknown) => {
    if (paused()) return;
    for (let i = 0; i < n; i++) take(at(i) as never);
  };
  own.push = function (this: List, v: unknown) {
    if (this.length === this.maxLength) give(1, (i) => this.get(i));
    p.push.call(this, v);
  };
  own.recycle = function (this: List) {
    give(1, (i) => this.get(i));
    return p.recycle.call(this);
  };
  own.splice = function (this: List, start: number, deleteCount: number, ...items: unknown[]) {
    const kept = this.length - Math.min(deleteCount, Math.max(0, this.length - start));
    const over = kept + items.length - this.maxLength;
    if (over > 0) {
      // The rows of the result that fall off its top.
      const at = (i: number) => (i < start ? this.get(i) : i < start + items.length ? items[i - start] : this.get(i - items.length + deleteCount));
      give(over, at);
    }
    p.splice.call(this, start, deleteCount, ...items);
  };
  own.trimStart = function (this: List, count: number) {
    give(Math.min(count, this.length), (i) => this.get(i));
    p.trimStart.call(this, count);
  };
  own.shiftElements = function (this: List, start: number, count: number, offset: number) {
    if (offset > 0 && count > 0) {
      const grown = this.length + Math.max(0, start + count + offset - this.length);
      const over = grown - this.maxLength;
      if (over > 0) give(over, (i) => this.get(i));
    }
    p.shiftElements.call(this, start, count, offset);
  };
  own.__wsCapture = true;
  return true;
}
