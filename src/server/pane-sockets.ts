// Each pane's own socket, where the server can't tell panes apart by their peers (macOS; on Linux
// panes share one: pane-socket-shared.ts): `<socket dir>/<server name>.panes/<id>.sock`,
// mode 0600 in a 0700 directory (paths.ts paneSocketDir). It is made just before the pane's program
// starts, named by its WS_SOCKET, and every connection that arrives there is that pane, with that
// pane's grants, whatever its ancestry. Closed and removed when the pane closes and when the server
// stops; a restore makes them again. One listening descriptor per pane (docs/limits.md).
import { chmodSync, readdirSync, rmdirSync } from "node:fs";
import { paneSocketDir, paneSocketPath } from "../paths";
import { socketPathProblem } from "../platform/socket-check";
import { ensureSocketDir, removeIfPresent } from "./socket-files";
import type { PaneOf } from "./listener";

export interface Listening {
  stop(closeActive?: boolean): void;
}

/** How the server gives panes a socket: one each (PaneSockets), or one shared (pane-socket-shared.ts). */
export interface PaneSocketSet {
  socketFor(id: number): string;
  /** The key pane `id`'s environment carries, where connections are told apart by it. */
  keyFor?(id: number): string;
  /** The live pane whose key `key` is. */
  paneOfKey?(key: string): number | undefined;
  /** The listener is up: listen where panes were told to connect. */
  ready(listen: (path: string, paneOf: PaneOf) => Listening): void;
  close(id: number): void;
  closeAll(): void;
  readonly count: number;
}

export class PaneSockets implements PaneSocketSet {
  private open = new Map<number, Listening>();
  /** Paths named before the listener could serve them (a restore runs before it): bound at `ready`. */
  private waiting = new Set<number>();
  private listen: ((path: string, pane: number) => Listening) | undefined;
  private warned = false;

  constructor(
    private mainSocket: string,
    private warn: (message: string) => void,
  ) {}

  /** The socket a pane gets as its WS_SOCKET: its own; the main socket when its own can't be made
   * (a socket directory so long that the pane's path passes the 103 bytes a socket path may have). */
  socketFor(id: number): string {
    const path = paneSocketPath(this.mainSocket, id);
    const problem = socketPathProblem(path);
    if (problem) {
      if (!this.warned) this.warn(`panes get the main socket, not one of their own: ${problem}`);
      this.warned = true;
      return this.mainSocket;
    }
    if (this.open.has(id)) return path;
    try {
      ensureSocketDir(paneSocketDir(this.mainSocket));
      if (this.listen) this.bind(id, path);
      else this.waiting.add(id);
      return path;
    } catch (e) {
      if (!this.warned) this.warn(`can't make pane ${id}'s socket, so it gets the main socket: ${(e as Error).message}`);
      this.warned = true;
      return this.mainSocket;
    }
  }

  /** The listener is up: bind the sockets named before it. */
  ready(listen: (path: string, pane: number) => Listening): void {
    this.listen = listen;
    for (const id of this.waiting) {
      try {
        this.bind(id, paneSocketPath(this.mainSocket, id));
      } catch (e) {
        this.warn(`can't listen on pane ${id}'s socket: ${(e as Error).message}`);
      }
    }
    this.waiting.clear();
  }

  private bind(id: number, path: string): void {
    removeIfPresent(path); // one a crashed server left
    // Never reachable by others, not even between bind and chmod.
    const oldMask = process.umask(0o177);
    try {
      this.open.set(id, this.listen!(path, id));
    } finally {
      process.umask(oldMask);
    }
    chmodSync(path, 0o600);
  }

  /** The pane closed: its socket goes, and with it every connection on it. */
  close(id: number): void {
    this.waiting.delete(id);
    const l = this.open.get(id);
    if (!l) return;
    this.open.delete(id);
    l.stop(true);
    removeIfPresent(paneSocketPath(this.mainSocket, id));
  }

  /** The server stops: every pane socket, and their directory. */
  closeAll(): void {
    for (const id of [...this.open.keys()]) this.close(id);
    this.waiting.clear();
    const dir = paneSocketDir(this.mainSocket);
    try {
      for (const n of readdirSync(dir)) if (/^\d+\.sock$/.test(n)) removeIfPresent(`${dir}/${n}`);
      rmdirSync(dir);
    } catch {}
  }

  get count(): number {
    return this.open.size;
  }
}
