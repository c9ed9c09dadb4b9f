// A client connection through `ssh HOST ws proxy`, shaped like the Bun socket the clients already
// drive (request, stream, attach): the same handler callbacks, write/end/timeout. Bytes after the
// preamble are the remote server's, unchanged.
import type { Socket, SocketHandler } from "bun";
import { ConnectionFailure, type Connect } from "../client/connect";
import { lastLines, openBridge, quietly, settledStderr } from "./ssh";

export interface BridgeOptions {
  name?: string;
  /** Start the remote server when none runs (attach, start). */
  start?: boolean;
}

/** The part of Bun's Socket the clients use. */
interface BridgeSocket {
  write(bytes: Uint8Array | string): number;
  end(): void;
  timeout(seconds: number): void;
  readonly remoteHost: string;
}

export function bridgeConnector(host: string, opts: BridgeOptions = {}): Connect {
  return (<T>(_path: string, handler: SocketHandler<T>): Promise<Socket<T>> => connectBridge(host, opts, handler)) as Connect;
}

async function connectBridge<T>(host: string, opts: BridgeOptions, handler: SocketHandler<T>): Promise<Socket<T>> {
  const bridge = await openBridge(host, opts);
  const { proc, reader } = bridge;
  let ended = false;
  let closed = false;
  let idleMs = 0;
  let idleTimer: ReturnType<typeof setTimeout> | undefined;
  const armIdle = () => {
    clearTimeout(idleTimer);
    if (idleMs && !closed) idleTimer = setTimeout(() => handler.timeout?.(sock as unknown as Socket<T>), idleMs);
  };
  const sock: BridgeSocket = {
    remoteHost: host,
    write(bytes) {
      if (ended || closed) return 0;
      const data = typeof bytes === "string" ? new TextEncoder().encode(bytes) : bytes;
      // ssh's stdin pipe takes it all (the sink buffers what the pipe can't yet), so nothing is
      // ever partly written here; flush so it leaves now, not at the next write.
      try {
        quietly(proc.stdin.write(data));
        quietly(proc.stdin.flush());
      } catch {
        return 0; // ssh has gone: its exit ends the stream (below)
      }
      return data.length;
    },
    end() {
      if (ended) return;
      ended = true;
      try {
        quietly(proc.stdin.end());
      } catch {}
    },
    timeout(seconds) {
      idleMs = seconds * 1000;
      armIdle();
    },
  };
  const s = sock as unknown as Socket<T>;
  handler.open?.(s);
  (async () => {
    if (bridge.rest.length) handler.data?.(s, Buffer.from(bridge.rest));
    for (;;) {
      const r = await reader.read();
      if (r.done) break;
      armIdle();
      handler.data?.(s, Buffer.from(r.value));
    }
    const code = await proc.exited;
    closed = true;
    clearTimeout(idleTimer);
    // ssh ending by a signal or with its own failure (255) while we still wanted the stream: the
    // connection was lost, not closed by the server.
    if (!ended && (code === 255 || proc.signalCode)) {
      const said = lastLines(await settledStderr(bridge));
      handler.error?.(s, new ConnectionFailure(`the connection to ${host} was lost${said ? ` (${said})` : proc.signalCode ? ` (ssh ended by ${proc.signalCode})` : ""}; the ws server there keeps running`));
    }
    handler.close?.(s, undefined);
  })().catch((e) => {
    closed = true;
    handler.error?.(s, e as Error);
    handler.close?.(s, undefined);
  });
  return s;
}
