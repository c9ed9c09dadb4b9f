// The panes' shared socket (Linux): one listening descriptor for every pane, where a socket of each
// pane's own (pane-sockets.ts, kept where the server can't tell peers apart) costs one a pane.
// `<socket dir>/<server name>.panes/panes.sock`, mode 0600 in the 0700 directory; every pane's
// WS_SOCKET names it, a box binds it in, and each connection there is the pane its peer runs in
// (pane-identity.ts), with that pane's grants; a peer in no pane is refused, never the person.
import { chmodSync, rmdirSync } from "node:fs";
import { paneSocketDir, sharedPaneSocketPath } from "../paths";
import { socketPathProblem } from "../platform/socket-check";
import { ensureSocketDir, removeIfPresent } from "./socket-files";
import type { Connection } from "../protocol/connection";
import { PaneKeys, paneOfPeer } from "./pane-identity";
import type { Listening, PaneSocketSet } from "./pane-sockets";

/** How a connection is placed in a pane: `identify` resolves it (undefined: in none). */
export type Identify = (conn: Connection) => Promise<number | undefined>;

export class SharedPaneSocket implements PaneSocketSet {
  readonly keys = new PaneKeys();
  private listening: Listening | undefined;
  private listen: ((path: string, paneOf: Identify) => Listening) | undefined;
  private wanted = false;
  private warned = false;

  constructor(
    private mainSocket: string,
    private warn: (message: string) => void,
    /** Each running pane's program pid to its id (the process-tree layer). */
    private panePids: () => ReadonlyMap<number, number>,
  ) {}

  get path(): string {
    return sharedPaneSocketPath(this.mainSocket);
  }

  /** The socket pane `id` gets as its WS_SOCKET: the shared one; the main socket where it can't be
   * made (a socket directory so long that its path passes the 103 bytes a socket path may have). */
  socketFor(_id: number): string {
    const problem = socketPathProblem(this.path);
    if (problem) return this.fallBack(`panes get the main socket, not one of their own: ${problem}`);
    try {
      ensureSocketDir(paneSocketDir(this.mainSocket));
    } catch (e) {
      return this.fallBack(`can't make the panes' socket, so they get the main socket: ${(e as Error).message}`);
    }
    this.wanted = true;
    // Bound before the pane's program starts (a box binds it in); a restore's panes come before
    // the listener, and get it at `ready`.
    if (this.listen && !this.listening) this.bind(this.listen);
    return this.path;
  }

  /** Pane `id`'s key, which its program's environment carries (pane-identity.ts). */
  keyFor(id: number): string {
    return this.keys.keyFor(id);
  }

  paneOfKey(key: string): number | undefined {
    return this.keys.paneOf(key);
  }

  /** The listener is up: bind the shared socket if a pane has named it already. */
  ready(listen: (path: string, paneOf: Identify) => Listening): void {
    this.listen = listen;
    if (this.wanted && !this.listening) this.bind(listen);
  }

  private bind(listen: (path: string, paneOf: Identify) => Listening): void {
    removeIfPresent(this.path); // one a crashed server left
    // Never reachable by others, not even between bind and chmod.
    const oldMask = process.umask(0o177);
    try {
      this.listening = listen(this.path, (conn) => paneOfPeer((conn.socket as { fd?: number }).fd, this.keys, this.panePids));
    } catch (e) {
      this.warn(`can't listen on the panes' socket: ${(e as Error).message}`);
      return;
    } finally {
      process.umask(oldMask);
    }
    chmodSync(this.path, 0o600);
  }

  private fallBack(why: string): string {
    if (!this.warned) this.warn(why);
    this.warned = true;
    return this.mainSocket;
  }

  /** The pane closed: its key goes (its connections are the listener's to close). */
  close(id: number): void {
    this.keys.forget(id);
  }

  /** The server stops: the socket and its directory. */
  closeAll(): void {
    this.listening?.stop(true);
    this.listening = undefined;
    removeIfPresent(this.path);
    try {
      rmdirSync(paneSocketDir(this.mainSocket));
    } catch {}
  }

  get count(): number {
    return this.listening ? 1 : 0;
  }
}
