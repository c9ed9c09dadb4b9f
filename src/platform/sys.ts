// The libc calls both implementations share (declared in ffi.ts): getsid and getrlimit/setrlimit
// (POSIX, in every libc) and getsockopt for a Unix socket's peer. Loaded once from this system's C library (glibc's
// libc.so.6 on Linux, libSystem on macOS); where that fails (musl, an unknown system) every answer
// is undefined and callers treat it as unknown.
import { cLibrary } from "./ffi";
import { hostOs } from "./os";

const sys = cLibrary.sys;

/** The session `pid` belongs to (getsid); 0 when its leader is outside this pid namespace (a
 * container's first process, say); undefined when it is gone or can't be asked. */
export function sessionId(pid: number): number | undefined {
  const sid = sys()?.getsid(pid);
  return sid !== undefined && sid >= 0 ? sid : undefined;
}

/** Linux: SO_PEERCRED's struct ucred { pid, uid, gid }, which the peer cannot forge. */
export function peerCredPid(fd: number): number | undefined {
  const SOL_SOCKET = 1; // the same on x86_64 and aarch64
  const SO_PEERCRED = 17;
  const cred = new Int32Array(3);
  return peerOption(fd, SOL_SOCKET, SO_PEERCRED, cred, 12);
}

/** macOS: LOCAL_PEERPID, the pid that connected (getpeereid gives only uid and gid). Not run
 * here: it is the one darwin-only answer, and it fails to undefined. */
export function localPeerPid(fd: number): number | undefined {
  const SOL_LOCAL = 0;
  const LOCAL_PEERPID = 2;
  return peerOption(fd, SOL_LOCAL, LOCAL_PEERPID, new Int32Array(1), 4);
}

function peerOption(fd: number, level: number, name: number, buf: Int32Array, size: number): number | undefined {
  const s = sys();
  if (!s || fd < 0) return undefined;
  const len = new Uint32Array([size]);
  if (s.getsockopt(fd, level, name, buf, len) !== 0) return undefined;
  return buf[0]! > 0 ? buf[0] : undefined;
}

export interface Limits {
  soft: number;
  hard: number;
}

/** RLIMIT_NOFILE: 7 on Linux (asm-generic, x86_64 and aarch64 alike), 8 on macOS and the BSDs. */
const RLIMIT_NOFILE = hostOs === "linux" ? 7 : 8;

/** The descriptor limits (RLIMIT_NOFILE), to read and set; null where libc can't be loaded. */
export function fileLimits(): { get(): Limits | undefined; set(l: Limits): boolean } | null {
  const s = sys();
  if (!s) return null;
  // struct rlimit: two rlim_t (u64) on every 64-bit system ws is built for.
  return {
    get() {
      const buf = new BigUint64Array(2);
      if (s.getrlimit(RLIMIT_NOFILE, buf) !== 0) return undefined;
      const n = (v: bigint) => (v > BigInt(Number.MAX_SAFE_INTEGER) ? Infinity : Number(v));
      return { soft: n(buf[0]!), hard: n(buf[1]!) };
    },
    set(l) {
      const v = (n: number) => (Number.isFinite(n) ? BigInt(n) : 0xffffffffffffffffn);
      return s.setrlimit(RLIMIT_NOFILE, new BigUint64Array([v(l.soft), v(l.hard)])) === 0;
    },
  };
}
