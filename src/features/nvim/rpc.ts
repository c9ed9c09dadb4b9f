// A Neovim msgpack-RPC client over its --listen socket: one connection, requests answered in
// order of their ids, each with a deadline. Strings travel as RPC arguments, never through a
// command line, so a path with spaces, quotes or `|` reaches Neovim as it is.
//
// The stream is bounded, not only each message: what is on the socket is decoded at most
// MESSAGES_PER_TURN messages or BYTES_PER_TURN bytes a turn of the event loop, reading paused
// until the next turn, so a flood of tiny notifications can't hold the daemon's one thread; and a
// peer that sends more than MAX_UNASKED_MESSAGES messages or MAX_UNASKED_BYTES bytes ws did not
// ask for (ws subscribes to nothing, so Neovim has next to nothing to tell it) is dropped.
import { envInt } from "../../model/limits";
import { Incomplete, decode, encode, type Packable } from "./msgpack";

export class NvimError extends Error {}

/** A request Neovim did not answer within this is an error (it may be stuck on a prompt).
 * `WS_NVIM_REPLY_MS` in the server's environment: tests wait less. */
const REPLY_MS = envInt("WS_NVIM_REPLY_MS", 5000);
/** The most unread bytes held from Neovim: a message bigger than this (its replies to ws are a
 * few bytes) is something else pretending, and the connection is dropped. docs/limits.md. */
export const MAX_NVIM_MESSAGE = 1024 * 1024;

/** What one turn of the event loop decodes at most before it gives the loop back. */
export const MESSAGES_PER_TURN = 512;
export const BYTES_PER_TURN = 256 * 1024;
/** What a connection takes of messages that answer none of ws's requests (notifications, Neovim's
 * own requests, late answers) before it is dropped. docs/limits.md. */
export const MAX_UNASKED_MESSAGES = 10_000;
export const MAX_UNASKED_BYTES = 1024 * 1024;

/** Bytes received and not yet decoded, in a buffer that grows by doubling (never a join per chunk). */
class Inbox {
  private buf = new Uint8Array(4096);
  private start = 0;
  private end = 0;

  get length(): number {
    return this.end - this.start;
  }

  /** What is held, without copying. */
  view(): Uint8Array {
    return this.buf.subarray(this.start, this.end);
  }

  consume(n: number): void {
    this.start += n;
    if (this.start === this.end) this.start = this.end = 0;
  }

  push(chunk: Uint8Array): void {
    if (this.end + chunk.length > this.buf.length) {
      const need = this.length + chunk.length;
      if (need <= this.buf.length) this.buf.copyWithin(0, this.start, this.end);
      else {
        let size = this.buf.length;
        while (size < need) size *= 2;
        const grown = new Uint8Array(size);
        grown.set(this.view());
        this.buf = grown;
      }
      this.end -= this.start;
      this.start = 0;
    }
    this.buf.set(chunk, this.end);
    this.end += chunk.length;
  }
}

export interface Nvim {
  request(method: string, params: Packable[]): Promise<unknown>;
  close(): void;
}

export async function connectNvim(socket: string): Promise<Nvim> {
  const inbox = new Inbox();
  let dropped = false;
  let nextId = 1;
  const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void; timer: ReturnType<typeof setTimeout> }>();
  const failAll = (e: Error) => {
    for (const [id, w] of pending) (clearTimeout(w.timer), w.reject(e), pending.delete(id));
  };
  let unaskedMessages = 0;
  let unaskedBytes = 0;
  /** A turn's decoding is waiting for the next turn, and reading is paused until it is through. */
  let later = false;
  let paused = false;
  const drop = (e: Error) => {
    dropped = true;
    failAll(e);
    conn.end();
  };
  const onData = (chunk: Uint8Array) => {
    if (dropped) return;
    if (inbox.length + chunk.length > MAX_NVIM_MESSAGE) return drop(new NvimError(`Neovim sent a message over ${MAX_NVIM_MESSAGE} bytes (what listens on its socket is not Neovim, or is broken)`));
    inbox.push(chunk);
    if (!later) decodeTurn();
  };
  /** Decode and handle what is held, within one turn's budget; the rest on a later turn. */
  const decodeTurn = () => {
    later = false;
    let messages = 0;
    let bytes = 0;
    while (!dropped && inbox.length) {
      if (messages >= MESSAGES_PER_TURN || bytes >= BYTES_PER_TURN) {
        // Other clients first: read nothing more until this backlog is through.
        later = true;
        paused = true;
        conn.pause();
        setImmediate(decodeTurn);
        return;
      }
      let msg: unknown;
      let size: number;
      try {
        const d = decode(inbox.view());
        msg = d.value;
        size = d.end;
        inbox.consume(size);
      } catch (e) {
        if (e instanceof Incomplete) break;
        return drop(new NvimError(`Neovim sent something unreadable: ${(e as Error).message}`));
      }
      messages++;
      bytes += size;
      handle(msg, size);
    }
    if (!dropped && paused) {
      paused = false;
      conn.resume();
    }
  };
  const handle = (msg: unknown, size: number) => {
    // [1, id, error, result] answers a request; notifications ([2, …]) and requests are not ours.
    const w = Array.isArray(msg) && msg[0] === 1 ? pending.get(msg[1] as number) : undefined;
    if (!w) {
      unaskedMessages++;
      unaskedBytes += size;
      if (unaskedMessages > MAX_UNASKED_MESSAGES || unaskedBytes > MAX_UNASKED_BYTES)
        drop(new NvimError(`Neovim sent more than ${MAX_UNASKED_MESSAGES} messages or ${MAX_UNASKED_BYTES} bytes ws did not ask for (what listens on its socket is not Neovim, or is broken)`));
      return;
    }
    const m = msg as unknown[];
    pending.delete(m[1] as number);
    clearTimeout(w.timer);
    const err = m[2];
    if (err !== null) w.reject(new NvimError(Array.isArray(err) ? String(err[1]) : String(err)));
    else w.resolve(m[3]);
  };
  // What the socket has not taken yet; written as it drains.
  let unsent: Uint8Array = new Uint8Array(0);
  const flush = () => {
    if (unsent.length) unsent = unsent.subarray(Math.max(0, conn.write(unsent)));
  };
  const conn = await Bun.connect({
    unix: socket,
    socket: {
      data: (_s, chunk) => onData(chunk),
      drain: () => flush(),
      close: () => failAll(new NvimError("Neovim closed the connection")),
      error: (_s, e) => failAll(new NvimError(e.message)),
    },
  });
  return {
    request(method, params) {
      const id = nextId++;
      const { promise, resolve, reject } = Promise.withResolvers<unknown>();
      const timer = setTimeout(() => {
        pending.delete(id);
        reject(new NvimError(`Neovim did not answer ${method} within ${REPLY_MS} ms`));
      }, REPLY_MS);
      pending.set(id, { resolve, reject, timer });
      const bytes = encode([0, id, method, params]);
      if (unsent.length) {
        const joined = new Uint8Array(unsent.length + bytes.length);
        joined.set(unsent);
        joined.set(bytes, unsent.length);
        unsent = joined;
      } else unsent = bytes;
      flush();
      return promise;
    },
    close() {
      dropped = true; // nothing more is decoded for a closed connection
      conn.end();
    },
  };
}
