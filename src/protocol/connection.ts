// One client connection of the server: a write queue that respects the kernel's buffer (Bun's
// socket.write may take only part), and a swappable reader so `attach` can take the stream over.
// In protocol/ so that handlers and the UI, below the server, can name it.
import type { Socket } from "bun";

export interface ConnectionReader {
  data(bytes: Uint8Array): void;
  close(): void;
  /** The client closed its write side. Without this, that ends the reader like a close. */
  halfClose?(): void;
}

export class Connection {
  private pending: Uint8Array[] = [];
  private pendingBytes = 0;
  private endAfterFlush = false;
  closed = false;
  reader: ConnectionReader | undefined;
  /** When the write queue last became non-empty (for dropping clients that stop reading). */
  blockedSince: number | undefined;
  private onDrained: (() => void)[] = [];
  private readonly aborter = new AbortController();
  /** Aborted when the connection closes, for work done on its behalf (waits, streams). */
  readonly signal: AbortSignal = this.aborter.signal;

  constructor(
    readonly socket: Socket<{ conn: Connection }>,
    readonly id: number,
  ) {}

  get queuedBytes(): number {
    return this.pendingBytes;
  }

  write(data: string | Uint8Array): void {
    if (this.closed) return;
    const bytes = typeof data === "string" ? Buffer.from(data) : data;
    if (this.pending.length) {
      this.pending.push(bytes);
      this.pendingBytes += bytes.length;
      return;
    }
    const n = this.socket.write(bytes);
    if (n < bytes.length) {
      this.pending.push(bytes.subarray(Math.max(0, n)));
      this.pendingBytes += bytes.length - Math.max(0, n);
      this.blockedSince ??= Date.now();
    }
  }

  /** Called by the listener on `drain`. */
  flush(): void {
    while (this.pending.length && !this.closed) {
      const head = this.pending[0]!;
      const n = this.socket.write(head);
      if (n < head.length) {
        this.pending[0] = head.subarray(Math.max(0, n));
        this.pendingBytes -= Math.max(0, n);
        return;
      }
      this.pending.shift();
      this.pendingBytes -= head.length;
    }
    this.blockedSince = undefined;
    for (const f of this.onDrained.splice(0)) f();
    if (this.endAfterFlush) this.close();
  }

  /** Resolves once everything written so far has gone to the kernel. */
  drained(): Promise<void> {
    if (!this.pending.length || this.closed) return Promise.resolve();
    return new Promise((r) => this.onDrained.push(r));
  }

  /** Close after what is queued has been written (socket.end(data) can drop what doesn't fit). */
  end(): void {
    if (this.pending.length) this.endAfterFlush = true;
    else this.close();
  }

  /** The socket has gone (either side closed it). */
  gone(): void {
    this.closed = true;
    this.pending = [];
    this.pendingBytes = 0;
    for (const f of this.onDrained.splice(0)) f();
    this.aborter.abort();
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.aborter.abort();
    this.pending = [];
    this.pendingBytes = 0;
    for (const f of this.onDrained.splice(0)) f();
    try {
      this.socket.end();
    } catch {}
  }
}
