// Two shortcuts through @xterm/headless's hottest path, scrolling a line.
//
// A faster BufferLine.copyFrom. Every line a full-history pane scrolls reuses
// its oldest line and copies a blank line into it; xterm's copyFrom also makes two fresh objects
// for the line's combined characters and extended attributes and walks both, every time. For a
// blank source (nearly always) that was half of parsing `seq` output: 1M lines took 3.3 s, 1.6 s
// with this. The line's own empty objects are kept instead. Same result, fewer allocations.
// And a shorter scroll event (installScrollShortcut, per terminal).
// Internal API: when an xterm upgrade changes it, nothing is patched (xtermSpeedupsInstalled() and
// installScrollShortcut() say so, and test/xterm-speedups.test.ts fails).
// (xterm-internals.ts holds the shapes patched here.)
import type { Terminal } from "@xterm/headless";
import { coreOf, type RawLine } from "./xterm-internals";

type BufferLineLike = RawLine;

const isEmpty = (o: object): boolean => {
  for (const _ in o) return false;
  return true;
};

/** `from`'s entries in a fresh object, or `mine` again when both are empty. */
function entriesOf<T>(from: Record<number, T>, mine: Record<number, T>): Record<number, T> {
  if (isEmpty(from)) return isEmpty(mine) ? mine : {};
  const out: Record<number, T> = {};
  for (const k in from) out[k] = from[k]!;
  return out;
}

function copyFrom(this: BufferLineLike, line: BufferLineLike): void {
  if (this.length !== line.length) this._data = new Uint32Array(line._data);
  else this._data.set(line._data);
  this.length = line.length;
  this._combined = entriesOf(line._combined, this._combined);
  this._extendedAttrs = entriesOf(line._extendedAttrs, this._extendedAttrs);
  this.isWrapped = line.isWrapped;
}

let original: ((line: BufferLineLike) => void) | undefined;
let proto: BufferLineLike | undefined;

/** Install once, from any terminal (the class is shared). Returns whether it is installed. */
export function installXtermSpeedups(term: Terminal): boolean {
  if (proto) return true;
  const line = coreOf(term)?.buffer?.lines?.get(0);
  const p = line && (Object.getPrototypeOf(line) as BufferLineLike);
  const looksRight =
    !!p && typeof p.copyFrom === "function" && line!._data instanceof Uint32Array && typeof line!._combined === "object" && typeof line!._extendedAttrs === "object";
  if (!looksRight) return false;
  original = p!.copyFrom;
  p!.copyFrom = copyFrom;
  proto = p;
  return true;
}

export function xtermSpeedupsInstalled(): boolean {
  return proto !== undefined;
}

/** Put xterm's own copyFrom back (tests compare the two). */
export function uninstallXtermSpeedups(): void {
  if (proto && original) proto.copyFrom = original;
  proto = original = undefined;
}

/**
 * Every line a pane scrolls fires xterm's BufferService.onScroll. Its one listener, the core's,
 * makes an event object for the core's own onScroll and marks the scroll region for repainting
 * (the rows ws reads again). While nobody listens to the core's onScroll (ws never does), marking
 * the region is all a scroll needs, and this does only that: parsing `seq` output takes ~16% less.
 * Should anything else subscribe to either, xterm's own fire runs again. Per terminal (the
 * emitters are the terminal's); false when this xterm's internals are not the expected ones.
 */
export function installScrollShortcut(term: Terminal): boolean {
  const core = coreOf(term);
  const bs = core?._bufferService;
  const inner = bs?._onScroll;
  const outer = core?._onScroll;
  const markRangeDirty = core?._inputHandler?.markRangeDirty;
  if (!bs || !inner || !outer || typeof inner.fire !== "function" || typeof markRangeDirty !== "function") return false;
  // The core's listener is the only one, as xterm sets it up; `_size` counts an emitter's listeners.
  if (inner._size !== 1 || outer._size !== 0) return false;
  const ih = core._inputHandler!;
  const fire = inner.fire;
  inner.fire = (ydisp: unknown) => {
    if (inner._size !== 1 || outer._size !== 0) return fire.call(inner, ydisp);
    const b = bs.buffer;
    markRangeDirty.call(ih, b.scrollTop, b.scrollBottom);
  };
  return true;
}
