// The socket listener: JSON lines, one at a time per connection, each answered before the next is
// read; idle connections closed after 2 s; oversized lines refused without harm to anyone else.
// Limits (docs/protocol-v6.md "Limits"): at most MAX_CONNECTIONS connections, the last
// RESERVED_SLOTS of them kept for short requests (docs/security.md "Connection limit"); a line over
// LARGE_LINE waits up to BUDGET_WAIT_MS for room in the shared request memory budget, else it is
// refused with `busy` having done nothing; every per-connection queue is bounded.
import type { Socket } from "bun";
import type { HandlerContext, MessageEntry } from "../messages/types";
import { MAX_LINE } from "../protocol/version";
import { plainError } from "../protocol/envelope";
import { WsError } from "../protocol/errors";
import { envInt, SLOW_CLIENT_MS } from "../model/limits";
import { connectionShare } from "../model/fd-limit";
import { Connection } from "../protocol/connection";
import { dispatchLine, type LineStyle } from "./dispatch";
import { log } from "../log";

export const IDLE_CLOSE_MS = 2000;
/** Bytes a connection may have buffered unread while its current line is being answered. */
const MAX_BUFFERED = 4 * MAX_LINE;
/** Connections served at once; the next is told `too_many_connections` and closed. */
export const MAX_CONNECTIONS = envInt("WS_MAX_CONNECTIONS", 1024);
/**
 * Slots at the top kept for short requests (CLI calls, agent hooks): a connection that lands there
 * may not hold it (subscribe, attach, wait, run), and is closed after RESERVED_IDLE_MS without a line.
 * So a program that leaks streams can't lock the user's own CLI out.
 */
export const RESERVED_SLOTS = Math.min(16, Math.floor(MAX_CONNECTIONS / 8));
export const RESERVED_IDLE_MS = 1000;
/** Messages that keep their connection for as long as the client likes. */
const HOLDS_CONNECTION = new Set(["subscribe", "attach", "wait_for", "run"]);
/** How long a refused connection stays half-open so the client can read why (see `refuseConnection`). */
const REFUSED_LINGER_MS = 1000;
/** Refused connections kept half-open at once; beyond this they are closed at once. */
const MAX_LINGERING = 64;
/** Lines over this size need room in the request memory budget. */
export const LARGE_LINE = 64 * 1024;
/** Bytes of large requests held at once, across every connection. */
export const REQUEST_BUDGET = envInt("WS_REQUEST_BUDGET", 32 * 1024 * 1024);
export const BUDGET_WAIT_MS = 2000;
/** Reply bytes a connection may have queued unread before the server stops reading its lines. */
export const MAX_QUEUED_REPLIES = 1024 * 1024;
/** A connection's lines are answered for at most this long before others get a turn. */
const FAIR_SLICE_MS = 4;


/** The shared memory budget for large requests: FIFO waiters, each with a deadline. */
export class Budget {
  private used = 0;
  private waiters: { bytes: number; grant: () => void }[] = [];
  constructor(readonly total: number) {}

  get inUse(): number {
    return this.used;
  }

  /** Resolves true once `bytes` are reserved, false after `waitMs` without room. */
  acquire(bytes: number, waitMs: number): Promise<boolean> {
    bytes = Math.min(bytes, this.total);
    if (!this.waiters.length && this.used + bytes <= this.total) {
      this.used += bytes;
      return Promise.resolve(true);
    }
    return new Promise((resolve) => {
      const w = {
        bytes,
        grant: () => {
          clearTimeout(timer);
          resolve(true);
        },
      };
      const timer = setTimeout(() => {
        this.waiters.splice(this.waiters.indexOf(w), 1);
        resolve(false);
        this.wake();
      }, waitMs);
      this.waiters.push(w);
    });
  }

  release(bytes: number): void {
    this.used = Math.max(0, this.used - Math.min(bytes, this.total));
    this.wake();
  }

  private wake(): void {
    while (this.waiters.length && this.used + this.waiters[0]!.bytes <= this.total) {
      const w = this.waiters.shift()!;
      this.used += w.bytes;
      w.grant();
    }
  }
}

interface LineState {
  chunks: Uint8Array[];
  size: number;
  busy: boolean;
  idle?: ReturnType<typeof setTimeout>;
  /** The client closed its write side: answer what is buffered, then close. */
  eof: boolean;
  style: LineStyle;
  /** In a reserved slot: short requests only, shorter idle time. */
  reserved: boolean;
  /** The pane the connection is (undefined: the person, on the main socket). */
  pane: number | undefined;
  /** On the panes' shared socket: settles once the peer is placed in a pane (or in none). */
  placing?: Promise<void>;
  /** On the panes' shared socket, and its peer is in no pane: every request is refused. */
  unplaced?: boolean;
}

/** Which pane a socket's connections are: one pane's own socket's, or each placed by its peer
 * (the panes' shared socket: server/pane-identity.ts); undefined: the main socket, the person's. */
export type PaneOf = number | ((conn: Connection) => Promise<number | undefined>) | undefined;

/** The refusal on the panes' shared socket for a peer in no pane. */
const unplacedRefusal = () =>
  new WsError("refused: this socket is the panes', and the process that connected runs in no ws pane (or was gone before the server could tell); use the main socket from outside ws", "forbidden", { grant: "report" });

export interface ListenerOptions {
  path: string;
  /** `pane`: the pane the connection is (undefined: the main socket). */
  context: (conn: Connection, pane: number | undefined) => HandlerContext;
  /** Why this connection may not send this message (its grants: trust.ts), or undefined. */
  authorize?: (entry: MessageEntry, params: Record<string, unknown>, conn: Connection, pane: number | undefined) => WsError | undefined | Promise<WsError | undefined>;
  /** Called when a connection opens; returning a string refuses it with that error line. */
  admit?: (conn: Connection) => string | undefined;
  onClose?: (conn: Connection) => void;
}

/** Serve the main socket. */
export function listen(o: ListenerOptions) {
  return createListener(o).listen(o.path);
}

/**
 * The server's connections: one connection limit, memory budget and set of rules over every socket
 * it listens on: the main socket, and the panes' (`listen(path, paneOf)`).
 */
export function createListener(o: Omit<ListenerOptions, "path">) {
  // Every connection holds a descriptor: serve no more than the share panes leave them (fd-limit.ts),
  // so `accept` is never the call that runs out.
  const maxConnections = Math.min(MAX_CONNECTIONS, connectionShare());
  const reservedSlots = Math.min(RESERVED_SLOTS, Math.floor(maxConnections / 8));
  let nextId = 1;
  let open = 0;
  let lingering = 0;
  const lines = new WeakMap<Connection, LineState>();
  const budget = new Budget(REQUEST_BUDGET);
  const tooLong = (conn: Connection, st: LineState | undefined) => {
    const message = `line too long (a line may be up to ${MAX_LINE} bytes)`;
    conn.write(st?.style.structured ? JSON.stringify({ v: 6, type: "error", code: "line_too_long", message }) + "\n" : plainError(message));
    conn.end();
  };

  const armIdle = (conn: Connection, st: LineState) => {
    clearTimeout(st.idle);
    st.idle = setTimeout(() => conn.end(), st.reserved ? RESERVED_IDLE_MS : IDLE_CLOSE_MS);
  };

  /**
   * Refuse a connection with an error line. Closing at once would reset the connection under a
   * client that is still writing its request, which then loses the line and reports "no server";
   * so shut our side, discard what it sends and close when it does (or after a moment).
   */
  const refuseConnection = (conn: Connection, message: string) => {
    conn.write(plainError(message));
    if (lingering >= MAX_LINGERING) return conn.end();
    lingering++;
    try {
      conn.socket.shutdown();
    } catch {}
    const timer = setTimeout(() => conn.close(), REFUSED_LINGER_MS);
    conn.signal.addEventListener("abort", () => {
      clearTimeout(timer);
      lingering--;
    });
  };

  /** A reserved slot answers short requests only. */
  const reservedRefusal = (entry: { type: string }) =>
    HOLDS_CONNECTION.has(entry.type)
      ? new WsError(
          `too many connections: the last ${reservedSlots} of this ws's ${maxConnections} are kept for short requests, so ${entry.type} can't have one now; something is holding many connections open (ws events, ws wait, ws attach, …)`,
          "too_many_connections",
        )
      : undefined;

  /** Wait until the client has taken its replies (bounded queue); drop it if it stalls. */
  const backpressure = async (conn: Connection) => {
    if (conn.queuedBytes <= MAX_QUEUED_REPLIES) return;
    const drained = conn.drained();
    const stalled = Bun.sleep(SLOW_CLIENT_MS).then(() => "stalled" as const);
    if ((await Promise.race([drained, stalled])) === "stalled" && conn.queuedBytes > 0) conn.close();
  };

  const pump = async (conn: Connection, st: LineState) => {
    if (st.busy || conn.closed || conn.reader) return;
    st.busy = true;
    let sliceStart = performance.now();
    try {
      if (st.placing) await st.placing;
      const pane = st.pane;
      while (!conn.closed && !conn.reader) {
        await backpressure(conn);
        // Lines answered at once resolve as microtasks, which never let I/O in: a client that
        // pipelines thousands would starve every other client. Yield every few milliseconds.
        if (performance.now() - sliceStart > FAIR_SLICE_MS) {
          await new Promise((r) => setImmediate(r));
          sliceStart = performance.now();
          if (conn.closed) break;
        }
        if (conn.closed) break;
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
          if (st.size > MAX_LINE) tooLong(conn, st);
          break;
        }
        const lineBytes = all.subarray(0, nl);
        const rest = all.subarray(nl + 1);
        st.chunks = rest.length ? [rest] : [];
        st.size = rest.length;
        if (lineBytes.length > MAX_LINE) {
          tooLong(conn, st);
          break;
        }
        const line = Buffer.from(lineBytes).toString("utf8").replace(/\r$/, "");
        if (!line.trim()) continue;
        clearTimeout(st.idle);
        // A large request holds its share of the budget until it has been answered.
        let held = 0;
        let refuse: WsError | undefined;
        if (lineBytes.length > LARGE_LINE) {
          if (await budget.acquire(lineBytes.length, BUDGET_WAIT_MS)) held = lineBytes.length;
          else refuse = new WsError(`busy: no memory for a ${lineBytes.length}-byte request within ${BUDGET_WAIT_MS} ms; nothing was done, retry`, "busy");
        }
        const authorize = o.authorize;
        const refuseHere =
          refuse ??
          (st.unplaced ? unplacedRefusal() : undefined) ??
          (st.reserved || authorize
            ? (entry: MessageEntry, params: Record<string, unknown>) => (st.reserved ? reservedRefusal(entry) : undefined) ?? authorize?.(entry, params, conn, pane)
            : undefined);
        const afterReply: (() => void)[] = [];
        const ctx: HandlerContext = { ...o.context(conn, pane), signal: conn.signal, afterReply: (fn) => void afterReply.push(fn) };
        let d;
        try {
          d = await dispatchLine(line, ctx, { style: st.style, refuse: refuseHere });
        } finally {
          if (held) budget.release(held);
        }
        const attaching = d.entry?.type === "attach" && d.after;
        // An accepted attach answers with frames, never a plain `ok` (spec: "The attach stream").
        if (!attaching) conn.write(d.reply);
        for (const fn of afterReply) fn();
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
        if (conn.reader) {
          // A stream (subscribe) took the connection over: what the client sends later is its own.
          st.chunks = [];
          break;
        }
      }
    } catch (e) {
      log.error("connection failed:", e);
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

  /** Connections that are a pane, by pane: they close with it. */
  const ofPane = new Map<number, Set<Connection>>();
  const place = (conn: Connection, st: LineState, pane: number | undefined) => {
    st.pane = pane;
    if (pane === undefined) return;
    let set = ofPane.get(pane);
    if (!set) ofPane.set(pane, (set = new Set()));
    set.add(conn);
  };

  const handlers = (paneOf: PaneOf) => ({
    open(socket: Socket<{ conn: Connection }>) {
      const conn = new Connection(socket, nextId++);
      socket.data = { conn };
      open++;
      if (open > maxConnections) {
        // Told before anything else is read, in the one form every client of every version reads.
        return refuseConnection(conn, `too many connections (this ws serves at most ${maxConnections} at once)`);
      }
      const refusal = o.admit?.(conn);
      if (refusal) return refuseConnection(conn, refusal);
      const reserved = open > maxConnections - reservedSlots;
      const st: LineState = { chunks: [], size: 0, busy: false, eof: false, style: { structured: false }, reserved, pane: undefined };
      lines.set(conn, st);
      if (typeof paneOf === "function") {
        st.unplaced = true; // until placed
        st.placing = paneOf(conn).then(
          (pane) => {
            st.placing = undefined;
            if (pane === undefined || conn.closed) return;
            st.unplaced = false;
            place(conn, st, pane);
          },
          (e) => {
            st.placing = undefined;
            log.error("placing a connection in its pane failed:", e);
          },
        );
      } else place(conn, st, paneOf);
      armIdle(conn, st);
    },
    data(socket: Socket<{ conn: Connection }>, bytes: Buffer) {
      const conn = socket.data.conn;
      if (conn.reader) return conn.reader.data(bytes);
      const st = lines.get(conn);
      if (!st || conn.closed) return;
      st.chunks.push(bytes);
      st.size += bytes.length;
      if (st.size > MAX_BUFFERED + MAX_LINE) {
        tooLong(conn, st);
        return;
      }
      void pump(conn, st);
    },
    end(socket: Socket<{ conn: Connection }>) {
      const conn = socket.data.conn;
      if (conn.reader) return conn.reader.halfClose ? conn.reader.halfClose() : conn.reader.close();
      const st = lines.get(conn);
      if (!st) return conn.close();
      st.eof = true;
      void pump(conn, st).then(() => {
        if (!st.busy && !conn.reader) conn.end();
      });
    },
    drain(socket: Socket<{ conn: Connection }>) {
      socket.data.conn.flush();
    },
    close(socket: Socket<{ conn: Connection }>) {
      const conn = socket.data?.conn;
      if (!conn) return;
      open--;
      const st = lines.get(conn);
      if (st) clearTimeout(st.idle);
      if (st?.pane !== undefined) ofPane.get(st.pane)?.delete(conn);
      conn.gone();
      conn.reader?.close();
      o.onClose?.(conn);
    },
    error(socket: Socket<{ conn: Connection }>, err: Error) {
      // Bun reports a throw from any handler above here: that connection goes, nothing else.
      log.error("socket error:", err?.message ?? err);
      socket.data?.conn.close();
    },
  });

  return {
    /** Listen on `path`; `paneOf`: it is a pane's own socket (a pane id), or the panes' shared one
     * (a function placing each connection). */
    listen(path: string, paneOf?: PaneOf) {
      return Bun.listen<{ conn: Connection }>({ unix: path, allowHalfOpen: true, socket: handlers(paneOf) });
    },
    /** Pane `id` closed: so do the connections that are it. */
    closePane(id: number) {
      const set = ofPane.get(id);
      ofPane.delete(id);
      for (const conn of set ?? []) conn.close();
    },
  };
}
