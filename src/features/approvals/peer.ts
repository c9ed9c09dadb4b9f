// Who is on the other end of a connection: the peer's pid from the kernel (SO_PEERCRED, which the
// peer cannot forge), and whether that process descends from one of ws's panes. The approvals
// guard (docs/security.md "Approvals") uses it so that a program inside a pane can't answer an
// agent's permission request.
import { dlopen, FFIType, ptr } from "bun:ffi";
import * as linux from "../../platform/linux";

// Linux values, the same on x86_64 and aarch64.
const SOL_SOCKET = 1;
const SO_PEERCRED = 17;
/** Parents followed at most: far more than any real process tree is deep. */
const MAX_DEPTH = 256;

type GetSockOpt = (fd: number, level: number, name: number, val: unknown, len: unknown) => number;
let getsockopt: GetSockOpt | null | undefined;

function load() {
  if (getsockopt !== undefined) return getsockopt;
  try {
    const lib = dlopen("libc.so.6", {
      getsockopt: { args: [FFIType.i32, FFIType.i32, FFIType.i32, FFIType.ptr, FFIType.ptr], returns: FFIType.i32 },
    });
    getsockopt = lib.symbols.getsockopt as unknown as GetSockOpt;
  } catch {
    getsockopt = null; // not glibc Linux: callers treat the peer as unknown
  }
  return getsockopt;
}

/** The pid of the process that connected on `fd` (a Unix socket), or undefined where it can't be read. */
export function peerPid(fd: number | undefined): number | undefined {
  if (fd === undefined || fd < 0 || process.platform !== "linux") return undefined;
  const fn = load();
  if (!fn) return undefined;
  const cred = new Int32Array(3); // struct ucred { pid_t pid; uid_t uid; gid_t gid; }
  const len = new Uint32Array([12]);
  if (fn(fd, SOL_SOCKET, SO_PEERCRED, ptr(cred), ptr(len)) !== 0) return undefined;
  return cred[0]! > 0 ? cred[0] : undefined;
}

/**
 * The pane `pid` runs in, if any: a pane's program is a session leader (ws starts it with setsid),
 * so a process in that session, or one whose ancestry reaches a pane's program, is inside it.
 * `panePids` maps a pane's program pid to the pane's id.
 */
export function paneOfProcess(pid: number, panePids: ReadonlyMap<number, number>): number | undefined {
  let p = pid;
  for (let depth = 0; depth < MAX_DEPTH && p > 1; depth++) {
    const direct = panePids.get(p);
    if (direct !== undefined) return direct;
    const st = linux.statSync(p);
    if (!st) return undefined;
    const bySession = panePids.get(st.session);
    if (bySession !== undefined) return bySession;
    p = st.ppid;
  }
  return undefined;
}
