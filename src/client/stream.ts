// A long-lived request: write one line, then hand every line the server sends to `onLine` until
// the connection closes or onLine returns false (subscribe streams; `ws call`; and, stopping
// after the first line, every one-shot request).

import { ConnectionFailure, connectClient } from "./connect";
import { UnsafeSocket } from "./socket-check";

/** Nothing listens on the socket: the CLI turns this into advice to start a server. */
export class NoServer extends Error {}

/**
 * What a failed connect means for people. Only a missing socket or a refused connect is "no
 * server"; an unsafe socket keeps its own message; anything else (a reset by a server at its
 * connection limit, a full backlog) says the server is there but did not take us.
 */
export function connectFailure(socketPath: string, err: unknown): Error {
  if (err instanceof UnsafeSocket || err instanceof ConnectionFailure || err instanceof NoServer) return err;
  const e = err as NodeJS.ErrnoException | undefined;
  const code = e?.code ?? e?.message ?? String(err);
  if (code === "ENOENT" || code === "ECONNREFUSED") return new NoServer(`no ws server on ${socketPath} (${code})`);
  return new Error(`the ws server on ${socketPath} did not take the connection (${code}); it may be busy or serving too many connections, retry`);
}

/**
 * `idleTimeoutMs`: give up (reject) when the server sends nothing for that long, counted in whole
 * seconds by the socket itself (a one-shot request's 15 s), so no timer has to be made.
 */
export function streamLines(socketPath: string, line: string, onLine: (line: string) => boolean | void, idleTimeoutMs?: number): Promise<void> {
  // Promise.withResolvers rather than `new Promise(executor)`: the constructor costs a CLI call
  // ~0.4 ms to compile on first use, withResolvers ~0.04.
  const { promise, resolve, reject } = Promise.withResolvers<void>();
  let buf = "";
  const dec = new TextDecoder();
  connectClient(socketPath, {
    timeout(s) {
      reject(new Error(`no answer from ${socketPath} within ${idleTimeoutMs} ms`));
      s.end();
    },
    open(s) {
      if (idleTimeoutMs) s.timeout(Math.max(1, Math.ceil(idleTimeoutMs / 1000)));
      const bytes = new TextEncoder().encode(line.endsWith("\n") ? line : line + "\n");
      const n = s.write(bytes);
      (s as unknown as { rest?: Uint8Array }).rest = n < bytes.length ? bytes.subarray(n) : undefined;
    },
    drain(s) {
      const st = s as unknown as { rest?: Uint8Array };
      if (!st.rest) return;
      const n = s.write(st.rest);
      st.rest = n < st.rest.length ? st.rest.subarray(n) : undefined;
    },
    data(s, bytes) {
      buf += dec.decode(bytes, { stream: true });
      let nl: number;
      while ((nl = buf.indexOf("\n")) >= 0) {
        const l = buf.slice(0, nl);
        buf = buf.slice(nl + 1);
        if (onLine(l) === false) {
          s.end();
          return;
        }
      }
    },
    close() {
      if (buf) onLine(buf);
      resolve();
    },
    connectError(_s, err) {
      reject(connectFailure(socketPath, err));
    },
    error(_s, err) {
      reject(err);
    },
  }).catch((err) => reject(connectFailure(socketPath, err)));
  return promise;
}
