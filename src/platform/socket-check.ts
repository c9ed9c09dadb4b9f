// The rules every client applies before it connects (spec: "Finding the socket"): the socket
// directory is a real directory, ours, mode 0700; the socket is a socket, ours. Otherwise another
// user could pose as the server and read what we send. lstat only (lstat.ts): a check
// costs microseconds once glibc is at hand, and loads no node module.
import type { Socket, SocketHandler } from "bun";
import { lstatEntry } from "./lstat";
import { parentDir } from "../paths";

/** A socket or socket directory that must not be used: someone else could see or spoof it. */
export class UnsafeSocket extends Error {}

/** A socket path longer than every system can bind or connect to (socketPathProblem). */
export class SocketPathTooLong extends UnsafeSocket {}

/** The longest path a Unix socket may have everywhere ws runs: macOS's sun_path holds 104 bytes
 * with the closing NUL (Linux's 108). Every socket ws makes or reaches is held to it. */
export const SOCKET_PATH_MAX = 103;

/** Why `path` can't be a socket's path (too long for sun_path), or undefined when it can. */
export function socketPathProblem(path: string): string | undefined {
  const bytes = new TextEncoder().encode(path).length;
  if (bytes <= SOCKET_PATH_MAX) return undefined;
  return `socket path ${path} is ${bytes} bytes, longer than the ${SOCKET_PATH_MAX} a Unix socket's path may have (macOS); set XDG_RUNTIME_DIR or TMPDIR to a shorter directory, or use a shorter -L name`;
}

/** Throw SocketPathTooLong when `path` can't be a socket's path: the one check for every socket
 * ws listens on or connects to (the server's, ssh's ControlPath, a Neovim's). */
export function checkSocketPath(path: string): void {
  const problem = socketPathProblem(path);
  if (problem) throw new SocketPathTooLong(problem);
}

/**
 * Why a socket directory must not be used, or undefined when it is fine (or absent). The server
 * repairs a mode of its own directory; a client (`private`) wants it to be 0700 already.
 */
export function socketDirProblem(dir: string, opts: { private?: boolean } = {}): string | undefined {
  const st = lstatEntry(dir);
  if (!st) return undefined;
  if (st.kind === "symlink") return `socket directory ${dir} is a symlink; refusing to use it (remove it and retry)`;
  if (st.kind !== "directory") return `socket directory ${dir} is not a directory; refusing to use it`;
  const uid = process.getuid!();
  if (st.uid !== uid) return `socket directory ${dir} is owned by uid ${st.uid}, not you (uid ${uid}); refusing to use it`;
  const mode = st.mode & 0o777;
  if (opts.private && mode !== 0o700)
    return `socket directory ${dir} has mode ${mode.toString(8)}, expected 700; refusing to use it (chmod 700 ${dir})`;
  return undefined;
}

/**
 * Why a client must not connect to `path`, or undefined. Every client checks, before it connects,
 * what the server checks before it listens (the directory is ours, 0700, not a symlink) and that
 * the socket itself is ours. A missing socket is no problem: connect says so.
 */
export function clientSocketProblem(path: string): string | undefined {
  const problem = socketDirProblem(parentDir(path), { private: true });
  if (problem) return problem;
  const st = lstatEntry(path);
  if (!st) return undefined;
  if (st.kind === "symlink") return `socket ${path} is a symlink; refusing to use it`;
  if (st.kind !== "socket") return `${path} is not a socket; refusing to use it`;
  const uid = process.getuid!();
  if (st.uid !== uid) return `socket ${path} is owned by uid ${st.uid}, not you (uid ${uid}); refusing to use it`;
  return undefined;
}

/** Throw UnsafeSocket when a client must not connect to `path` (clientSocketProblem), or
 * SocketPathTooLong when it can't. */
export function checkClientSocket(path: string): void {
  checkSocketPath(path);
  const problem = clientSocketProblem(path);
  if (problem) throw new UnsafeSocket(`${problem}. Another user may be posing as the ws server; nothing was sent`);
}

/** Every client connection: check `path` first; an unsafe socket rejects with UnsafeSocket, unconnected. */
export function connectChecked<T = undefined>(path: string, socket: SocketHandler<T>): Promise<Socket<T>> {
  try {
    checkClientSocket(path);
  } catch (e) {
    return Promise.reject(e);
  }
  return Bun.connect<T>({ unix: path, socket });
}
