// The one attached terminal client: frames in and out over its connection,
// the screen it has (for diffing), and the 5-second slow-client rule.

import type { Connection } from "../server/connection";
import { FrameDecoder, FRAME_EVENT, encodeOutput, encodeExit, frameText, type ExitNotice } from "../protocol/frames";
import { asTermEvent, type TermEvent } from "../protocol/events";
import { ScreenDiff } from "./diff";

export const SLOW_CLIENT_MS = 5000;

export class AttachedClient {
  readonly diff = new ScreenDiff();
  private decoder = new FrameDecoder();
  private watchdog: ReturnType<typeof setTimeout> | undefined;
  closed = false;

  constructor(
    readonly conn: Connection,
    private onEvent: (ev: TermEvent) => void,
    private onGone: (c: AttachedClient) => void,
  ) {
    conn.reader = {
      data: (bytes) => this.receive(bytes),
      close: () => this.gone(),
    };
  }

  private receive(bytes: Uint8Array) {
    if (this.closed) return;
    let frames;
    try {
      frames = this.decoder.push(bytes);
    } catch {
      return this.drop();
    }
    for (const f of frames) {
      if (f.kind !== FRAME_EVENT) continue;
      let ev: TermEvent | null = null;
      try {
        ev = asTermEvent(JSON.parse(frameText(f)));
      } catch {}
      if (ev) this.onEvent(ev);
    }
  }

  /** True while earlier output is still queued: the next frame should wait. */
  get busy(): boolean {
    return this.conn.queuedBytes > 0;
  }

  /** Resolves when queued output has gone out. */
  drained(): Promise<void> {
    return this.conn.drained();
  }

  send(ansi: string | Uint8Array): void {
    if (this.closed || ansi.length === 0) return;
    this.conn.write(encodeOutput(ansi));
    if (this.conn.queuedBytes > 0) this.armWatchdog();
  }

  // The client stopped reading: give it 5 s, then drop it. Panes never wait on it.
  private armWatchdog() {
    if (this.watchdog) return;
    const since = this.conn.blockedSince ?? Date.now();
    this.watchdog = setTimeout(() => {
      this.watchdog = undefined;
      if (!this.busy) return;
      const blocked = this.conn.blockedSince ?? since;
      if (Date.now() - blocked >= SLOW_CLIENT_MS - 50) this.drop();
      else this.armWatchdog();
    }, Math.max(10, SLOW_CLIENT_MS - (Date.now() - since)));
    void this.conn.drained().then(() => {
      clearTimeout(this.watchdog);
      this.watchdog = undefined;
    });
  }

  /** Send EXIT and close after it has been written. */
  exit(notice: ExitNotice): void {
    if (this.closed) return;
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
    this.onGone(this);
  }
}
