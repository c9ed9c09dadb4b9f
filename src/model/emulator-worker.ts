// The emulator worker: every pane's Emulator (xterm, modes, shell marks) runs here, off the
// daemon's main thread, which keeps the PTYs, the sockets, the keys and the frames. Output comes
// in on the worker's port; after each round of parsing, every pane that parsed publishes its
// state (cursor, modes, marks, title, the byte count parsed) and, when it is idle or at most every
// ROWS_EVERY_MS while it floods, the rows that changed. Reads the mirror can't answer come as
// synchronous requests on a port of their own (emulator-client.ts).
declare const self: Worker;
import type { CellPos } from "./cell-text";
import { setTerminalColours } from "./terminal-colours";
import { Emulator } from "./emulator";
import { RowCells, type MarkEvent, type Published, type Reply, type Request, type ToWorker } from "./emulator-protocol";
import { DirtyRows } from "./dirty-rows";
import type { FinishedCommand } from "./shell-marks";

/** How long the worker parses before it publishes and takes new messages (requests included). */
const SLICE_MS = 1;
/** A flooding pane publishes at most this often (each publish wakes the main thread)... */
const PUBLISH_EVERY_MS = 4;
/** ...and its rows at most this often. */
const ROWS_EVERY_MS = 8;
/** What is parsed at once. */
const PIECE = 4 * 1024;
/** A pane whose backlog is at most this is parsed first: a typed key's echo does not wait for a flood. */
const SMALL = 4 * 1024;
/** Titles kept between two publishes (a program retitling nonstop is told in its last ones). */
const TITLES_KEPT = 16;
/** Answer bytes kept between two publishes: a program that floods queries without reading the
 * answers loses the newest (as a PTY that is full would). */
const REPLIES_KEPT_BYTES = 64 * 1024;
/** OSC 52 payloads kept between two publishes (the last ones). */
const CLIPBOARD_KEPT = 4;
/** Finished commands whose output can still be asked for. */
const FINISHED_KEPT = 8;

class Host {
  queue: Uint8Array[] = [];
  queued = 0;
  parsed = 0;
  rowsAt = 0;
  publishedAt = 0;
  publishTimer: ReturnType<typeof setTimeout> | undefined;
  parsing: Promise<void> | null = null;
  /** Titles set since the last publish, each one (a listener hears every change), the last few. */
  titles: string[] = [];
  marks: MarkEvent[] = [];
  replies: string[] = [];
  replyBytes = 0;
  bells = 0;
  clipboard: string[] = [];
  finished = new Map<number, FinishedCommand>();
  nextFid = 1;
  readonly rows: DirtyRows;

  constructor(
    readonly id: number,
    readonly emu: Emulator,
  ) {
    this.rows = new DirtyRows(emu.term);
    emu.onTitle = (t) => {
      if (this.titles.push(t) > TITLES_KEPT) this.titles.shift();
    };
    emu.onReply = (d) => {
      if (this.replyBytes + d.length > REPLIES_KEPT_BYTES) return;
      this.replyBytes += d.length;
      this.replies.push(d);
    };
    emu.onBell = () => void this.bells++;
    emu.onClipboard = (d) => {
      if (this.clipboard.push(d) > CLIPBOARD_KEPT) this.clipboard.shift();
    };
    emu.shell.onStarted = (command) => this.marks.push({ k: "started", command });
    emu.shell.onFinished = (done) => {
      const fid = this.nextFid++;
      this.finished.set(fid, done);
      for (const k of this.finished.keys()) if (this.finished.size > FINISHED_KEPT) this.finished.delete(k);
      this.marks.push({ k: "finished", command: done.command, exitCode: done.exitCode, fid });
    };
  }
}

const hosts = new Map<number, Host>();
const ready = new Set<Host>();
let scheduled = false;
// biome-ignore lint/correctness/noUnusedVariables: read by `??=` below (one hold timer at a time); Biome sees only the writes.
let holdTimer: ReturnType<typeof setTimeout> | undefined;

function schedule(): void {
  if (scheduled) return;
  scheduled = true;
  setImmediate(run);
}

/** One piece of `h`'s backlog into its emulator; false when it has nothing more it can parse now. */
function parsePiece(h: Host): boolean {
  if (h.parsing) return false;
  let piece = h.queue[0];
  if (!piece) return false;
  if (piece.length > PIECE) {
    h.queue[0] = piece.subarray(PIECE);
    piece = piece.subarray(0, PIECE);
  } else h.queue.shift();
  h.queued -= piece.length;
  let pending: void | Promise<void> = undefined;
  try {
    pending = h.emu.parse(piece);
  } catch {
    // xterm threw on these bytes: they are lost to the screen, but the pane goes on parsing.
  }
  const n = piece.length;
  if (pending) {
    h.parsing = pending.catch(() => {}).then(() => {
      h.parsing = null;
      h.parsed += n;
      publish(h, performance.now());
      if (h.queue.length) {
        ready.add(h);
        schedule();
      }
    });
    return false;
  }
  h.parsed += n;
  return h.queue.length > 0;
}

const done = new Set<Host>();
/** Until when (epoch ms) floods wait: someone typed, and the echo must not queue behind a flood's
 * parsing, nor compete with it for the machine's cores (parse-slices.ts holds the same way). */
let hold: Float64Array | undefined;
/** 1 while the worker parses a slice: the main thread then doesn't wait on it for an echo. */
let busy: Int32Array | undefined;
const held = () => (hold ? hold[0]! - (performance.timeOrigin + performance.now()) : 0);
/** Panes whose state changed without output (a resize, a reset): published on the next round. */
const touched = new Set<Host>();

function touch(h: Host | undefined): void {
  if (!h) return;
  touched.add(h);
  schedule();
}

function run(): void {
  scheduled = false;
  if (busy) busy[0] = 1;
  try {
    slice();
  } finally {
    if (busy) busy[0] = 0;
  }
}

function slice(): void {
  // Small backlogs first (an echo, a prompt), whole, and published at once; then the floods, a
  // piece each in turn.
  for (const h of ready)
    if (h.queued <= SMALL) {
      while (parsePiece(h));
      ready.delete(h);
      publishSoon(h, performance.now());
    }
  for (const h of touched) publish(h, performance.now());
  touched.clear();
  const wait = held();
  if (wait > 0) {
    holdTimer ??= ready.size
      ? setTimeout(() => {
          holdTimer = undefined;
          schedule();
        }, wait)
      : undefined;
    return;
  }
  const end = performance.now() + SLICE_MS;
  done.clear();
  // Someone typing mid-slice ends it: the echo's message is waiting.
  while (ready.size && performance.now() < end && held() <= 0) {
    for (const h of ready) {
      done.add(h);
      if (!parsePiece(h)) ready.delete(h);
      if (performance.now() >= end) break;
    }
  }
  const now = performance.now();
  for (const h of done) publishSoon(h, now);
  done.clear();
  if (ready.size) schedule();
}

/** A pane that floods publishes every PUBLISH_EVERY_MS; one that caught up (an echo, the end of
 * a flood) at once. */
function publishSoon(h: Host, now: number): void {
  if (h.publishTimer) return;
  // (A pane that printed in the last PUBLISH_EVERY_MS is flooding in small reads: it waits too.)
  const wait = h.publishedAt + PUBLISH_EVERY_MS - now;
  if (wait <= 0) return publish(h, now);
  h.publishTimer = setTimeout(() => publish(h, performance.now()), wait);
}

function publish(h: Host, now: number): void {
  const p = published(h, now);
  if (p) self.postMessage(p.msg, p.transfer);
}

/** What `h` publishes now (and forget it was due). */
function published(h: Host, now: number): { msg: Published; transfer: ArrayBuffer[] } | undefined {
  clearTimeout(h.publishTimer);
  h.publishTimer = undefined;
  h.publishedAt = now;
  if (!hosts.has(h.id)) return;
  const emu = h.emu;
  const msg: Published = {
    t: "pub",
    id: h.id,
    parsed: h.parsed,
    state: { cols: emu.cols, rows: emu.rows, cursorX: emu.cursorX, cursorY: emu.cursorY, baseY: emu.baseY, normalCursorX: emu.normalCursorX, alt: emu.alt, modes: emu.modes, shell: emu.shell.snapshot() },
  };
  h.parsed = 0;
  const transfer: ArrayBuffer[] = [];
  // An idle pane's rows go now; a flooding one's at most every ROWS_EVERY_MS.
  if (h.queued === 0 || now - h.rowsAt >= ROWS_EVERY_MS) {
    const r = h.rows.take();
    if (r) {
      const first = Math.max(0, r[0]);
      const last = Math.min(emu.rows - 1, r[1]);
      if (last >= first) {
        const cells = new RowCells(emu.cols, first, last - first + 1);
        emu.render(cells, 0, -first, emu.cols, emu.rows, 0, [first, last]);
        msg.cells = cells;
        transfer.push(cells.width.buffer as ArrayBuffer, cells.fg.buffer as ArrayBuffer, cells.bg.buffer as ArrayBuffer, cells.attrs.buffer as ArrayBuffer, cells.ul.buffer as ArrayBuffer);
      }
    }
    h.rowsAt = now;
  }
  if (h.titles.length) {
    msg.titles = h.titles;
    h.titles = [];
  }
  if (h.marks.length) {
    msg.marks = h.marks;
    h.marks = [];
  }
  if (h.replies.length) {
    msg.replies = h.replies;
    h.replies = [];
    h.replyBytes = 0;
  }
  if (h.bells) {
    msg.bells = h.bells;
    h.bells = 0;
  }
  if (h.clipboard.length) {
    msg.clipboard = h.clipboard;
    h.clipboard = [];
  }
  return { msg, transfer };
}

function answer(req: Request): unknown {
  if (req.m === "open") {
    const o = req.a[0] as { cols: number; rows: number; scrollback: number };
    hosts.set(req.id, new Host(req.id, new Emulator(o)));
    return null;
  }
  const h = hosts.get(req.id);
  if (!h) throw new Error(`no emulator for pane ${req.id}`);
  const emu = h.emu;
  const a = req.a;
  switch (req.m) {
    case "parseNow": {
      // A little output into an idle pane, parsed while the main thread waits: its echo then
      // takes no trip through either thread's event loop (emulator-client.ts).
      const bytes = a[0] as Uint8Array;
      h.queue.push(bytes);
      h.queued += bytes.length;
      while (parsePiece(h));
      if (h.queue.length || h.parsing) {
        ready.add(h);
        schedule();
        return null;
      }
      return published(h, performance.now())?.msg ?? null;
    }
    case "resize":
      emu.resize(a[0] as number, a[1] as number);
      touch(h);
      return null;
    case "resetShell":
      emu.resetShell();
      touch(h);
      return null;
    case "cells": {
      // [scrollBack, first, last]: rows of the view scrollBack lines up into the history.
      const [scrollBack, first, last] = a as [number, number, number];
      const cells = new RowCells(emu.cols, first, last - first + 1);
      emu.render(cells, 0, -first, emu.cols, last + 1, scrollBack, [first, last]);
      return cells;
    }
    case "output": {
      const f = h.finished.get(a[0] as number);
      return f ? f.output() : { text: "", truncated: true };
    }
    case "readPane":
      return emu.readPane(a[0] as Parameters<Emulator["readPane"]>[0]);
    case "sourceRows":
      return emu.sourceRows(a[0] as Parameters<Emulator["sourceRows"]>[0], a[1] as boolean, a[2] as boolean);
    case "markCursor":
      return emu.markCursor();
    case "sourceRowsSince":
      return emu.sourceRowsSince(a[0] as Parameters<Emulator["sourceRowsSince"]>[0], a[1] as number);
    case "unmark":
      emu.unmark(a[0] as number);
      return null;
    case "captureText":
      return emu.captureText(a[0] as boolean);
    case "lines":
      return emu.lines(a[0] as number, a[1] as number);
    case "cellRows":
      return emu.cellRows(a[0] as number, a[1] as number);
    case "find":
      return emu.find(a[0] as string, a[1] as CellPos, a[2] as boolean) ?? null;
  }
  throw new Error(`unknown request ${req.m}`);
}

let replies: MessagePort | undefined;
let flag: Int32Array | undefined;

function onRequest(req: Request): void {
  let reply: Reply;
  try {
    reply = { rid: req.rid, r: answer(req) };
  } catch (e) {
    reply = { rid: req.rid, err: (e as Error).message };
  }
  replies!.postMessage(reply);
  Atomics.store(flag!, 0, req.rid);
  Atomics.notify(flag!, 0);
}

self.onmessage = (e: MessageEvent) => {
  const m = e.data as ToWorker | { t: "init"; port: MessagePort; flag: SharedArrayBuffer; hold: SharedArrayBuffer; busy: SharedArrayBuffer };
  switch (m.t) {
    case "init":
      replies = m.port;
      flag = new Int32Array(m.flag);
      hold = new Float64Array(m.hold);
      busy = new Int32Array(m.busy);
      replies.onmessage = (r: MessageEvent) => onRequest(r.data as Request);
      return;
    case "out": {
      const h = hosts.get(m.id);
      if (!h) return;
      const idle = !h.queue.length && !h.parsing;
      h.queue.push(m.bytes);
      h.queued += m.bytes.length;
      // A little output into an idle pane (an echo, a prompt) is parsed and published now: it
      // costs less than the turn it would wait for.
      if (idle && m.bytes.length <= SMALL) {
        while (parsePiece(h));
        return publishSoon(h, performance.now());
      }
      ready.add(h);
      schedule();
      return;
    }
    case "colours":
      setTerminalColours(m.colours);
      return;
    case "discard": {
      const h = hosts.get(m.id);
      if (h) (h.queue = []), (h.queued = 0), ready.delete(h);
      return;
    }
    case "close": {
      const h = hosts.get(m.id);
      if (!h) return;
      hosts.delete(m.id);
      ready.delete(h);
      touched.delete(h);
      clearTimeout(h.publishTimer);
      h.rows.dispose();
      h.emu.dispose();
      return;
    }
  }
};
