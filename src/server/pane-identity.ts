// Which pane a connection on the panes' shared socket comes from (docs/security.md "Grants"), asked
// of the kernel, never of the client: the peer's pid (SO_PEERCRED), then
//  1. the process tree: a process in the session a pane's program leads, or below it, is that pane,
//     whatever its environment says (a process can set any variable for a child, and an unboxed one
//     can read another pane's environment, but none can move itself into another pane's tree);
//  2. else the pane key in that process's environment as it was started (/proc/PID/environ): each
//     pane's program gets a random WS_PANE_KEY, and whatever it starts keeps it, through `setsid`, a
//     double fork or a tmux server, which leave the tree, as it keeps its WS_SOCKET. A box can't read
//     another's environment, and a key is never shown or saved.
// Neither: no pane, and the connection is refused (never taken for the person's).
import { closeSync, openSync, readSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { paneOfProcess } from "../features/approvals/peer";
import { peerPid } from "../platform";

/** The variable that carries a pane's key. */
export const PANE_KEY_VAR = "WS_PANE_KEY";
/** A process's environment is read this far for the key (what's beyond counts as no key). */
const ENVIRON_READ_MAX = 256 * 1024;

/** The keys of the live panes. */
export class PaneKeys {
  private byKey = new Map<string, number>();
  private byPane = new Map<number, string>();

  /** Pane `id`'s key, made on first ask (before its program starts). */
  keyFor(id: number): string {
    let key = this.byPane.get(id);
    if (!key) {
      key = randomBytes(16).toString("hex");
      this.byPane.set(id, key);
      this.byKey.set(key, id);
    }
    return key;
  }

  paneOf(key: string): number | undefined {
    return this.byKey.get(key);
  }

  /** The pane closed: its key names nobody any more. */
  forget(id: number): void {
    const key = this.byPane.get(id);
    if (key) this.byKey.delete(key);
    this.byPane.delete(id);
  }
}

/**
 * The pane the process on the other end of socket `fd` runs in, or undefined when it is in none
 * (or the kernel can't say who it is). `panePids` maps each running pane's program pid to its id.
 */
export async function paneOfPeer(fd: number | undefined, keys: PaneKeys, panePids: () => ReadonlyMap<number, number>): Promise<number | undefined> {
  const pid = peerPid(fd);
  if (pid === undefined) return undefined;
  const where = await paneOfProcess(pid, panePids());
  if (typeof where === "number") return where;
  const key = environValue(pid, PANE_KEY_VAR);
  return key ? keys.paneOf(key) : undefined;
}

/** `name`'s value in the environment process `pid` started with (Linux), or undefined. */
export function environValue(pid: number, name: string): string | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(`/proc/${pid}/environ`, "r");
    const buf = Buffer.allocUnsafe(ENVIRON_READ_MAX);
    let n = 0;
    for (let got = 1; got > 0 && n < buf.length; n += got) got = readSync(fd, buf, n, buf.length - n, null);
    const want = Buffer.from(`${name}=`);
    for (let at = 0; at < n; ) {
      const end = buf.indexOf(0, at);
      const stop = end < 0 || end > n ? n : end;
      if (stop - at > want.length && buf.subarray(at, at + want.length).equals(want)) {
        // A value cut off by the read's end is no key.
        return end < 0 || end > n ? undefined : buf.toString("utf8", at + want.length, stop);
      }
      at = stop + 1;
    }
    return undefined;
  } catch {
    return undefined; // gone, or not ours to read
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
