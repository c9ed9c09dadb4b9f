// A long-lived request: write one line, then hand every line the server sends to `onLine` until
// the connection closes or onLine returns false (subscribe streams; `ws call`; and, stopping
// after the first line, every one-shot request).

import { ConnectionFailure, connectClient, serverName } from "./connect";
import { LineReader } from "../line-reader";
import { UnsafeSocket } from "../platform/socket-check";

/** Nothing listens on the socket: the CLI turns this into advice to start a server. */
export class NoServer extends Error {}

/** The server took the request but said nothing within the deadline (stopped, or stuck). */
export class NoAnswer extends Error {}

/** The longest line a client takes from a server (or, with -H, from ssh): as the attach frame's cap. */
export const MAX_REPLY_LINE = 64 * 1024 * 1024;

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
  return new Error(`the ws server on ${serverName(socketPath)} did not take the connection (${code}); it may be busy or serving too many connections, retry`);
}

/** "10 s", "1.5 s", "250 ms". */
export function formatMs(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${Math.round(ms / 100) / 10} s`;
}

/**
 * `replyMs`: give up (reject with NoAnswer) when the first line has not come within that many ms
 * (a stopped or stuck server takes the connection and then says nothing); 0 or absent: no deadline.
 */
export function streamLines(socketPath: string, line: string, onLine: (line: string) => boolean | void, replyMs?: number): Promise<void> {
  // Promise.withResolvers rather than `new Promise(executor)`: the constructor costs a CLI call
  // ~0.4 ms to compile on first use, withResolvers ~0.04.
  const { promise, resolve, reject } = Promise.withResolvers<void>();
  const reader = new LineReader(MAX_REPLY_LINE, `a reply from the ws server on ${serverName(socketPath)}`);
  let answered = false;
  let ended = false;
  let sock: { end(): void } | undefined;
  const fail = (e: Error) => {
    clearTimeout(timer);
    reject(e);
    if (!ended) {
      ended = true;
      try {
        sock?.end();
      } catch {}
    }
  };
  const timer = replyMs
    ? setTimeout(() => {
        if (!answered)
          fail(new NoAnswer(`the ws server on ${serverName(socketPath)} did not answer within ${formatMs(replyMs)} (is it stopped or stuck? --timeout MS waits longer)`));
      }, replyMs)
    : undefined;
  connectClient(socketPath, {
    open(s) {
      sock = s;
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
      if (ended) return;
      let lines: string[];
      try {
        lines = reader.push(bytes);
      } catch (e) {
        return fail(e as Error);
      }
      for (const l of lines) {
        if (!answered) {
          answered = true;
          clearTimeout(timer);
        }
        if (onLine(l) === false) {
          ended = true;
          s.end();
          return;
        }
      }
    },
    close() {
      clearTimeout(timer);
      if (!ended && reader.pending) onLine(reader.rest());
      resolve();
    },
    connectError(_s, err) {
      fail(connectFailure(socketPath, err));
    },
    error(_s, err) {
      fail(err);
    },
  }).catch((err) => fail(connectFailure(socketPath, err)));
  return promise;
}
