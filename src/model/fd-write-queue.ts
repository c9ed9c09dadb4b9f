// Writing to a non-blocking fd that may not take everything at once: a PTY master whose program
// is not reading, a terminal that is slow. What the fd does not take now waits here, in order,
// and is retried on a timer (Bun cannot tell us when a raw fd becomes writable).
import { writeSome, type Libc } from "../platform/pty-libc";

export interface FdWriteQueueOptions {
  /** How often a full fd is tried again (ms). */
  retryMs: number;
  /** The most that may wait (bytes). A write that would take what waits past it is dropped whole;
   * when nothing waited, the fd already took a part of it and only the rest is dropped. */
  limit?: number;
  /** The fd failed for good (hung up): everything queued is dropped first. */
  onError: () => void;
}

export class FdWriteQueue {
  private queue: Uint8Array[] = [];
  private bytes = 0;
  private timer: Timer | undefined;
  private waiters: (() => void)[] = [];
  private stopped = false;
  /** When what waits started waiting (undefined: nothing waits). */
  blockedSince: number | undefined;

  constructor(
    private c: Libc,
    private fd: number,
    private o: FdWriteQueueOptions,
  ) {}

  /** Bytes waiting for the fd. */
  get queuedBytes(): number {
    return this.bytes;
  }

  /** Write what the fd takes now; queue the rest (a copy: the caller may reuse its buffer). */
  write(data: Uint8Array): void {
    if (this.stopped || !data.length) return;
    if (!this.queue.length) {
      const n = writeSome(this.c, this.fd, data);
      if (n < 0) return this.fail();
      if (n === data.length) return;
      data = data.subarray(n);
    }
    if (this.o.limit !== undefined && this.bytes + data.length > this.o.limit) return;
    this.queue.push(new Uint8Array(data));
    this.bytes += data.length;
    this.blockedSince ??= Date.now();
    this.timer ??= setTimeout(this.flush, this.o.retryMs);
  }

  /** Resolves when nothing waits. */
  drained(): Promise<void> {
    return this.bytes > 0 ? new Promise<void>((r) => this.waiters.push(r)) : Promise.resolve();
  }

  /** Drop what waits and write nothing more. */
  stop(): void {
    this.stopped = true;
    this.clear();
  }

  private flush = (): void => {
    this.timer = undefined;
    while (this.queue.length && !this.stopped) {
      const head = this.queue[0]!;
      const n = writeSome(this.c, this.fd, head);
      if (n < 0) return this.fail();
      this.bytes -= n;
      if (n < head.length) {
        this.queue[0] = head.subarray(n);
        this.timer = setTimeout(this.flush, this.o.retryMs);
        return;
      }
      this.queue.shift();
    }
    this.clear();
  };

  private fail(): void {
    this.clear();
    this.o.onError();
  }

  private clear(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.queue.length = 0;
    this.bytes = 0;
    this.blockedSince = undefined;
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) w();
  }
}
