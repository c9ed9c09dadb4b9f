// A raw attach client for tests: the `attach` line, then frames both ways over the real socket.
// It keeps what the server sends (OUTPUT bytes, EXIT) so a test can wait for a redraw.
import type { Socket } from "bun";
import { FrameDecoder, FRAME_DIRECT, FRAME_EXIT, FRAME_OUTPUT, encodeEvent, frameText, type ExitNotice } from "../src/protocol/frames";
import { waitFor } from "./harness";

export class RawAttach {
  output = "";
  outputBytes = 0;
  /** Full redraws (screen clears) received: one follows every change of size. */
  redraws = 0;
  exit: ExitNotice | undefined;
  /** Text the server sent instead of frames (a refusal line). */
  refusal = "";
  closed = false;
  /** Every OUTPUT frame's text, in order (a test that replays them into a terminal). */
  onText?: (text: string) => void;
  /** The server said it drives the terminal the attach named (`tty`) itself: a DIRECT frame. */
  direct = false;
  private sock!: Socket<undefined>;
  private decoder = new FrameDecoder();
  private framed = false;

  static async open(sockPath: string, line: Record<string, unknown>): Promise<RawAttach> {
    const c = new RawAttach();
    c.sock = await Bun.connect({
      unix: sockPath,
      socket: {
        open: (s) => void s.write(JSON.stringify(line) + "\n"),
        data: (_s, b) => c.receive(b),
        drain: () => c.pump(),
        close: () => void (c.closed = true),
        error: () => void (c.closed = true),
      },
    });
    return c;
  }

  private receive(b: Uint8Array) {
    // A refused attach answers with a line; an accepted one starts with an OUTPUT frame (kind 0),
    // or DIRECT (kind 3) when the server drives the client's terminal.
    if (!this.framed && this.outputBytes === 0 && b[0] !== FRAME_OUTPUT && b[0] !== FRAME_DIRECT) {
      this.refusal += Buffer.from(b).toString("utf8");
      return;
    }
    this.framed = true;
    for (const f of this.decoder.push(b)) {
      if (f.kind === FRAME_OUTPUT) {
        this.outputBytes += f.payload.length;
        const text = frameText(f);
        if (text.includes("\x1b[2J")) this.redraws++;
        this.output = (this.output + text).slice(-64 * 1024); // the tail only
        this.onText?.(text);
      }
      if (f.kind === FRAME_EXIT) this.exit = JSON.parse(frameText(f));
      if (f.kind === FRAME_DIRECT) this.direct = true;
    }
  }

  send(ev: unknown): void {
    this.write(encodeEvent(ev));
  }

  /** Write bytes; what the kernel doesn't take yet is queued and sent on drain, in order. */
  write(bytes: Uint8Array): void {
    if (this.closed) return;
    this.queue.push(bytes);
    this.queued += bytes.length;
    if (this.queue.length === 1) this.pump();
  }

  private pump() {
    while (this.queue.length && !this.closed) {
      const head = this.queue[0]!;
      const n = Math.max(0, this.sock.write(head));
      this.queued -= n;
      if (n < head.length) {
        this.queue[0] = head.subarray(n);
        return;
      }
      this.queue.shift();
    }
  }

  /** Bytes written but not yet taken by the kernel. */
  queued = 0;
  private queue: Uint8Array[] = [];

  /** Resolves once everything written has gone to the kernel (or the server closed us). */
  async flush(timeoutMs = 30000): Promise<void> {
    await waitFor("the client's writes to go out", () => this.closed || this.queued === 0, timeoutMs, 5);
  }

  /** Ask for a resize and wait for the full redraw it causes: the server is reading this client. */
  async redrawAfterResize(cols: number, rows: number, timeoutMs = 10000): Promise<void> {
    const seen = this.redraws;
    this.send({ Resize: [cols, rows] });
    await waitFor(`a redraw at ${cols}x${rows}`, () => this.redraws > seen, timeoutMs);
  }

  async firstFrame(): Promise<void> {
    await waitFor("the first frame", () => this.outputBytes > 0 || this.refusal || this.closed);
  }

  /** Stop reading: what the server sends waits in the kernel, as with a client that is stuck. */
  pause(): void {
    this.sock.pause();
  }

  resume(): void {
    this.sock.resume();
  }

  close(): void {
    this.sock.end();
  }
}

