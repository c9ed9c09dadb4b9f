// The one attached terminal client: frames in and out over its connection,
// the screen it has (for diffing), and the 5-second slow-client rule.
//
// What the client sends is untrusted (docs/attach.md "Input checks"): a frame that breaks the
// framing closes the connection; an EVENT that is not a valid crossterm event is dropped with a
// warning (the framing is intact, so the next event is fine); any fault while handling the
// client's bytes closes this connection with a logged error and touches nothing else.

import type { Connection } from "../protocol/connection";
import { FrameDecoder, FRAME_DIRECT, FRAME_EVENT, FRAME_KEYS, FRAME_TERMINAL, MAX_TERMINAL_REPORT, encodeFrame, encodeOutput, encodeExit, frameText, type ExitNotice } from "../protocol/frames";
import { ESC_TIMEOUT_MS, InputParser } from "../protocol/input-parser";
import { KEYS_QUERY, KeyProbe, keysOn, probeMs, type KeyProtocol, type TerminalReply } from "../protocol/key-protocol";
import { TERMINAL_QUERY, TerminalAsk, asksTerminal, checkTerminalReport, type TerminalReport } from "../protocol/terminal-report";
import { openClientTty, type ClientTty } from "./client-tty";
import { checkTermEvent, type TermEvent } from "../protocol/events";
import { logValue } from "../safe-text";
import { ScreenDiff } from "./diff";
import { SLOW_CLIENT_MS } from "../model/limits";
import { hop } from "../platform/hop-trace";

export interface ClientLog {
  warn(message: string): void;
  error(message: string): void;
}

/** Dropped events logged one by one per connection; the rest are counted and logged at the end. */
export const LOGGED_BAD_EVENTS = 3;


export class AttachedClient {
  readonly diff = new ScreenDiff();
  private decoder = new FrameDecoder();
  private watchdog: ReturnType<typeof setTimeout> | undefined;
  closed = false;
  /** EVENTs dropped as invalid on this connection. */
  private badEvents = 0;
  /** The client's terminal, when the server drives it (driveTerminal). */
  private tty: ClientTty | undefined;
  /** Where frames queue: the connection, or the terminal the server drives. */
  private sink: { readonly queuedBytes: number; readonly blockedSince: number | undefined; drained(): Promise<void> };
  private keys: InputParser | undefined;
  private escTimer: ReturnType<typeof setTimeout> | undefined;
  /** Asking the terminal which keyboard protocol it has (driveTerminal with `askKeys`). */
  private keyProbe: KeyProbe | undefined;
  /** The keyboard protocol turned on in the terminal, once known. */
  keyProtocol: KeyProtocol | undefined;
  /** Asking the terminal its colours and version (driveTerminal). */
  private terminalAsk: TerminalAsk | undefined;
  /** What the terminal said about itself: asked here (driveTerminal) or told by the client (a
   * TERMINAL frame). Called at most once. */
  onTerminal: (r: TerminalReport) => void = () => {};
  /** Printable ASCII typed into a terminal the server drives, while no sequence is half read: true
   * when it was taken as it is (typed into a pane), false to parse it into key events as any input. */
  onText: (bytes: Uint8Array) => boolean = () => false;
  private told = false;

  constructor(
    readonly conn: Connection,
    private onEvent: (ev: TermEvent) => void,
    private onGone: (c: AttachedClient) => void,
    private log: ClientLog = console,
  ) {
    this.sink = conn;
    conn.reader = {
      data: (bytes) => this.receive(bytes),
      close: () => this.gone(),
    };
  }

  private receive(bytes: Uint8Array) {
    if (this.closed) return;
    try {
      let frames;
      try {
        frames = this.decoder.push(bytes);
      } catch (e) {
        this.log.warn(`attach client ${this.conn.id}: ${(e as Error).message}; connection closed`);
        return this.drop();
      }
      // Resizes in a row collapse to the last: each one re-lays out every pane, which is costly
      // for wide panes with long histories, and only the last one shows.
      let resize: TermEvent | undefined;
      for (const f of frames) {
        if (this.closed) return;
        if (f.kind === FRAME_TERMINAL) {
          let json: unknown;
          try {
            json = f.payload.length <= MAX_TERMINAL_REPORT ? JSON.parse(frameText(f)) : undefined;
          } catch {
            json = undefined;
          }
          this.terminalSaid(checkTerminalReport(json));
          continue;
        }
        if (f.kind !== FRAME_EVENT) continue;
        hop("server-frame-read");
        const ev = this.parse(f.payload.length ? frameText(f) : "");
        if (!ev) continue;
        if (typeof ev === "object" && "Resize" in ev) {
          resize = ev;
          continue;
        }
        if (resize) this.onEvent(resize);
        resize = undefined;
        this.onEvent(ev);
      }
      if (resize && !this.closed) this.onEvent(resize);
    } catch (e) {
      this.log.error(`attach client ${this.conn.id}: handling its input failed, connection closed: ${(e as Error)?.stack ?? e}`);
      this.drop();
    }
  }

  /**
   * Read keys from and write frames to the client's terminal `path` from here (attach's v6 `tty`),
   * telling the client with a DIRECT frame. False when it cannot be opened as this user's
   * terminal: the client then pumps it itself. Call before the first frame. `askKeys` (attach's
   * `keys: "ask"`): the client turned no keyboard protocol on; ask the terminal and turn one on
   * (key-protocol.ts), without holding any frame back for the answer.
   */
  driveTerminal(path: string, id?: string, askKeys = false, term?: string): boolean {
    const tty = openClientTty(
      path,
      id,
      (bytes) => this.typed(bytes),
      () => this.drop(),
    );
    if (!tty) return false;
    this.tty = tty;
    this.sink = tty.out;
    // Its colours and version first: the keyboard query's DA1 answer (or a DA1 of its own) then
    // says every answer is in.
    const ask = asksTerminal(term) ? (this.terminalAsk = new TerminalAsk((r) => this.terminalSaid(r), probeMs())) : undefined;
    const question = ask ? TERMINAL_QUERY : "";
    if (!askKeys) {
      this.keys = new InputParser((r) => ask?.reply(r));
      this.conn.write(encodeFrame(FRAME_DIRECT, ""));
      if (ask) tty.out.write(Buffer.from(question + "\x1b[c"));
      return true;
    }
    const probe = new KeyProbe((p) => this.keysDecided(p));
    this.keyProbe = probe;
    this.keys = new InputParser((r: TerminalReply) => {
      probe.reply(r);
      ask?.reply(r);
    });
    this.conn.write(encodeFrame(FRAME_DIRECT, JSON.stringify({ keys: "ask" })));
    tty.out.write(Buffer.from(question + KEYS_QUERY));
    return true;
  }

  /** The terminal's report, once: from this server's own question or the client's frame. */
  private terminalSaid(r: TerminalReport): void {
    if (this.closed || this.told) return;
    this.told = true;
    this.onTerminal(r);
  }

  /** The terminal's keyboard protocol is known: the client hears first (it undoes it on detach,
   * even if this server is gone by then), then the terminal is told. */
  private keysDecided(p: KeyProtocol): void {
    if (this.closed || !this.tty) return;
    this.keyProtocol = p;
    this.conn.write(encodeFrame(FRAME_KEYS, p));
    this.tty.out.write(Buffer.from(keysOn(p)));
  }

  /** Bytes typed into a terminal the server drives: parsed as the client would have. */
  private typed(bytes: Uint8Array): void {
    hop("server-tty-read");
    if (this.closed) return;
    clearTimeout(this.escTimer);
    try {
      if (this.keys!.idle && printableAscii(bytes) && this.onText(bytes)) return;
      for (const ev of this.keys!.feed(bytes)) if (!this.closed) this.onEvent(ev);
      if (this.keys!.pending)
        this.escTimer = setTimeout(() => {
          for (const ev of this.keys!.flush()) if (!this.closed) this.onEvent(ev);
        }, ESC_TIMEOUT_MS);
    } catch (e) {
      this.log.error(`attach client ${this.conn.id}: handling its keys failed, connection closed: ${(e as Error)?.stack ?? e}`);
      this.drop();
    }
  }

  /** An EVENT payload → a checked event, or undefined (dropped with a warning). */
  private parse(text: string): TermEvent | undefined {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      return this.dropEvent(`not JSON: ${logValue(text)}`);
    }
    const r = checkTermEvent(json);
    return "event" in r ? r.event : this.dropEvent(r.problem);
  }

  private dropEvent(why: string): undefined {
    if (++this.badEvents <= LOGGED_BAD_EVENTS) this.log.warn(`attach client ${this.conn.id}: event dropped: ${why}`);
    return undefined;
  }

  /** True while earlier output is still queued: the next frame should wait. */
  get busy(): boolean {
    return this.sink.queuedBytes > 0;
  }

  /** Resolves when queued output has gone out. */
  drained(): Promise<void> {
    return this.sink.drained();
  }

  send(ansi: string | Uint8Array): void {
    if (this.closed || ansi.length === 0) return;
    if (this.tty) this.tty.out.write(typeof ansi === "string" ? Buffer.from(ansi) : ansi);
    else this.conn.write(encodeOutput(ansi));
    if (this.busy) this.armWatchdog();
  }

  // The client stopped reading: give it 5 s, then drop it. Panes never wait on it.
  private armWatchdog() {
    if (this.watchdog) return;
    const since = this.sink.blockedSince ?? Date.now();
    this.watchdog = setTimeout(() => {
      this.watchdog = undefined;
      if (!this.busy) return;
      const blocked = this.sink.blockedSince ?? since;
      if (Date.now() - blocked >= SLOW_CLIENT_MS - 50) this.drop();
      else this.armWatchdog();
    }, Math.max(10, SLOW_CLIENT_MS - (Date.now() - since)));
    void this.drained().then(() => {
      clearTimeout(this.watchdog);
      this.watchdog = undefined;
    });
  }

  /** Send EXIT and close after it has been written. */
  exit(notice: ExitNotice): void {
    if (this.closed) return;
    this.tty?.close(); // before EXIT: the client restores its terminal once it reads it
    this.conn.write(encodeExit(notice));
    this.conn.end();
    this.gone();
  }

  /** Drop without ceremony (slow or broken client). */
  drop(): void {
    if (this.closed) return;
    this.conn.close();
    this.gone();
  }

  private gone() {
    if (this.closed) return;
    this.closed = true;
    clearTimeout(this.watchdog);
    clearTimeout(this.escTimer);
    this.keyProbe?.stop();
    this.terminalAsk?.stop();
    this.tty?.close();
    if (this.badEvents > LOGGED_BAD_EVENTS) this.log.warn(`attach client ${this.conn.id}: ${this.badEvents - LOGGED_BAD_EVENTS} more invalid events were dropped`);
    this.onGone(this);
  }
}

/** Whether every byte is printable ASCII (space to tilde): keys that are just their character. */
function printableAscii(bytes: Uint8Array): boolean {
  for (let i = 0; i < bytes.length; i++) if (bytes[i]! < 0x20 || bytes[i]! > 0x7e) return false;
  return bytes.length > 0;
}
