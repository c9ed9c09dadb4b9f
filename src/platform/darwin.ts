// macOS's libproc (proc_pidinfo, declared in ffi.ts): a process's cwd, parent, terminal's foreground group and name
// without starting ps or lsof. Only on darwin, and never run on this project's Linux CI: every
// call checks what it got (the answer names the pid asked about) and returns undefined when the
// library won't load or the answer doesn't fit, and the portable path then asks ps/lsof instead.
import { libproc } from "./ffi";

// <sys/proc_info.h>
const PROC_PIDTBSDINFO = 3;
export const BSDINFO_SIZE = 136; // struct proc_bsdinfo
const PROC_PIDVNODEPATHINFO = 9;
const VNODE_INFO_SIZE = 152; // struct vnode_info, before pvi_cdir's path
const MAXPATHLEN = 1024;
/** struct proc_vnodepathinfo: the cwd's and the root's vnode_info_path. */
export const VNODEPATHINFO_SIZE = 2 * (VNODE_INFO_SIZE + MAXPATHLEN);

/** A C string in a fixed field: up to its NUL, or the whole field. */
const cString = (b: Uint8Array) => new TextDecoder().decode(b.indexOf(0) < 0 ? b : b.subarray(0, b.indexOf(0)));

export interface BsdInfo {
  /** ps's state letter from pbi_status (SIDL, SRUN, SSLEEP, SSTOP, SZOMB). */
  state: string;
  ppid: number;
  pgid: number;
  /** The terminal's foreground group; 0 without a terminal. */
  tpgid: number;
  /** The short command name (MAXCOMLEN, 16 bytes). */
  comm: string;
}

/** proc_bsdinfo's fields ws reads; undefined when libproc can't answer for `pid`. */
export function bsdInfo(pid: number): BsdInfo | undefined {
  const lib = libproc();
  if (!lib) return undefined;
  const buf = new Uint8Array(BSDINFO_SIZE);
  if (lib.proc_pidinfo(pid, PROC_PIDTBSDINFO, 0, buf, BSDINFO_SIZE) !== BSDINFO_SIZE) return undefined;
  return parseBsdInfo(buf, pid);
}

/** struct proc_bsdinfo read (exported for its test, which builds one from the header's fields). */
export function parseBsdInfo(buf: Uint8Array, pid: number): BsdInfo | undefined {
  const v = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  if (buf.length < BSDINFO_SIZE || v.getUint32(12, true) !== pid) return undefined; // pbi_pid: not the layout assumed
  const state = ["?", "R", "R", "S", "T", "Z"][v.getUint32(4, true)] ?? "?";
  return { state, ppid: v.getUint32(16, true), pgid: v.getUint32(100, true), tpgid: v.getUint32(112, true), comm: cString(buf.subarray(48, 64)) };
}

/** The current directory (proc_vnodepathinfo's pvi_cdir path); undefined when it can't be read. */
export function cwd(pid: number): string | undefined {
  const lib = libproc();
  if (!lib) return undefined;
  const buf = new Uint8Array(VNODEPATHINFO_SIZE);
  if (lib.proc_pidinfo(pid, PROC_PIDVNODEPATHINFO, 0, buf, VNODEPATHINFO_SIZE) !== VNODEPATHINFO_SIZE) return undefined;
  return parseVnodePathInfo(buf);
}

/** struct proc_vnodepathinfo's pvi_cdir.vip_path (exported for its test). */
export function parseVnodePathInfo(buf: Uint8Array): string | undefined {
  const path = cString(buf.subarray(VNODE_INFO_SIZE, VNODE_INFO_SIZE + MAXPATHLEN));
  return path.startsWith("/") ? path : undefined;
}
