// A terminal's whole state taken out of one @xterm/headless Terminal and put into a fresh one of the
// same size, so that a pane nobody looks at can let go of its emulator (~200–300 KB) and get it back
// exactly as it was (resting-emulator.ts). What goes: every row of both buffers (packed: trailing blank
// cells dropped, colours as runs), the cursor, the scroll region, tab stops, the saved cursor, the
// modes (DEC private and ANSI, mouse protocol and encoding), the character sets, the pen, the titles
// and the hyperlinks' data. Markers are not carried: their owners carry their rows (history-view.ts).
// Internal API (xterm-internals.ts statePartsOf): a terminal whose parts do not have the known shape
// is never taken (takeState says undefined), so an xterm upgrade costs memory, never a screen.
import type { Terminal } from "@xterm/headless";
import { statePartsOf, type RawLine, type RawLines, type StateParts, type WholeBuffer } from "./xterm-internals";

/** Words per cell in xterm's rows: content, fg, bg. */
const CELL = 3;

/** One buffer's rows: per row [cells, cells kept, runs, wrapped] then its contents, then its
 * runs (cells, fg, bg), all in one array (a row may be wider than the screen: xterm leaves the
 * alternate screen's rows as they were when it narrows); combined characters and extended attributes by row. */
interface PackedRows {
  words: Uint32Array;
  extras: Map<number, { combined: Record<number, string>; ext: Record<number, unknown> }> | undefined;
  count: number;
}

/** A buffer's fields as xterm holds them, but its rows packed, its tab stops listed and its
 * saved pen a clone. */
type PackedBuffer = Pick<WholeBuffer, "ybase" | "ydisp" | "x" | "y" | "scrollTop" | "scrollBottom" | "savedX" | "savedY" | "savedCharset"> & {
  rows: PackedRows;
  tabs: number[];
  savedCurAttrData: unknown;
};

export interface XtermState {
  cols: number;
  rows: number;
  normal: PackedBuffer;
  /** The alternate screen, while it is the one shown (left, it is always blank). */
  alt: PackedBuffer | undefined;
  decPrivateModes: Record<string, unknown>;
  modes: Record<string, unknown>;
  cursorHidden: boolean;
  cursorInitialized: boolean;
  mouseProtocol: string;
  mouseEncoding: string;
  charset: unknown;
  glevel: number;
  charsets: unknown[];
  pen: unknown;
  erasePen: unknown;
  title: string;
  iconName: string;
  titleStack: string[];
  iconNameStack: string[];
  joinState: number | undefined;
  convertEol: boolean;
  cursorBlink: boolean;
  links: { nextId: number; withId: [string, unknown, number][]; byId: [number, unknown][] };
}

/** The fill of a fresh row's cell: what trailing cells are dropped as. */
function blankCell(line: RawLine): [number, number, number] {
  const Line = line.constructor as new (cols: number) => RawLine;
  const d = new Line(1)._data;
  return [d[0]!, d[1]!, d[2]!];
}

function packRows(buf: WholeBuffer): PackedRows {
  const n = buf.lines.length;
  const first = buf.lines.get(0);
  if (!first) return { words: new Uint32Array(0), extras: undefined, count: 0 };
  const [c0, f0, b0] = blankCell(first);
  const out: number[] = [];
  let extras: PackedRows["extras"];
  for (let i = 0; i < n; i++) {
    const line = buf.lines.get(i)!;
    const d = line._data;
    let kept = line.length;
    while (kept > 0 && d[(kept - 1) * CELL] === c0 && d[(kept - 1) * CELL + 1] === f0 && d[(kept - 1) * CELL + 2] === b0) kept--;
    const head = out.length;
    out.push(line.length, kept, 0, line.isWrapped ? 1 : 0);
    for (let x = 0; x < kept; x++) out.push(d[x * CELL]!);
    let runs = 0;
    for (let x = 0; x < kept; ) {
      const fg = d[x * CELL + 1]!;
      const bg = d[x * CELL + 2]!;
      let end = x + 1;
      while (end < kept && d[end * CELL + 1] === fg && d[end * CELL + 2] === bg) end++;
      out.push(end - x, fg, bg);
      runs++;
      x = end;
    }
    out[head + 2] = runs;
    const combined = line._combined;
    const ext = line._extendedAttrs;
    let has = false;
    for (const _ in combined) has = true;
    for (const _ in ext) has = true;
    if (has) (extras ??= new Map()).set(i, { combined: { ...combined }, ext: { ...ext } });
  }
  return { words: Uint32Array.from(out), extras, count: n };
}

/** A packed row's header, read at word `at` (packRows writes it): its width, the cells kept, the
 * style runs, whether it wraps on, where its cells' content words start, and where the next row does. */
function rowAt(w: Uint32Array, at: number): { length: number; kept: number; runs: number; wrapped: boolean; cells: number; next: number } {
  const kept = w[at + 1]!;
  const runs = w[at + 2]!;
  return { length: w[at]!, kept, runs, wrapped: w[at + 3] === 1, cells: at + 4, next: at + 4 + kept + 3 * runs };
}

function unpackRows(buf: WholeBuffer, p: PackedRows): void {
  const Line = buf.lines.get(0)!.constructor as new (cols: number, fill?: unknown, isWrapped?: boolean) => RawLine;
  buf.lines.length = 0;
  const w = p.words;
  let at = 0;
  for (let i = 0; i < p.count; i++) {
    const { length, kept, runs, wrapped, cells, next } = rowAt(w, at);
    const line = new Line(length, undefined, wrapped);
    const d = line._data;
    for (let x = 0; x < kept; x++) d[x * CELL] = w[cells + x]!;
    at = cells + kept;
    let x = 0;
    for (let r = 0; r < runs; r++, at += 3) {
      const end = x + w[at]!;
      for (; x < end; x++) {
        d[x * CELL + 1] = w[at + 1]!;
        d[x * CELL + 2] = w[at + 2]!;
      }
    }
    const e = p.extras?.get(i);
    if (e) {
      line._combined = e.combined;
      line._extendedAttrs = e.ext as RawLine["_extendedAttrs"];
    }
    buf.lines.push(line);
    at = next;
  }
}

/** A fresh row's cell content (no code point, width 1): what xterm fills a row past its end with. */
const BLANK_CONTENT = 1 << 22;

/** The normal buffer's rows of a state taken, read-only, without a terminal: their content words
 * (3 a cell, colours left 0), combined characters, width and wrap, made one at a time as they are
 * read (a resting pane's text, rested-text.ts). Only what reading text uses works. */
export function normalRowsOf(state: XtermState): RawLines {
  const p = state.normal.rows;
  const w = p.words;
  const starts = new Uint32Array(p.count);
  for (let i = 0, at = 0; i < p.count; i++) {
    starts[i] = at;
    at = rowAt(w, at).next;
  }
  const get = (i: number): RawLine | undefined => {
    if (i < 0 || i >= p.count) return undefined;
    const { length, kept, wrapped, cells } = rowAt(w, starts[i]!);
    const data = new Uint32Array(CELL * length);
    for (let x = 0; x < length; x++) data[x * CELL] = x < kept ? w[cells + x]! : BLANK_CONTENT;
    const trimmed = () => {
      for (let x = length - 1; x >= 0; x--) if (data[x * CELL]! & 0x3fffff) return x + (data[x * CELL]! >> 22);
      return 0;
    };
    const line = { _data: data, _combined: p.extras?.get(i)?.combined ?? {}, _extendedAttrs: {}, length, isWrapped: wrapped, getTrimmedLength: trimmed };
    return line as unknown as RawLine;
  };
  return { length: p.count, get };
}

function packBuffer(b: WholeBuffer): PackedBuffer {
  const rows = packRows(b);
  const tabs: number[] = [];
  for (const k in b.tabs) if (b.tabs[k]) tabs.push(Number(k));
  return {
    rows,
    ybase: b.ybase,
    ydisp: b.ydisp,
    x: b.x,
    y: b.y,
    scrollTop: b.scrollTop,
    scrollBottom: b.scrollBottom,
    tabs,
    savedX: b.savedX,
    savedY: b.savedY,
    savedCurAttrData: b.savedCurAttrData.clone(),
    savedCharset: b.savedCharset,
  };
}

function unpackBuffer(b: WholeBuffer, p: PackedBuffer): void {
  unpackRows(b, p.rows);
  b.ybase = p.ybase;
  b.ydisp = p.ydisp;
  b.x = p.x;
  b.y = p.y;
  b.scrollTop = p.scrollTop;
  b.scrollBottom = p.scrollBottom;
  b.tabs = {};
  for (const t of p.tabs) b.tabs[t] = true;
  b.savedX = p.savedX;
  b.savedY = p.savedY;
  b.savedCurAttrData = p.savedCurAttrData as WholeBuffer["savedCurAttrData"];
  b.savedCharset = p.savedCharset;
}

/** Whether the parser sits between sequences, with nothing queued or half-read (only then is its
 * state all in what takeState keeps). */
function atRest(s: StateParts): boolean {
  return s.input._parser.currentState === 0 && s.input._utf8Decoder.interim.every((b) => b === 0) && !s.input._parseStack.paused && s.writeBuffer._writeBuffer.length === 0;
}

/** `term`'s state, or undefined when it cannot be taken now (mid-sequence, or an unknown xterm). */
export function takeState(term: Terminal): XtermState | undefined {
  const s = statePartsOf(term);
  if (!s || !atRest(s)) return undefined;
  const cols = term.cols;
  const altShown = s.buffers.active === s.buffers.alt;
  const normal = packBuffer(s.buffers.normal);
  const alt = altShown ? packBuffer(s.buffers.alt) : undefined;
  const input = s.input;
  return {
    cols,
    rows: term.rows,
    normal,
    alt,
    decPrivateModes: { ...s.coreService.decPrivateModes },
    modes: { ...s.coreService.modes },
    cursorHidden: s.coreService.isCursorHidden,
    cursorInitialized: s.coreService.isCursorInitialized,
    mouseProtocol: s.coreMouseService.activeProtocol,
    mouseEncoding: s.coreMouseService.activeEncoding,
    charset: s.charset.charset,
    glevel: s.charset.glevel,
    charsets: [...s.charset._charsets],
    pen: input._curAttrData.clone(),
    erasePen: input._eraseAttrDataInternal.clone(),
    title: input._windowTitle,
    iconName: input._iconName,
    titleStack: [...input._windowTitleStack],
    iconNameStack: [...input._iconNameStack],
    joinState: input._parser.precedingJoinState,
    convertEol: term.options.convertEol ?? false,
    cursorBlink: term.options.cursorBlink ?? false,
    links: {
      nextId: s.links._nextId,
      withId: [...s.links._entriesWithId].map(([k, e]) => [k, e.data, e.id]),
      byId: [...s.links._dataByLinkId].map(([id, e]) => [id, e.data]),
    },
  };
}

/** Put `state` into `term`, a fresh terminal of the same size and options. */
export function putState(term: Terminal, state: XtermState): boolean {
  const s = statePartsOf(term);
  if (!s || term.cols !== state.cols || term.rows !== state.rows) return false;
  unpackBuffer(s.buffers.normal, state.normal);
  if (state.alt) {
    s.buffers.activateAltBuffer();
    unpackBuffer(s.buffers.alt, state.alt);
  }
  Object.assign(s.coreService.decPrivateModes, state.decPrivateModes);
  Object.assign(s.coreService.modes, state.modes);
  s.coreService.isCursorHidden = state.cursorHidden;
  s.coreService.isCursorInitialized = state.cursorInitialized;
  s.coreMouseService.activeProtocol = state.mouseProtocol;
  s.coreMouseService.activeEncoding = state.mouseEncoding;
  s.charset.charset = state.charset;
  s.charset.glevel = state.glevel;
  s.charset._charsets = [...state.charsets];
  const input = s.input;
  input._curAttrData = state.pen as typeof input._curAttrData;
  input._eraseAttrDataInternal = state.erasePen as typeof input._eraseAttrDataInternal;
  input._windowTitle = state.title;
  input._iconName = state.iconName;
  input._windowTitleStack = [...state.titleStack];
  input._iconNameStack = [...state.iconNameStack];
  if (state.joinState !== undefined) input._parser.precedingJoinState = state.joinState;
  if (term.options.convertEol !== state.convertEol) term.options.convertEol = state.convertEol;
  if (term.options.cursorBlink !== state.cursorBlink) term.options.cursorBlink = state.cursorBlink;
  const links = s.links;
  links._nextId = state.links.nextId;
  for (const [id, data] of state.links.byId) links._dataByLinkId.set(id, { data, id, lines: [] });
  for (const [key, data, id] of state.links.withId) {
    const e = links._dataByLinkId.get(id) ?? { data, id, lines: [] };
    links._entriesWithId.set(key, e);
  }
  return true;
}
