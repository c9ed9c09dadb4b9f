// A pane's emulator that runs in the emulator worker (emulator-worker.ts): output is handed
// over (the buffer transferred, not copied), and what the worker publishes after parsing is kept
// here as a mirror: size, cursor, modes, shell marks and the screen's cells, so a frame reads no
// further than this object. Everything else (history, text, copy mode's rows) is asked for
// synchronously: the request goes on a port of its own, the main thread waits on a shared flag
// (Atomics.wait) and takes the reply off the port; ~0.1–0.3 ms, at most one worker slice more
// while panes flood.
import type { CellMatch, CellPos, CellRow } from "./cell-text";
import { receiveMessageOnPort } from "node:worker_threads";
import { CellArrays, type CellSink } from "./cells";
import { onInputHold } from "./parse-slices";
import { onTerminalColours, terminalColours } from "./terminal-colours";
import { drawCells, type Published, type Reply, type RowCells, type ScreenState, type ToWorker } from "./emulator-protocol";
import type { ScreenModes } from "./emulator-modes";
import type { EmulatorOptions } from "./emulator";
import type { ReadOptions, ReadResult, Source } from "./text-sources";
import type { RowTracker, PaneEmulator } from "./pane-emulator";
import { RowRange } from "./dirty-rows";
import { readinessOf, type FinishedCommand, type ShellSnapshot, type ShellView } from "./shell-marks";
import { log } from "../log";

/** A synchronous read that gets no answer in this long fails (the worker is stuck or gone). */
const REQUEST_TIMEOUT_MS = 10_000;
/** Output up to this size into an idle pane is parsed synchronously (see send). */
const SMALL_NOW = 2048;
/** ...when the pane printed nothing for this long. */
const QUIET_MS = 5;

/** The one emulator worker and its request channel, started with the first pane that needs it. */
class EmulatorWorker {
  private readonly worker: Worker;
  private readonly requests: MessagePort;
  private readonly flag = new Int32Array(new SharedArrayBuffer(4));
  /** Until when (epoch ms) the worker parses only small backlogs: someone typed (parse-slices.ts). */
  private readonly hold = new Float64Array(new SharedArrayBuffer(8));
  /** 1 while the worker parses a slice. */
  readonly busy = new Int32Array(new SharedArrayBuffer(4));
  private nextRid = 0;
  private dead = false;
  readonly emulators = new Map<number, WorkerEmulator>();
  private nextId = 1;

  constructor() {
    const compiled = import.meta.url.includes("$bunfs");
    this.worker = new Worker(compiled ? "/$bunfs/root/model/emulator-worker.ts" : new URL("./emulator-worker.ts", import.meta.url).href);
    const channel = new MessageChannel();
    this.requests = channel.port1;
    this.worker.postMessage({ t: "init", port: channel.port2, flag: this.flag.buffer, hold: this.hold.buffer, busy: this.busy.buffer }, [channel.port2]);
    onInputHold((until) => (this.hold[0] = until));
    // Panes in the worker answer colour queries with what the main thread has, as it changes.
    this.worker.postMessage({ t: "colours", colours: terminalColours() } satisfies ToWorker);
    onTerminalColours((colours) => this.worker.postMessage({ t: "colours", colours } satisfies ToWorker));
    this.worker.onmessage = (e: MessageEvent) => {
      const m = e.data as Published;
      this.emulators.get(m.id)?.apply(m);
    };
    this.worker.onerror = (e) => {
      // Its panes show their last screen; nothing waits on a worker that is gone.
      log.error(`emulator worker: ${e.message}`);
      this.dead = true;
    };
    (this.worker as unknown as { unref(): void }).unref(); // the daemon decides when it exits
  }

  open(emulator: WorkerEmulator, o: EmulatorOptions): number {
    const id = this.nextId++;
    this.emulators.set(id, emulator);
    // Synchronous, as every request after it may be (the ports are not ordered with each other).
    this.request(id, "open", [o]);
    return id;
  }

  post(m: ToWorker, transfer?: Transferable[]): void {
    this.worker.postMessage(m, transfer ?? []);
  }

  request(id: number, m: string, a: unknown[]): unknown {
    if (this.dead) throw new Error("the emulator worker is gone");
    const rid = (this.nextRid = (this.nextRid % 0x3fffffff) + 1); // never 0: the flag's "no answer"
    Atomics.store(this.flag, 0, 0);
    this.requests.postMessage({ rid, id, m, a });
    const deadline = performance.now() + REQUEST_TIMEOUT_MS;
    for (;;) {
      const got = receiveMessageOnPort(this.requests as unknown as Parameters<typeof receiveMessageOnPort>[0]);
      if (got) {
        const reply = got.message as Reply;
        if (reply.rid !== rid) continue; // an answer to a request that timed out
        if ("err" in reply) throw new Error(reply.err);
        return reply.r;
      }
      const left = deadline - performance.now();
      if (left <= 0) throw new Error(`the emulator worker did not answer ${m} in ${REQUEST_TIMEOUT_MS} ms`);
      if (Atomics.load(this.flag, 0) !== rid) Atomics.wait(this.flag, 0, Atomics.load(this.flag, 0), Math.min(left, 50));
    }
  }
}

let shared: EmulatorWorker | undefined;

/** The marks' state as last published; promptReadiness with the mirrored cursor. */
class ShellMirror implements ShellView {
  snap: ShellSnapshot = { seen: false, state: "unknown", prompts: 0, command: undefined, sendsInputStart: false, promptShownAt: 0, inputAt: null };
  onStarted: (command: string | undefined) => void = () => {};
  onFinished: (done: FinishedCommand) => void = () => {};
  constructor(private readonly emulator: WorkerEmulator) {}
  get seen() {
    return this.snap.seen;
  }
  get state() {
    return this.snap.state;
  }
  get prompts() {
    return this.snap.prompts;
  }
  get command() {
    return this.snap.command;
  }
  promptReadiness(expectB: boolean): "ready" | "typed" | "wait" | "busy" {
    const s = this.emulator;
    return readinessOf(this.snap, s.baseY + s.cursorY, s.cursorX, expectB);
  }
}

/** Changed rows for one reader, from what the worker publishes. */
class MirrorRows extends RowRange implements RowTracker {
  constructor(private readonly owner: Set<MirrorRows>) {
    super();
    owner.add(this);
  }
  output(): void {}
  dispose(): void {
    this.owner.delete(this);
  }
}

export class WorkerEmulator implements PaneEmulator {
  private readonly worker: EmulatorWorker;
  private readonly id: number;
  private state: ScreenState;
  /** The screen's cells as last published. */
  private cells: ReturnType<typeof blankCells>;
  private readonly trackers = new Set<MirrorRows>();
  readonly shell = new ShellMirror(this);
  onTitle: (title: string) => void = () => {};
  onParsed: (bytes: number) => void = () => {};
  onReply: (data: string) => void = () => {};
  onBell: () => void = () => {};
  onClipboard: (data: string) => void = () => {};
  private disposed = false;

  constructor(o: EmulatorOptions) {
    this.worker = shared ??= new EmulatorWorker();
    const modes: ScreenModes = { applicationCursorKeys: false, applicationKeypad: false, bracketedPaste: false, mouseTracking: "none", mouseEncoding: "default", sendFocus: false, kittyFlags: 0, modifyOtherKeys: 0, cursorHidden: false, cursorShape: 0 };
    this.state = { cols: o.cols, rows: o.rows, cursorX: 0, cursorY: 0, baseY: 0, normalCursorX: 0, alt: false, modes, shell: this.shell.snap };
    this.cells = blankCells(o.cols, o.rows);
    this.id = this.worker.open(this, o);
  }

  get cols() {
    return this.state.cols;
  }
  get rows() {
    return this.state.rows;
  }
  get cursorX() {
    return this.state.cursorX;
  }
  get cursorY() {
    return this.state.cursorY;
  }
  get baseY() {
    return this.state.baseY;
  }
  get normalCursorX() {
    return this.state.normalCursorX;
  }
  get alt() {
    return this.state.alt;
  }
  get modes() {
    return this.state.modes;
  }

  /** What the worker published for this pane. */
  apply(m: Published): void {
    if (this.disposed) return;
    const st = m.state;
    if (st.cols !== this.cells.cols || st.rows !== this.cells.count) this.cells = blankCells(st.cols, st.rows);
    this.state = st;
    this.shell.snap = st.shell;
    const c = m.cells;
    if (c && c.cols === this.cells.cols) {
      const at = c.first * c.cols;
      const n = Math.min(c.count * c.cols, this.cells.chars.length - at);
      this.cells.copyCells(c, 0, at, n);
      const links = this.cells.links;
      if (links.size) for (let i = at; i < at + n; i++) links.delete(i);
      for (const k in c.links) links.set(at + Number(k), c.links[k]!);
      for (const t of this.trackers) t.mark(c.first, c.first + c.count - 1);
    }
    for (const t of m.titles ?? []) this.onTitle(t);
    for (const r of m.replies ?? []) this.onReply(r);
    if (m.bells) this.onBell();
    for (const c of m.clipboard ?? []) this.onClipboard(c);
    for (const e of m.marks ?? []) {
      if (e.k === "started") this.shell.onStarted(e.command);
      else {
        const fid = e.fid;
        this.shell.onFinished({ command: e.command, exitCode: e.exitCode, output: () => this.ask("output", fid) as { text: string; truncated: boolean } });
      }
    }
    if (m.parsed) {
      this.inFlight -= m.parsed;
      this.onParsed(m.parsed);
    }
  }

  /** Bytes sent and not reported parsed yet. */
  private inFlight = 0;
  private sentAt = 0;

  send(bytes: Uint8Array): void {
    if (this.disposed) return;
    // A little output into an idle pane (an echo, a prompt) while the worker is between slices:
    // parse it now, waiting for the answer (~0.1 ms), instead of a trip through both event loops.
    // (Not for a pane that printed a moment ago: a flood read in small pieces would wait each time.)
    const now = performance.now();
    const quiet = now - this.sentAt > QUIET_MS;
    this.sentAt = now;
    if (quiet && this.inFlight === 0 && bytes.length <= SMALL_NOW && Atomics.load(this.worker.busy, 0) === 0) {
      this.inFlight += bytes.length;
      const p = this.ask("parseNow", bytes) as Published | null;
      if (p) this.apply(p);
      return;
    }
    this.inFlight += bytes.length;
    // A read's own buffer is handed over; a piece of a bigger one (a pooled Buffer) is copied.
    const own = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength && bytes.buffer instanceof ArrayBuffer;
    const b = own ? bytes : bytes.slice();
    this.worker.post({ t: "out", id: this.id, bytes: b }, [b.buffer as ArrayBuffer]);
  }

  flushed(): Promise<void> {
    return Promise.resolve(); // the pane counts what the worker says it parsed
  }

  resize(cols: number, rows: number): void {
    this.ask("resize", cols, rows);
  }

  resetShell(): void {
    this.ask("resetShell");
  }

  discard(): void {
    this.worker.post({ t: "discard", id: this.id });
  }

  trackRows(): RowTracker {
    return new MirrorRows(this.trackers);
  }

  render(sink: CellSink, x0: number, y0: number, w: number, h: number, scrollBack = 0, rows?: [number, number]): void {
    const first = Math.max(0, rows ? rows[0] : 0);
    const last = Math.min(h - 1, rows ? rows[1] : Infinity);
    if (last < first) return;
    if (scrollBack <= 0) return drawCells(this.cells, sink, x0, y0, w, first, last);
    drawCells(this.ask("cells", scrollBack, first, last) as RowCells, sink, x0, y0, w, first, last);
  }

  readPane(o: ReadOptions): ReadResult {
    return this.ask("readPane", o) as ReadResult;
  }
  sourceRows(source: Source, styled = false, screenOnly = false): { text: string; row: number }[] {
    return this.ask("sourceRows", source, styled, screenOnly) as { text: string; row: number }[];
  }
  markCursor(): number {
    return this.ask("markCursor") as number;
  }
  sourceRowsSince(source: Source, mark: number): { text: string; row: number }[] {
    return this.ask("sourceRowsSince", source, mark) as { text: string; row: number }[];
  }
  unmark(mark: number): void {
    if (!this.disposed) this.ask("unmark", mark);
  }
  captureText(reuse: boolean): string {
    return this.ask("captureText", reuse) as string;
  }
  lines(from: number, to: number): string[] {
    return this.ask("lines", from, to) as string[];
  }
  cellRows(from: number, to: number): CellRow[] {
    return this.ask("cellRows", from, to) as CellRow[];
  }
  find(query: string, from: CellPos, forward: boolean): CellMatch | undefined {
    return (this.ask("find", query, from, forward) as CellMatch | null) ?? undefined;
  }

  private ask(m: string, ...a: unknown[]): unknown {
    if (this.disposed) throw new Error("the pane's emulator is gone");
    return this.worker.request(this.id, m, a);
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.worker.emulators.delete(this.id);
    this.worker.post({ t: "close", id: this.id });
  }
}

function blankCells(cols: number, rows: number) {
  return Object.assign(new CellArrays(cols * rows), { cols, first: 0, count: rows, links: new Map<number, string>() });
}
