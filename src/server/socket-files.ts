// The socket files themselves: the server makes its private directory, and the server and the
// CLI's start, kill and doctor commands probe a socket for a live server and remove stale ones.
import { chmodSync, existsSync, mkdirSync, unlinkSync } from "node:fs";
import { UnsafeSocket, checkClientSocket, connectChecked, socketDirProblem } from "../platform/socket-check";
import { lstatEntry } from "../platform/lstat";

/**
 * Make the socket directory (0700) or check an existing one: it must be a real directory owned by
 * us. A symlink or someone else's directory could let another user see or spoof the socket.
 */
export function ensureSocketDir(dir: string): void {
  if (!existsSync(dir)) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    chmodSync(dir, 0o700); // mkdir's mode is filtered by the umask
  }
  const problem = socketDirProblem(dir);
  if (problem) throw new UnsafeSocket(problem);
  if ((lstatEntry(dir)!.mode & 0o777) !== 0o700) chmodSync(dir, 0o700);
}

/** Whether something answers on a socket path: "live", "stale" (file, nobody listening) or "missing". Rejects with UnsafeSocket (unconnected) when the socket must not be used. */
export async function probeSocket(path: string, timeoutMs = 1000): Promise<"live" | "stale" | "missing"> {
  checkClientSocket(path);
  if (!existsSync(path)) return "missing";
  return new Promise((resolve) => {
    let done = false;
    const finish = (r: "live" | "stale") => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      resolve(r);
    };
    const timer = setTimeout(() => finish("live"), timeoutMs); // slow but present: don't call it stale
    connectChecked(path, {
      open(s) {
        finish("live");
        s.end();
      },
      data() {},
      error() {},
      connectError() {
        finish("stale");
      },
    }).catch(() => finish("stale"));
  });
}

export function removeIfPresent(path: string): void {
  try {
    unlinkSync(path);
  } catch {}
}
