// Lines out of a byte stream from another process (a server's replies, ssh's `ws proxy`, the regex
// helpers' requests and answers), each at most `max` bytes. Only new bytes are searched for the newline and the buffer grows by doubling,
// so a long line costs linear time; a line past `max` is refused rather than held.

/** A line longer than the reader takes: the peer is broken or hostile. */
export class LineTooLong extends Error {}

export class LineReader {
  private buf = new Uint8Array(0);
  private len = 0;
  private readonly dec = new TextDecoder();

  constructor(
    readonly max: number,
    /** Says what was too long, for the error. */
    private readonly what = "a line",
  ) {}

  /** The lines `chunk` completes (without their newline). Throws LineTooLong past `max`. */
  push(chunk: Uint8Array): string[] {
    const lines: string[] = [];
    let from = 0;
    for (let nl = chunk.indexOf(0x0a); nl >= 0; nl = chunk.indexOf(0x0a, from)) {
      const part = chunk.subarray(from, nl);
      this.check(part.length);
      if (this.len) {
        this.append(part);
        lines.push(this.dec.decode(this.buf.subarray(0, this.len)));
        this.len = 0;
      } else lines.push(this.dec.decode(part));
      from = nl + 1;
    }
    const rest = chunk.subarray(from);
    this.check(rest.length);
    this.append(rest);
    // A long line grew the buffer: don't keep that memory once it is done.
    if (this.len === 0 && this.buf.length > 1 << 20) this.buf = new Uint8Array(0);
    return lines;
  }

  /** What is held after the last newline (the end of a stream without one). */
  rest(): string {
    return this.dec.decode(this.buf.subarray(0, this.len));
  }

  /** Bytes held waiting for a newline. */
  get pending(): number {
    return this.len;
  }

  private check(adding: number): void {
    if (this.len + adding > this.max) {
      this.len = 0;
      this.buf = new Uint8Array(0);
      throw new LineTooLong(`${this.what} is longer than ${formatBytes(this.max)}`);
    }
  }

  private append(bytes: Uint8Array): void {
    if (!bytes.length) return;
    if (this.len + bytes.length > this.buf.length) {
      const next = new Uint8Array(Math.min(this.max, Math.max(this.buf.length * 2, this.len + bytes.length, 4096)));
      next.set(this.buf.subarray(0, this.len));
      this.buf = next;
    }
    this.buf.set(bytes, this.len);
    this.len += bytes.length;
  }
}

export function formatBytes(n: number): string {
  return n >= 1 << 20 ? `${n / (1 << 20)} MiB` : n >= 1024 ? `${n / 1024} KiB` : `${n} bytes`;
}
