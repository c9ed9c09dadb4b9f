// What a pane's program is doing now: the terminal's foreground process and a process's current
// directory. Linux answers from /proc; elsewhere (macOS, BSD, or WS_PLATFORM=portable) `ps` and
// `lsof` do (src/platform/). Every read is asynchronous: the daemon's thread never waits on the
// file system or a child process.
import { platformKind } from "../platform";
import * as linux from "../platform/linux";
import * as portable from "../platform/portable";

export interface ForegroundProcess {
  pid: number;
  argv: string[];
}

/** The foreground process group of `pid`'s terminal (its leader's pid); `pid` itself when it has
 * no terminal; undefined when the process can't be read. */
async function tpgidOf(pid: number): Promise<number | undefined> {
  if (platformKind() === "linux") {
    const st = await linux.stat(pid);
    if (st) return st.tpgid > 0 ? st.tpgid : pid;
  }
  return portable.tpgid(pid);
}

/** The pid of the process in the foreground of `pid`'s terminal; `pid` itself when unknown. */
export async function foregroundPid(pid: number): Promise<number> {
  return (await tpgidOf(pid)) ?? pid;
}

/** The foreground process of `pid`'s terminal and its argv, or null when it can't be read. */
export async function foregroundProcess(pid: number): Promise<ForegroundProcess | null> {
  const fg = await tpgidOf(pid);
  if (fg === undefined) return null;
  const argv = (platformKind() === "linux" ? await linux.argv(fg) : undefined) ?? (await portable.argv(fg));
  return argv === undefined ? null : { pid: fg, argv };
}

/** A process's current directory, or undefined when it can't be read (gone, or not ours). */
export async function processCwd(pid: number): Promise<string | undefined> {
  // On Linux /proc's no is final: lsof would say no slower.
  return platformKind() === "linux" ? linux.cwd(pid) : portable.cwd(pid);
}
