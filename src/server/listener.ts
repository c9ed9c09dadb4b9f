// The socket listener: JSON lines, one at a time per connection, each answered before the next is
// read; idle connections closed after 2 s; oversized lines refused without harm to anyone else.
import type { Socket } from "bun";
import type { HandlerContext } from "../commands/types";
import { MAX_LINE } from "../protocol/version";
import { plainError } from "../protocol/envelope";
import { Connection } from "./connection";
import { dispatchLine } from "./dispatch";

export const IDLE_CLOSE_MS = 2000;
/** Bytes a connection may have buffered unread while its current line is being answered. */
const MAX_BUFFERED = 4 * MAX_LINE;

interface LineState {
  chunks: Uint8Array[];
  size: number;
  busy: boolean;
  idle?: ReturnType<typeof setTimeout>;
  /** The client closed its write side: answer what is buffered, then close. */
  eof: boolean;
}

export interface ListenerOptions {
  path: string;
  context: (conn: Connection) => HandlerContext;
  /** Called when a connection opens; returning a string refuses it with that error line. */
  admit?: (conn: Connection) => string | undefined;
  onClose?: (conn: Connection) => void;
}

export function listen(o: ListenerOptions) {
  let nextId = 1;
  const lines = new WeakMap<Connection, LineState>();

  const armIdle = (conn: Connection, st: LineState) => {
    clearTimeout(st.idle);
    st.idle = setTimeout(() => conn.end(), IDLE_CLOSE_MS);
  };

  const pump = async (conn: Connection, st: LineState) => {
    if (st.busy || conn.closed || conn.reader) return;
    st.busy = true;
    try {
      while (!conn.closed && !conn.reader) {
        const all = st.chunks.length === 1 ? st.chunks[0]! : Buffer.concat(st.chunks);
        const nl = all.indexOf(10);
        if (nl < 0 && st.eof && all.length && all.length <= MAX_LINE) {
          // A last line without its newline, before the client closed: answer it anyway.
          st.chunks = [all, Buffer.from("\n")];
          continue;
        }
        if (nl < 0) {
          st.chunks = all.length ? [all] : [];
          st.size = all.length;
          if (st.size > MAX_LINE) {
            conn.write(plainError(`line too long (a line may be up to ${MAX_LINE} bytes)`));
            conn.end();
          }
          break;
        }
        const lineBytes = all.subarray(0, nl);
        const rest = all.subarray(nl + 1);
        st.chunks = rest.length ? [rest] : [];
        st.size = rest.length;
        if (lineBytes.length > MAX_LINE) {
          conn.write(plainError(`line too long (a line may be up to ${MAX_LINE} bytes)`));
          conn.end();
          break;
        }
        const line = Buffer.from(lineBytes).toString("utf8").replace(/\r$/, "");
        if (!line.trim()) continue;
        clearTimeout(st.idle);
        const ctx = o.context(conn);
        const d = await dispatchLine(line, ctx);
        const attaching = d.entry?.type === "attach" && d.after;
        // An accepted attach answers with frames, never a plain `ok` (spec: "The attach stream").
        if (!attaching) conn.write(d.reply);
        if (d.after) {
          if (attaching) {
            // The connection becomes the attach stream: hand over what is buffered after the line.
            await d.after();
            const reader = conn.reader as Connection["reader"]; // set by the attach service
            if (!reader) {
              if (!conn.closed) {
                conn.write(plainError("this server can't attach a client"));
                conn.end();
              }
              break;
            }
            const leftover = st.chunks.length ? Buffer.concat(st.chunks) : undefined;
            st.chunks = [];
            if (leftover?.length) reader.data(leftover);
            break;
          }
          // Act after the ok has been queued; never let a handler stall this connection's reads.
          void Promise.resolve().then(d.after);
        }
      }
    } catch (e) {
      console.error("connection failed:", e);
      conn.close();
    } finally {
      st.busy = false;
      if (!conn.closed && !conn.reader && st.eof) {
        clearTimeout(st.idle);
        conn.end();
      } else if (!conn.closed && !conn.reader) {
        armIdle(conn, st);
        // A line may have arrived whole while we were answering.
        if (st.chunks.length && Buffer.concat(st.chunks).includes(10)) void pump(conn, st);
      }
    }
  };

  return Bun.listen<{ conn: Connection }>({
    unix: o.path,
    allowHalfOpen: true,
    socket: {
      open(socket: Socket<{ conn: Connection }>) {
        const conn = new Connection(socket, nextId++);
        socket.data = { conn };
        const refusal = o.admit?.(conn);
        if (refusal) {
          conn.write(plainError(refusal));
          conn.end();
          return;
        }
        const st: LineState = { chunks: [], size: 0, busy: false, eof: false };
        lines.set(conn, st);
        armIdle(conn, st);
      },
      data(socket, bytes) {
        const conn = socket.data.conn;
        if (conn.reader) return conn.reader.data(bytes);
        const st = lines.get(conn);
        if (!st || conn.closed) return;
        st.chunks.push(bytes);
        st.size += bytes.length;
        if (st.size > MAX_BUFFERED + MAX_LINE) {
          conn.write(plainError(`line too long (a line may be up to ${MAX_LINE} bytes)`));
          conn.end();
          return;
        }
        void pump(conn, st);
      },
      end(socket) {
        const conn = socket.data.conn;
        if (conn.reader) return conn.reader.close();
        const st = lines.get(conn);
        if (!st) return conn.close();
        st.eof = true;
        void pump(conn, st).then(() => {
          if (!st.busy && !conn.reader) conn.end();
        });
      },
      drain(socket) {
        socket.data.conn.flush();
      },
      close(socket) {
        const conn = socket.data?.conn;
        if (!conn) return;
        const st = lines.get(conn);
        if (st) clearTimeout(st.idle);
        conn.closed = true;
        conn.reader?.close();
        o.onClose?.(conn);
      },
      error(socket, err) {
        console.error("socket error:", err?.message ?? err);
      },
    },
  });
}
