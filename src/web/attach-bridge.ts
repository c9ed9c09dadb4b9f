// One browser's attach: a connection to the server's socket that speaks the attach stream as
// `ws attach` does when it pumps a terminal (src/client/attach.ts): the browser's bytes parsed into
// crossterm events (EVENT frames), its size as Resize events, OUTPUT frames passed back as bytes. The
// server sees one more shared client, with the person's authority (this process is the person's).
import type { Socket } from "bun";
import { BUILD } from "../build-info";
import { connectClient } from "../client/connect";
import { ENTER } from "../client/attach";
import { FrameDecoder, FRAME_EXIT, FRAME_OUTPUT, encodeEvent, frameText, type ExitNotice } from "../protocol/frames";
import { ESC_TIMEOUT_MS, InputParser } from "../protocol/input-parser";

/** What the browser may hold unread before its attach is dropped (as the server drops a client
 * that does not read its socket). */
export const MAX_BROWSER_BACKLOG = 16 * 1024 * 1024;
/** Bytes from the server held while the socket is full; more drops the attach. */
const MAX_QUEUED = 4 * 1024 * 1024;

export interface BrowserSide {
  bytes(data: Uint8Array): void;
  /** The attach ended: what the browser tells the person. */
  exit(message: string): void;
}

const clampSize = (n: unknown, fallback: number) => (Number.isInteger(n) && (n as number) > 0 && (n as number) <= 65535 ? (n as number) : fallback);

export class AttachBridge {
  private sock: Socket<undefined> | undefined;
  private queue: Uint8Array[] = [];
  private queued = 0;
  private decoder = new FrameDecoder();
  private parser = new InputParser(() => {});
  private escTimer: ReturnType<typeof setTimeout> | undefined;
  private first = true;
  private refusal = "";
  private ended = false;

  constructor(
    private readonly socketPath: string,
    private readonly browser: BrowserSide,
    private readonly escapeMs = ESC_TIMEOUT_MS,
  ) {}

  start(cols: unknown, rows: unknown): void {
    const line = JSON.stringify({ v: 6, type: "attach", share: true, cols: clampSize(cols, 80), rows: clampSize(rows, 24), build: BUILD, term: "xterm-256color" });
    connectClient(this.socketPath, {
      open: (s) => {
        this.sock = s as unknown as Socket<undefined>;
        this.send(Buffer.from(`${line}\n`));
      },
      data: (_s, bytes) => this.fromServer(bytes),
      drain: (s) => {
        while (this.queue.length) {
          const head = this.queue[0]!;
          const n = s.write(head);
          this.queued -= Math.max(0, n);
          if (n < head.length) return void (this.queue[0] = head.subarray(Math.max(0, n)));
          this.queue.shift();
        }
      },
      close: () => this.end(this.refusal ? this.refused() : this.first ? "the server closed the connection" : "the server went away"),
      error: (_s, err) => this.end(`connection error: ${err.message}`),
      connectError: (_s, err) => this.end(`no ws server answers: ${err.message}`),
    }).catch((err: Error) => this.end(`no ws server answers: ${err.message}`));
  }

  /** Bytes the browser's terminal sent (keys, paste, mouse, its answers to queries). */
  input(bytes: Uint8Array): void {
    clearTimeout(this.escTimer);
    this.events(this.parser.feed(Buffer.from(bytes)));
    if (this.parser.pending) this.escTimer = setTimeout(() => this.events(this.parser.flush()), this.escapeMs);
  }

  resize(cols: unknown, rows: unknown): void {
    if (clampSize(cols, 0) && clampSize(rows, 0)) this.events([{ Resize: [cols, rows] }]);
  }

  /** The browser went: the server drops this client. */
  close(): void {
    this.ended = true;
    clearTimeout(this.escTimer);
    try {
      this.sock?.end();
    } catch {}
  }

  private events(evs: unknown[]): void {
    for (const ev of evs) this.send(encodeEvent(ev));
  }

  private send(bytes: Uint8Array): void {
    if (!this.sock || this.ended) return;
    if (this.queue.length) {
      this.queued += bytes.length;
      if (this.queued > MAX_QUEUED) return this.end("the ws server stopped reading this client");
      return void this.queue.push(bytes);
    }
    const n = this.sock.write(bytes);
    if (n < bytes.length) {
      const rest = bytes.subarray(Math.max(0, n));
      this.queue.push(rest);
      this.queued += rest.length;
    }
  }

  private refused(): string {
    const t = this.refusal.trim();
    try {
      const j = JSON.parse(t.split("\n")[0]!) as { message?: unknown };
      if (typeof j.message === "string") return j.message;
    } catch {}
    return t.replace(/^error: /, "").slice(0, 2000);
  }

  private fromServer(bytes: Uint8Array): void {
    if (this.ended) return;
    if (this.first) {
      this.first = false;
      // A refused attach answers a line (v6: a JSON error) instead of frames.
      if (bytes[0] === 0x65 || bytes[0] === 0x7b) {
        this.refusal = new TextDecoder().decode(bytes.subarray(0, 64 * 1024));
        return;
      }
      // What `ws attach` sets up in its terminal before the first frame.
      this.browser.bytes(new TextEncoder().encode(ENTER));
    }
    if (this.refusal) return;
    let frames;
    try {
      frames = this.decoder.push(bytes);
    } catch (e) {
      return this.end(`broken attach stream: ${(e as Error).message}`);
    }
    for (const f of frames) {
      if (f.kind === FRAME_OUTPUT) this.browser.bytes(f.payload);
      else if (f.kind === FRAME_EXIT) {
        let n: ExitNotice = { reason: "quit" };
        try {
          n = JSON.parse(frameText(f));
        } catch {}
        return this.end(n.message ?? `[${n.reason}]`);
      }
    }
  }

  private end(message: string): void {
    if (this.ended) return;
    this.close();
    this.browser.exit(message);
  }
}
