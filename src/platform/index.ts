// ws's questions to the operating system, in one place: a process's cwd, name, argv, parent,
// children and listening ports, its terminal's foreground process group, a socket's peer, and
// which PTY a pane gets. Two implementations answer them:
//  - "linux" (linux.ts) reads /proc and uses glibc, as ws always has on Linux;
//  - "portable" (portable.ts) asks what every Unix has: libproc on macOS (darwin.ts), else `ps`
//    and `lsof`; panes get Bun's own PTY.
// WS_PLATFORM=portable forces the portable one on Linux, so its tests run here
// (test/platform-portable.test.ts runs each function both ways on real processes). The choice is
// read on each call: cheap, and a test can switch it.
import * as linux from "./linux";
import * as portable from "./portable";
import { setsid } from "./pty-libc";
import { fileLimits, localPeerPid, peerCredPid, sessionId } from "./sys";

export type PlatformKind = "linux" | "portable";

export function platformKind(env: Record<string, string | undefined> = process.env): PlatformKind {
  if (env.WS_PLATFORM === "portable") return "portable";
  return process.platform === "linux" ? "linux" : "portable";
}

const onLinux = () => platformKind() === "linux";

/** A process's current directory; undefined when it is gone or not ours. (On Linux /proc's no is
 * final: lsof would say no slower.) */
export function processCwd(pid: number): Promise<string | undefined> {
  return onLinux() ? linux.cwd(pid) : portable.cwd(pid);
}

/** The foreground process group of `pid`'s terminal (its leader's pid); `pid` itself when it has
 * no terminal; undefined when the process is gone. */
export async function foregroundGroup(pid: number): Promise<number | undefined> {
  if (onLinux()) {
    const st = await linux.stat(pid);
    if (st) return st.tpgid > 0 ? st.tpgid : pid;
  }
  return portable.tpgid(pid);
}

/** A process's argv; undefined when it is gone. The portable answer is ps's line split at spaces
 * (an argument holding a space comes back as two). */
export async function processArgv(pid: number): Promise<string[] | undefined> {
  return (onLinux() ? await linux.argv(pid) : undefined) ?? portable.argv(pid);
}

/** A process's short name (the kernel's command name); undefined when it is gone. */
export function processName(pid: number): Promise<string | undefined> {
  return onLinux() ? linux.name(pid) : portable.name(pid);
}

/** `pid`'s children; [] when it has none or is gone. */
export function childrenOf(pid: number): Promise<number[]> {
  return onLinux() ? linux.children(pid) : portable.children(pid);
}

/** The TCP ports each of `pids` listens on (any address, IPv4 or IPv6). */
export function listeningPorts(pids: readonly number[]): Promise<{ pid: number; port: number }[]> {
  return onLinux() ? linux.listeningPorts(pids) : portable.listeningPorts(pids);
}

export interface ProcessState {
  /** R, S, D, T (stopped), t (traced), Z… */
  state: string;
  ppid: number;
  session: number;
}

/** A process's state, parent and session for a caller that may block (the CLI; the portable path
 * runs ps once). Undefined when it is gone. The daemon asks processState. */
export function processStateSync(pid: number): ProcessState | undefined {
  if (onLinux()) {
    const st = linux.statSync(pid);
    return st && { state: st.state, ppid: st.ppid, session: st.session };
  }
  return portable.statSync(pid);
}

/** processStateSync for the daemon, whose thread never waits on a child process: Linux reads
 * /proc at once (microseconds, as the CLI does); the portable path asks libproc, else runs ps
 * asynchronously (tens of ms on a busy machine, a walk up a process tree runs it once a step). */
export async function processState(pid: number): Promise<ProcessState | undefined> {
  return onLinux() ? processStateSync(pid) : portable.stat(pid);
}

/** The pid of the process that connected on `fd` (a Unix socket), from the kernel (the peer can't
 * forge it); undefined where it can't be read. macOS: LOCAL_PEERPID. Linux: SO_PEERCRED, on the
 * portable path too (glibc has no getpeereid, and it would give only the uid). */
export function peerPid(fd: number | undefined): number | undefined {
  if (fd === undefined || fd < 0) return undefined;
  if (process.platform === "linux") return peerCredPid(fd);
  if (process.platform === "darwin") return localPeerPid(fd);
  return undefined;
}

/** The session `pid` belongs to (getsid), and the descriptor limits: libc's, the same on both paths. */
export { fileLimits, sessionId };

/** The terminal a process runs on (Linux: its standard input's; portable: its controlling
 * terminal, as ps says), or "". */
export function processTerminalSync(pid: number): string {
  return onLinux() ? linux.stdinPathSync(pid) : portable.terminalSync(pid);
}

/** The terminal this process has as both standard input and output, or undefined. */
export function ownTerminal(): string | undefined {
  if (onLinux()) {
    const path = linux.stdinPathSync("self");
    return path && path === linux.stdoutPathSync() ? path : undefined;
  }
  return portable.ownTerminal();
}

/** Descriptors this process has open now; undefined where that can't be counted. */
export function openFileCount(): number | undefined {
  return onLinux() ? linux.openFiles() : portable.openFiles();
}

export type PtyKind = "native" | "bun";

/** Which PTY a pane's program gets. "native": ws owns the master (glibc through ffi.ts, util-linux
 * `setsid`), so it can stop reading a flooding program; Linux only. "bun": Bun's own PTY (`Bun.spawn`
 * with `terminal`), which can't stop reading (docs/pane-pipeline.md says what bounds it): macOS,
 * musl, WS_PLATFORM=portable, or WS_PTY=bun. */
export function ptyKind(env: Record<string, string | undefined> = process.env): PtyKind {
  return platformKind(env) === "linux" && env.WS_PTY !== "bun" && setsid() !== null ? "native" : "bun";
}
