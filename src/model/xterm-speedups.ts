// A faster BufferLine.copyFrom for @xterm/headless. Every line a full-history pane scrolls reuses
// its oldest line and copies a blank line into it; xterm's copyFrom also makes two fresh objects
// for the line's combined characters and extended attributes and walks both, every time. For a
// blank source (nearly always) that was half of parsing `seq` output: 1M lines took 3.3 s, 1.6 s
// with this. The line's own empty objects are kept instead. Same result, fewer allocations.
// Internal API: when an xterm upgrade changes it, nothing is patched (xtermSpeedupsInstalled()
// says so, and test/xterm-speedups.test.ts fails).
import type { Terminal } from "@xterm/headless";

interface BufferLineLike {
  _data: Uint32Array;
  length: number;
  _combined: Record<string, unknown>;
  _extendedAttrs: Record<string, unknown>;
  isWrapped: boolean;
  copyFrom(line: BufferLineLike): void;
}

const isEmpty = (o: object): boolean => {
  for (const _ in o) return false;
  return true;
};

/** `from`'s entries in a fresh object, or `mine` again when both are empty. */
function entriesOf(from: Record<string, unknown>, mine: Record<string, unknown>): Record<string, unknown> {
  if (isEmpty(from)) return isEmpty(mine) ? mine : {};
  const out: Record<string, unknown> = {};
  for (const k in from) out[k] = from[k];
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
  const line = (term as unknown as { _core?: { buffer?: { lines?: { get(i: number): unknown } } } })._core?.buffer?.lines?.get(0) as BufferLineLike | undefined;
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
