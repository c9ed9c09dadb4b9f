// Test helpers for protocol v6 over the real socket: one connection, several lines, N replies.

/** A connection that collects lines as they come; `next()` resolves with the next one. */
export class Conn {
  private buf = "";
  private lines: string[] = [];
  private waiters: ((l: string | undefined) => void)[] = [];
  closed = false;
  private sock!: Awaited<ReturnType<typeof Bun.connect>>;
  /** Bytes the kernel did not take yet (Bun's write may take only part). */
  private pending: Buffer[] = [];
  private constructor() {}

  static async open(path: string, opts: { read?: boolean } = {}): Promise<Conn> {
    const c = new Conn();
    const dec = new TextDecoder();
    c.sock = await Bun.connect({
      unix: path,
      socket: {
        data(_s, b) {
          c.buf += dec.decode(b, { stream: true });
          let nl: number;
          while ((nl = c.buf.indexOf("\n")) >= 0) {
            const l = c.buf.slice(0, nl);
            c.buf = c.buf.slice(nl + 1);
            const w = c.waiters.shift();
            w ? w(l) : c.lines.push(l);
          }
        },
        drain() {
          c.flush();
        },
        close() {
          c.closed = true;
          for (const w of c.waiters.splice(0)) w(undefined);
        },
      },
    });
    if (opts.read === false) c.sock.pause?.();
    return c;
  }

  write(data: string | Uint8Array): void {
    this.pending.push(Buffer.from(data));
    this.flush();
  }

  private flush(): void {
    while (this.pending.length) {
      const head = this.pending[0]!;
      const n = this.sock.write(head);
      if (n < head.length) {
        this.pending[0] = head.subarray(Math.max(0, n));
        return;
      }
      this.pending.shift();
    }
  }

  send(msg: Record<string, unknown>): void {
    this.write(JSON.stringify(msg) + "\n");
  }

  /** The next line (parsed), or throws after timeoutMs. */
  async next(timeoutMs = 10000): Promise<any> {
    const l = await this.nextRaw(timeoutMs);
    return l.startsWith("{") ? JSON.parse(l) : l;
  }

  nextRaw(timeoutMs = 10000): Promise<string> {
    const have = this.lines.shift();
    if (have !== undefined) return Promise.resolve(have);
    if (this.closed) return Promise.reject(new Error("connection closed"));
    return new Promise((resolve, reject) => {
      const t = setTimeout(() => {
        this.waiters.splice(this.waiters.indexOf(w), 1);
        reject(new Error(`no line within ${timeoutMs} ms`));
      }, timeoutMs);
      const w = (l: string | undefined) => {
        clearTimeout(t);
        l === undefined ? reject(new Error("connection closed")) : resolve(l);
      };
      this.waiters.push(w);
    });
  }

  /** Stop reading: what the server sends waits in the kernel, as with a reader that is stuck. */
  pause(): void {
    this.sock.pause?.();
  }

  resume(): void {
    this.sock.resume?.();
  }

  close(): void {
    this.sock.end();
  }
}

/** Lines from `c` (parsed) until one satisfies `until`; returns them all, that one last. */
export async function readUntil(c: Conn, until: (e: any) => boolean, timeoutMs = 10000): Promise<any[]> {
  const out: any[] = [];
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const e = await c.next(Math.max(1, deadline - Date.now()));
    out.push(e);
    if (until(e)) return out;
  }
}
