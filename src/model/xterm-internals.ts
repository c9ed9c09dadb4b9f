// Every reach ws makes into @xterm/headless's private internals, in one module: the shapes of the
// private parts it reads and patches (the core's input handler, write buffer, charset and link
// services, buffers, row lists and scroll emitters, the cursor, print and SGR steps; a BufferLine's cell words; a cell's extended attributes)
// and the one cast to each. The modules that use them (dirty-rows, emulator-input,
// emulator-queries, render-cells, text-capture, history-store, xterm-speedups) name these types,
// so an xterm upgrade that changes a shape is this file's work and test/xterm-internals.test.ts,
// one test per reach, says which changed. Each user checks at run time and falls back to the
// public API (or does without) when a part is missing.
import type { IBufferCell, IBufferLine, Terminal } from "@xterm/headless";

/** xterm's BufferLine (common/buffer/BufferLine.ts): three 32-bit words per cell (content =
 * code point | combined flag | width << 22, fg, bg with the "has extended attributes" flag), the
 * combined characters' text and the extended attributes by cell. */
export interface RawLine {
  _data: Uint32Array;
  _combined: Record<number, string>;
  _extendedAttrs: Record<number, ExtendedAttrs | undefined>;
  /** Cells in the row (its _data may hold more). */
  length: number;
  isWrapped: boolean;
  getTrimmedLength(): number;
  setCell(x: number, cell: unknown): void;
  copyFrom(line: RawLine): void;
}

/** xterm's ExtendedAttrs: the underline's style and colour, the hyperlink's id. */
export interface ExtendedAttrs {
  _ext: number;
  _urlId: number;
}

/** xterm's CellData, as a row is written with it. */
export interface RawCell {
  content: number;
  fg: number;
  bg: number;
  combinedData: string;
  extended: ExtendedAttrs;
}

export interface RawLines {
  length: number;
  get(i: number): RawLine | undefined;
}

export interface RawMarker {
  line: number;
  isDisposed: boolean;
  dispose(): void;
}

/** xterm's Buffer: its lines, the first row on screen, and markers that follow a row. */
export interface RawBuffer {
  lines: RawLines;
  ybase: number;
  addMarker(y: number): RawMarker;
}

/** xterm's EventEmitter: `_size` counts its listeners. */
export interface Emitter {
  _size?: unknown;
  fire(value: unknown): void;
}

/** xterm's CircularList of rows: trimStart leaves the dropped rows in their `_array` slots
 * (history-capture.ts lets go of them). */
export interface RawList extends RawLines {
  maxLength: number;
  trimStart(count: number): void;
  _array?: unknown[];
  _startIndex?: number;
}

/** The normal buffer as history-capture.ts moves rows out of it. */
export interface NormalBuffer {
  lines: RawList;
  ybase: number;
  ydisp: number;
}

type RangeEvent = (listener: (e: { start: number; end: number } | undefined) => void) => { dispose(): void };
type Csi = { params: number[]; length: number };

/** The parts of xterm's core ws reads, each optional: an upgrade may drop any. */
export interface XtermCore {
  _inputHandler?: {
    /** Rows the parser changed (dirty-rows.ts). */
    onRequestRefreshRows?: RangeEvent;
    onRequestReset?: RangeEvent;
    /** The parse step xterm's write timer calls (emulator-input.ts). */
    parse?: (data: Uint8Array, promiseResult?: boolean) => void | boolean | Promise<boolean>;
    /** DECCOLM's clearing (emulator-queries.ts). */
    setScrollRegion?: (p: Csi) => boolean;
    eraseInDisplay?: (p: Csi) => boolean;
    selectCharset?: (s: string) => boolean;
    /** What a scroll marks for repainting (xterm-speedups.ts). */
    markRangeDirty?: (start: number, end: number) => void;
    /** Printing a run of characters, and the state it reads (emulator-unicode.ts). */
    print?: (data: Uint32Array, start: number, end: number) => void;
    _parser?: { precedingJoinState?: number };
    _activeBuffer?: { x?: number };
    /** SGR, and the pen it sets (emulator-sgr.ts). */
    charAttributes?: (p: { toArray(): (number | number[])[] }) => boolean;
    _curAttrData?: { fg: number };
  };
  /** Parses at once, without its timer, after user input (emulator-input.ts). */
  _writeBuffer?: { _didUserInput?: boolean };
  /** The shared character set tables (emulator-queries.ts). */
  _charsetService?: { _charsets?: unknown[]; setgCharset?: (g: number, c: unknown) => void };
  /** Hyperlinks by id (render-cells.ts). */
  _oscLinkService?: { getLinkData?: (id: number) => { id?: string; uri: string } | undefined };
  /** The active buffer: its rows, and the cursor as it keeps it, y from the screen's top row
   * (cursor-reflow.ts). */
  buffer?: { lines?: RawLines; x?: number; y?: number; ybase?: number };
  buffers?: { normal?: Partial<RawBuffer> & Partial<Omit<NormalBuffer, "lines">>; alt?: Partial<RawBuffer> };
  /** A scroll's events (xterm-speedups.ts). */
  _bufferService?: { _onScroll?: Emitter; buffer: { scrollTop: number; scrollBottom: number } };
  _onScroll?: Emitter;
}

/** The terminal's core, undefined when this xterm has none by that name. */
export function coreOf(term: Terminal): XtermCore | undefined {
  return (term as unknown as { _core?: XtermCore })._core;
}

/** The normal buffer's private side, when its shape is the one known (lines of raw rows, markers). */
export function rawBuffer(term: Terminal): RawBuffer | undefined {
  const b = coreOf(term)?.buffers?.normal;
  const lines = b?.lines;
  const probe = lines?.length ? lines.get(0) : undefined;
  if (!b || !probe || !(probe._data instanceof Uint32Array) || typeof probe.length !== "number" || typeof probe.getTrimmedLength !== "function" || typeof probe._combined !== "object") return undefined;
  if (typeof b.addMarker !== "function" || typeof b.ybase !== "number") return undefined;
  return b as RawBuffer;
}

/** The normal buffer's row list and scroll state, when they look as expected (history-capture.ts). */
export function normalBuffer(term: Terminal): NormalBuffer | undefined {
  const b = coreOf(term)?.buffers?.normal;
  const l = b?.lines as Partial<RawList> | undefined;
  const ok = l && typeof l.get === "function" && typeof l.trimStart === "function" && typeof b?.ybase === "number" && typeof b.ydisp === "number";
  return ok ? (b as NormalBuffer) : undefined;
}

/** The raw row behind a public row (IBufferLine wraps it as `_line`), or a raw row itself. */
export function rawLineOf(line: IBufferLine | RawLine): RawLine | undefined {
  const l = line as unknown as { _line?: RawLine } & Partial<RawLine>;
  const raw = l._data instanceof Uint32Array ? (l as RawLine) : l._line;
  return raw && raw._data instanceof Uint32Array ? raw : undefined;
}

/** The parts of xterm's cell (CellData) the public API leaves out: the underline's style and
 * colour and the hyperlink live in its extended attributes. */
export interface CellInternals {
  fg: number;
  bg: number;
  extended?: Partial<ExtendedAttrs>;
}

export function cellInternals(cell: IBufferCell): CellInternals {
  return cell as unknown as CellInternals;
}

/** A cell to write rows with: the buffer's null cell (history-store.ts makes rows from it). */
export function rawCell(cell: IBufferCell): RawCell {
  return cell as unknown as RawCell;
}

/** xterm's Buffer as a whole (common/buffer/Buffer.ts): what a pane's emulator carries over when it
 * is put away and made again (xterm-state.ts). */
export interface WholeBuffer {
  lines: RawList & { push(line: RawLine): void; length: number };
  ybase: number;
  ydisp: number;
  x: number;
  y: number;
  scrollTop: number;
  scrollBottom: number;
  tabs: Record<number, boolean | undefined>;
  savedX: number;
  savedY: number;
  savedCurAttrData: { clone(): unknown };
  savedCharset: unknown;
  markers: RawMarker[];
  addMarker(y: number): RawMarker;
}

/** The rest of a terminal's state a program can change (modes, pens, charsets, titles, links). */
export interface StateParts {
  buffers: { normal: WholeBuffer; alt: WholeBuffer; active: WholeBuffer; activateAltBuffer(fill?: unknown): void };
  coreService: { decPrivateModes: Record<string, unknown>; modes: Record<string, unknown>; isCursorHidden: boolean; isCursorInitialized: boolean };
  coreMouseService: { activeProtocol: string; activeEncoding: string };
  charset: { charset: unknown; glevel: number; _charsets: unknown[] };
  input: {
    _curAttrData: { clone(): unknown };
    _eraseAttrDataInternal: { clone(): unknown };
    _windowTitle: string;
    _iconName: string;
    _windowTitleStack: string[];
    _iconNameStack: string[];
    _parser: { currentState: number; precedingJoinState?: number };
    _utf8Decoder: { interim: Uint8Array };
    _parseStack: { paused: boolean };
  };
  links: { _nextId: number; _entriesWithId: Map<string, { data: unknown; id: number; lines: unknown[] }>; _dataByLinkId: Map<number, { data: unknown; id: number; lines: unknown[] }> };
  writeBuffer: { _writeBuffer: unknown[]; _pendingData: number };
}

/** `o`'s value at a path of keys, or undefined where one is missing. */
function at(o: unknown, ...path: string[]): unknown {
  let v = o;
  for (const k of path) v = v !== null && typeof v === "object" ? (v as Record<string, unknown>)[k] : undefined;
  return v;
}

/** Those parts, when every one has the shape known (else undefined: the emulator is never put away). */
export function statePartsOf(term: Terminal): StateParts | undefined {
  const c = coreOf(term);
  if (!c) return undefined;
  const parts = {
    buffers: at(c, "buffers"),
    coreService: at(c, "coreService") ?? at(c, "_coreService"),
    coreMouseService: at(c, "coreMouseService") ?? at(c, "_coreMouseService"),
    charset: at(c, "_charsetService"),
    input: at(c, "_inputHandler"),
    links: at(c, "_oscLinkService"),
    writeBuffer: at(c, "_writeBuffer"),
  };
  const is = (v: unknown, type: string) => typeof v === type;
  const ok =
    is(at(parts.buffers, "activateAltBuffer"), "function") && is(at(parts.buffers, "normal", "addMarker"), "function") && is(at(parts.buffers, "normal", "tabs"), "object") &&
    is(at(parts.buffers, "normal", "lines", "push"), "function") && is(at(parts.coreService, "decPrivateModes"), "object") && is(at(parts.coreService, "modes"), "object") &&
    is(at(parts.coreMouseService, "activeProtocol"), "string") && Array.isArray(at(parts.charset, "_charsets")) &&
    is(at(parts.input, "_curAttrData", "clone"), "function") && is(at(parts.input, "_windowTitle"), "string") && is(at(parts.input, "_parser", "currentState"), "number") &&
    at(parts.input, "_utf8Decoder", "interim") instanceof Uint8Array && is(at(parts.input, "_parseStack"), "object") &&
    at(parts.links, "_dataByLinkId") instanceof Map && at(parts.links, "_entriesWithId") instanceof Map && Array.isArray(at(parts.writeBuffer, "_writeBuffer"));
  return ok ? (parts as unknown as StateParts) : undefined;
}
