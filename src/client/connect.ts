// How a client reaches its server: the local socket (connectChecked), or, with -H HOST, a bridge
// through ssh that the remote module installs here. Every client connection goes through
// connectClient, so requests, streams and attach work the same either way; the local path pays one
// function call for it and loads nothing more.
import type { Socket, SocketHandler } from "bun";
import { connectChecked } from "../platform/socket-check";

export type Connect = <T = undefined>(path: string, handler: SocketHandler<T>) => Promise<Socket<T>>;

/** A failure whose message already says it all (ssh's, the remote ws's): passed on as it is. */
export class ConnectionFailure extends Error {}

let via: Connect = connectChecked;
/** What messages call the server when connections go elsewhere (ws -H: "HOST"). */
let viaName: string | undefined;

export function connectClient<T = undefined>(path: string, handler: SocketHandler<T>): Promise<Socket<T>> {
  return via(path, handler);
}

/** Route every later client connection through `connect` (ws -H: src/remote/bridge-socket.ts). */
export function useConnector(connect: Connect, name?: string): void {
  via = connect;
  viaName = name;
}

/** The server as messages name it: the socket's path, or with -H the host (whose socket is not this machine's). */
export function serverName(socketPath: string): string {
  return viaName ?? socketPath;
}

/** Whether client connections go to this machine's own socket (no -H bridge). */
export function connectsLocally(): boolean {
  return via === connectChecked;
}
