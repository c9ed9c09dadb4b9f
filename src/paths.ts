// Where sockets live and the rules that keep them private (spec: "Finding the socket").
import type { Socket, SocketHandler } from "bun";
import { lstatSync, mkdirSync, chmodSync, existsSync, unlinkSync } from "node:fs";
import { basename, dirname, join } from "node:path";

export type Env = Record<string, string | undefined>;

/** The per-user socket directory: $XDG_RUNTIME_DIR/ws, else $TMPDIR/ws-<uid>, else /tmp/ws-<uid>. */
export function socketDir(env: Env = process.env): string {
  if (env.XDG_RUNTIME_DIR) return join(env.XDG_RUNTIME_DIR, "ws");
  const tmp = (env.TMPDIR || "/tmp").replace(/\/+$/, "") || "/";
  return join(tmp, `ws-${process.getuid!()}`);
}

/** `-L NAME` → `NAME.sock`; characters other than ASCII letters, digits, `-` and `_` become `_`. */
export function sanitizeName(name: string): string {
  return name.replace(/[^A-Za-z0-9_-]/g, "_");
}

export interface SocketChoice {
  name?: string; // -L NAME
  local?: boolean; // --local: ws-<pid>.sock
}

/** A --local server's socket (ws-<pid>.sock): private to one client, never restored by name. */
export const isLocalSocket = (path: string) => /^ws-\d+\.sock$/.test(basename(path));

/** The socket a command should use. Inside a pane WS_SOCKET wins unless -L or --local says otherwise. */
export function socketPath(choice: SocketChoice = {}, env: Env = process.env): string {
  if (choice.local) return join(socketDir(env), `ws-${process.pid}.sock`);
  if (choice.name === undefined && env.WS_SOCKET) return env.WS_SOCKET;
  return join(socketDir(env), `${sanitizeName(choice.name ?? "default")}.sock`);
}

/** A socket or socket directory that must not be used: someone else could see or spoof it. */
export class UnsafeSocket extends Error {}

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
  if ((lstatSync(dir).mode & 0o777) !== 0o700) chmodSync(dir, 0o700);
}

/**
 * Why a socket directory must not be used, or undefined when it is fine (or absent). The server
 * repairs a mode of its own directory; a client (`private`) wants it to be 0700 already.
 */
export function socketDirProblem(dir: string, opts: { private?: boolean } = {}): string | undefined {
  let st;
  try {
    st = lstatSync(dir);
  } catch {
    return undefined;
  }
  if (st.isSymbolicLink()) return `socket directory ${dir} is a symlink; refusing to use it (remove it and retry)`;
  if (!st.isDirectory()) return `socket directory ${dir} is not a directory; refusing to use it`;
  if (st.uid !== process.getuid!())
    return `socket directory ${dir} is owned by uid ${st.uid}, not you (uid ${process.getuid!()}); refusing to use it`;
  const mode = st.mode & 0o777;
  if (opts.private && mode !== 0o700)
    return `socket directory ${dir} has mode ${mode.toString(8)}, expected 700; refusing to use it (chmod 700 ${dir})`;
  return undefined;
}

/**
 * Why a client must not connect to `path`, or undefined. Every client checks, before it connects,
 * what the server checks before it listens (the directory is ours, 0700, not a symlink) and that
 * the socket itself is ours: otherwise another user could pose as the server and read what we
 * send. lstat only, so it costs microseconds. A missing socket is no problem: connect says so.
 */
export function clientSocketProblem(path: string): string | undefined {
  const problem = socketDirProblem(dirname(path), { private: true });
  if (problem) return problem;
  let st;
  try {
    st = lstatSync(path);
  } catch {
    return undefined;
  }
  if (st.isSymbolicLink()) return `socket ${path} is a symlink; refusing to use it`;
  if (!st.isSocket()) return `${path} is not a socket; refusing to use it`;
  if (st.uid !== process.getuid!()) return `socket ${path} is owned by uid ${st.uid}, not you (uid ${process.getuid!()}); refusing to use it`;
  return undefined;
}

/** Throw UnsafeSocket when a client must not connect to `path` (clientSocketProblem). */
export function checkClientSocket(path: string): void {
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
