// What a pane's program is doing now: the terminal's foreground process and a process's current
// directory. Linux answers from /proc; elsewhere (macOS, BSD, or WS_PLATFORM=portable) `ps` and
// `lsof` do (src/platform/). Every read is asynchronous: the daemon's thread never waits on the
// file system or a child process.
import { readFile, readlink } from "node:fs/promises";
import { platformKind } from "../platform";
import * as portable from "../platform/portable";

export interface ForegroundProcess {
  pid: number;
  argv: string[];
}

/** tpgid from /proc/<pid>/stat: the foreground process group of its controlling terminal. */
export function parseTpgid(stat: string): number | undefined {
  const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const tpgid = Number(f[5]); // state ppid pgrp session tty_nr tpgid
  return Number.isInteger(tpgid) && tpgid > 0 ? tpgid : undefined;
}

/** The foreground process group of `pid`'s terminal (its leader's pid); `pid` itself when it has
 * no terminal; undefined when the process can't be read. */
async function tpgidOf(pid: number): Promise<number | undefined> {
  if (platformKind() === "linux")
    try {
      return parseTpgid(await readFile(`/proc/${pid}/stat`, "utf8")) ?? pid;
    } catch {}
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
  if (platformKind() === "linux")
    try {
      const argv = (await readFile(`/proc/${fg}/cmdline`, "utf8")).split("\0").filter((x, i, a) => x !== "" || i < a.length - 1);
      return { pid: fg, argv };
    } catch {}
  const argv = await portable.argv(fg);
  return argv === undefined ? null : { pid: fg, argv };
}

/** A process's current directory, or undefined when it can't be read (gone, or not ours). */
export async function processCwd(pid: number): Promise<string | undefined> {
  if (platformKind() === "linux") {
    try {
      return await readlink(`/proc/${pid}/cwd`);
    } catch {}
    return undefined; // /proc said no: lsof would say no slower
  }
  return portable.cwd(pid);
}
