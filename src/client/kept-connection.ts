// One connection for many requests, one at a time: a command chain (`ws a \; b`) or `ws batch`
// sends each command's message on it instead of connecting per command, as tmux's client sends
// a whole command list in one go. The server answers a connection's lines in order and closes one
// that is idle for 2 s, so the connection is opened again when that happened between requests.
import type { Socket } from "bun";
import { parseReply } from "../protocol/envelope";
import { connectClient } from "./connect";
import { MAX_REPLY_LINE, NoAnswer, connectFailure } from "./stream";
import type { ReplyObject } from "./request";

interface Pending {
  resolve: (line: string) => void;
  reject: (e: Error) => void;
}

export class KeptConnection {
  private socket?: Socket<undefined>;
  private opening?: Promise<Socket<undefined>>;
  private pending?: Pending;
  private chunks: string[] = [];
  private size = 0;
  private unsent?: Uint8Array;
  private readonly decoder = new TextDecoder();

  constructor(readonly path: string) {}

  /** Send one message and resolve with its reply; `timeoutMs` 0 or undefined: no deadline. */
  async request(msg: Record<string, unknown>, timeoutMs?: number): Promise<ReplyObject> {
    if (this.pending) throw new Error("a kept connection carries one request at a time");
    const socket = await this.open();
    const { promise, resolve, reject } = Promise.withResolvers<string>();
    let timer: ReturnType<typeof setTimeout> | undefined;
    if (timeoutMs) timer = setTimeout(() => this.fail(new NoAnswer(`the ws server on ${this.path} did not answer within ${timeoutMs} ms (is it stopped or stuck? --timeout MS waits longer)`)), timeoutMs);
    this.pending = { resolve, reject };
    this.write(socket, new TextEncoder().encode(JSON.stringify(msg) + "\n"));
    try {
      return parseReply(await promise);
    } finally {
      clearTimeout(timer);
    }
  }

  close(): void {
    this.socket?.end();
    this.socket = undefined;
  }

  private open(): Promise<Socket<undefined>> {
    if (this.socket) return Promise.resolve(this.socket);
    this.opening ??= connectClient(this.path, {
      data: (_s, bytes) => this.onData(bytes),
      drain: (s) => this.unsent && this.write(s, this.unsent),
      close: () => this.onClose(),
      error: (_s, e) => this.fail(e),
      connectError: (_s, e) => this.fail(connectFailure(this.path, e)),
    })
      .then((s) => {
        this.socket = s;
        return s;
      })
      .catch((e) => {
        throw connectFailure(this.path, e);
      })
      .finally(() => (this.opening = undefined));
    return this.opening;
  }

  private write(s: Socket<undefined>, bytes: Uint8Array): void {
    const n = s.write(bytes);
    this.unsent = n < bytes.length ? bytes.subarray(Math.max(0, n)) : undefined;
  }

  private onData(bytes: Uint8Array): void {
    let text = this.decoder.decode(bytes, { stream: true });
    for (let nl = text.indexOf("\n"); nl >= 0; nl = text.indexOf("\n")) {
      this.chunks.push(text.slice(0, nl));
      const line = this.chunks.join("");
      this.chunks = [];
      this.size = 0;
      text = text.slice(nl + 1);
      const p = this.pending;
      this.pending = undefined;
      p?.resolve(line);
    }
    if (!text) return;
    this.size += text.length;
    if (this.size > MAX_REPLY_LINE) return this.fail(new Error(`the server's reply is over ${MAX_REPLY_LINE} bytes`));
    this.chunks.push(text);
  }

  private onClose(): void {
    this.socket = undefined;
    this.chunks = [];
    this.size = 0;
    this.fail(new Error("the server closed the connection without answering"));
  }

  private fail(e: Error): void {
    const p = this.pending;
    this.pending = undefined;
    if (p) {
      this.close();
      p.reject(e);
    }
  }
}
