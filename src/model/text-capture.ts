// A pane's text for a save, taken from its xterm buffer. Rows above the screen never change again
// (short of a resize, a clear or a reset), so a pane's text is kept between saves and only rows
// written since the last capture are read: a pane that printed one line costs one line, not
// its whole history. A marker in xterm's buffer follows the boundary as old rows are trimmed off the top.
import type { Terminal } from "@xterm/headless";
import { rawBuffer, type RawBuffer, type RawLine, type RawLines, type RawMarker } from "./xterm-internals";
import { bufferLineGap, joinWrapped, readBufferLine } from "./wrapped-lines";
import { settleHistory, storeLineTexts } from "./history-view";

/** xterm's own line storage (xterm-internals.ts): 3 uint32 per cell, the first holding the code
 * point (bits 0-20), a "combined" flag (bit 21, text in `_combined`) and the cell's width (bits
 * 22-23). Reading it directly is ~10× faster than the public `translateToString`. The public API is
 * the fallback should the internals ever change (`terminalTextPublic`, which the tests compare
 * against). */

const codes: number[] = [];

function rowText(l: RawLine, trim: boolean, gap = false): string {
  const d = l._data;
  const end = trim ? l.getTrimmedLength() : gap ? l.length - 1 : l.length;
  codes.length = 0;
  let out = "";
  for (let x = 0; x < end; ) {
    const c = d[3 * x]!;
    const cp = c & 0x1fffff;
    if (c & 0x200000) {
      const str = l._combined[x] ?? "";
      for (let j = 0; j < str.length; j++) codes.push(str.charCodeAt(j));
    } else if (cp === 0) codes.push(32);
    else if (cp < 0x10000) codes.push(cp);
    else codes.push(0xd800 + ((cp - 0x10000) >> 10), 0xdc00 + ((cp - 0x10000) & 0x3ff));
    x += c >> 22 || 1;
    if (codes.length > 4096) {
      out += String.fromCharCode.apply(null, codes);
      codes.length = 0;
    }
  }
  return out + String.fromCharCode.apply(null, codes);
}

/** The early-wrap gap (wrapped-lines.ts) in raw cells: an empty last cell (no code point, not
 * combined) before a first cell of width 2. */
function rawGap(l: RawLine, next: RawLine): boolean {
  return (l._data[3 * (l.length - 1)]! & 0x3fffff) === 0 && next._data[0]! >>> 22 === 2;
}

/** Rows [from, to) as logical lines (wrapped rows joined), with how many rows each took. */
function readLines(lines: RawLines, from: number, to: number, texts: string[], rows: number[]): void {
  joinWrapped(lines, from, to, rowText, { texts, rows }, rawGap);
}

/** `texts` (xterm's lines) after the history store's, the first joined onto the store's newest
 * where xterm's top row continues it. */
function withHistory(term: Terminal, texts: string[]): string[] {
  return afterHistory(storeLineTexts(term), texts);
}

/** `texts` after the history lines `h` (the first joined onto the newest where `h` says so). */
function afterHistory(h: { texts: string[]; continued: boolean }, texts: string[]): string[] {
  if (!h.texts.length) return texts;
  if (h.continued && texts.length) {
    const out = h.texts;
    out[out.length - 1] += texts[0]!;
    for (let i = 1; i < texts.length; i++) out.push(texts[i]!);
    return out;
  }
  for (const t of texts) h.texts.push(t);
  return h.texts;
}

/** What captureText gives for a terminal whose normal buffer holds `lines`, after the history
 * lines `history` (a resting pane's, read without its terminal: rested-text.ts). */
export function linesText(lines: RawLines, history: { texts: string[]; continued: boolean }): string {
  const texts: string[] = [];
  readLines(lines, 0, lines.length, texts, []);
  return finish(afterHistory(history, texts));
}

function finish(texts: string[]): string {
  let n = texts.length;
  while (n && texts[n - 1] === "") n--;
  return (n === texts.length ? texts : texts.slice(0, n)).join("\n");
}

/** What is kept of one pane between captures. */
export interface TextState {
  buffer: RawBuffer;
  cols: number;
  /** Logical lines fully above `marker`, and the rows each took. */
  texts: string[];
  rows: number[];
  /** Sum of `rows`: where the marker stood when these were read. */
  total: number;
  /** The first row not cached (the start of a logical line at or above the screen's top). */
  marker: RawMarker;
  /** The last cached row's text, to notice a buffer rewritten under us (xterm's clear()). */
  check: string;
}

export function disposeText(st: TextState | undefined): void {
  st?.marker.dispose();
}

/**
 * The terminal's normal-screen history and screen as text (wrapped rows joined, trailing blank
 * lines dropped), reusing `prev` for rows already read. Returns the text and the state to keep.
 */
export function captureText(term: Terminal, prev?: TextState): { text: string; state?: TextState } {
  // (The history store's part and xterm's must not overlap while this reads xterm's rows.)
  settleHistory(term);
  const buf = rawBuffer(term);
  if (!buf) {
    disposeText(prev);
    return { text: terminalTextPublic(term) };
  }
  const lines = buf.lines;
  let texts: string[] = [];
  let rows: number[] = [];
  let from = 0;
  if (prev && prev.buffer === buf && prev.cols === term.cols && !prev.marker.isDisposed && prev.marker.line >= 0 && prev.marker.line <= buf.ybase) {
    // (Rows above ybase are history and final; a taller screen pulls history back into the
    // screen, where it can change again: then the boundary lies below ybase and nothing is kept.)
    const at = prev.marker.line;
    let trimmed = prev.total - at; // rows gone from the top since
    const startsLine = at >= lines.length || lines.get(at)?.isWrapped !== true;
    const last = at > 0 ? lines.get(at - 1) : undefined;
    const intact = prev.total === 0 || trimmed >= prev.total || (last !== undefined && rowText(last, true) === prev.check);
    if (trimmed >= 0 && startsLine && intact) {
      let i = 0;
      while (i < prev.rows.length && trimmed >= prev.rows[i]!) trimmed -= prev.rows[i++]!;
      if (trimmed > 0 && i < prev.rows.length) {
        // The oldest line lost its first rows: read what is left of it again.
        const left = prev.rows[i]! - trimmed;
        readLines(lines, 0, left, texts, rows);
        if (rows.reduce((a, b) => a + b, 0) !== left) (texts = []), (rows = []);
        else i++;
      }
      if (texts.length || trimmed === 0 || i >= prev.rows.length) {
        for (let j = i; j < prev.texts.length; j++) texts.push(prev.texts[j]!), rows.push(prev.rows[j]!);
        from = at;
      } else (texts = []), (rows = []);
    }
  }
  disposeText(prev);
  // Everything from `from` down is read now; rows above the logical line holding the screen's top
  // row are final and are kept for next time.
  let keep = Math.min(buf.ybase, lines.length);
  while (keep > from && lines.get(keep)?.isWrapped === true) keep--;
  if (keep < from) keep = from;
  readLines(lines, from, keep, texts, rows);
  const kept = { texts: texts.slice(), rows: rows.slice() };
  readLines(lines, keep, lines.length, texts, rows);
  const total = kept.rows.reduce((a, b) => a + b, 0);
  const state: TextState = {
    buffer: buf,
    cols: term.cols,
    texts: kept.texts,
    rows: kept.rows,
    total,
    marker: buf.addMarker(keep),
    check: keep > 0 ? rowText(lines.get(keep - 1)!, true) : "",
  };
  if (total !== keep) {
    // Bookkeeping disagrees with the buffer (rows we could not read): keep nothing.
    state.texts = [];
    state.rows = [];
    state.total = 0;
    state.marker.dispose();
    state.marker = buf.addMarker(0);
  }
  return { text: finish(withHistory(term, texts)), state };
}

/** The whole text in one go (no reuse). */
export function terminalText(term: Terminal): string {
  const r = captureText(term);
  disposeText(r.state);
  return r.text;
}

/** The same through xterm's public API only (slow; the fallback, and the tests' reference). */
export function terminalTextPublic(term: Terminal): string {
  const buf = term.buffer.normal;
  const texts: string[] = [];
  // (getLine past the end can hand back a recycled row: joinWrapped bounds it by `length`.)
  joinWrapped({ length: buf.length, get: (y) => buf.getLine(y) }, 0, buf.length, readBufferLine, { texts, rows: [] }, bufferLineGap);
  return finish(withHistory(term, texts));
}
