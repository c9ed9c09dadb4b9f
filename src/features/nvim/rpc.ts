// A Neovim msgpack-RPC client over its --listen socket: one connection, requests answered in
// order of their ids, each with a deadline. Strings travel as RPC arguments, never through a
// command line, so a path with spaces, quotes or `|` reaches Neovim as it is.
import { Incomplete, decode, encode, type Packable } from "./msgpack";

export class NvimError extends Error {}

/** A request Neovim did not answer within this is an error (it may be stuck on a prompt). */
const REPLY_MS = 5000;

export interface Nvim {
  request(method: string, params: Packable[]): Promise<unknown>;
  close(): void;
}

export async function connectNvim(socket: string): Promise<Nvim> {
  let buf: Uint8Array = new Uint8Array(0);
  let nextId = 1;
  const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void; timer: ReturnType<typeof setTimeout> }>();
  const failAll = (e: Error) => {
    for (const [id, w] of pending) (clearTimeout(w.timer), w.reject(e), pending.delete(id));
  };
  const onData = (chunk: Uint8Array) => {
    const joined = new Uint8Array(buf.length + chunk.length);
    joined.set(buf);
    joined.set(chunk, buf.length);
    buf = joined;
    for (;;) {
      let msg: unknown;
      try {
        const d = decode(buf);
        msg = d.value;
        buf = buf.subarray(d.end);
      } catch (e) {
        if (e instanceof Incomplete) return;
        failAll(new NvimError(`Neovim sent something unreadable: ${(e as Error).message}`));
        conn.end();
        return;
      }
      // [1, id, error, result] answers a request; notifications ([2, …]) and requests are not ours.
      if (!Array.isArray(msg) || msg[0] !== 1) continue;
      const w = pending.get(msg[1] as number);
      if (!w) continue;
      pending.delete(msg[1] as number);
      clearTimeout(w.timer);
      const err = msg[2];
      if (err !== null) w.reject(new NvimError(Array.isArray(err) ? String(err[1]) : String(err)));
      else w.resolve(msg[3]);
    }
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
      conn.end();
    },
  };
}
