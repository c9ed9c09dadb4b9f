// What a pane's program is doing now: the terminal's foreground process and a process's current
// directory. Linux answers from /proc; elsewhere (macOS, BSD) `ps` and `lsof` do. Every read is
// asynchronous: the daemon's thread never waits on the file system or a child process.
import { readFile, readlink } from "node:fs/promises";

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

/** A child's standard output, or undefined when it could not run. Argv only, never a shell. */
async function output(argv: string[]): Promise<string | undefined> {
  try {
    const p = Bun.spawn(argv, { stdout: "pipe", stderr: "ignore", stdin: "ignore" });
    const [text, code] = await Promise.all([new Response(p.stdout).text(), p.exited]);
    return code === 0 ? text : undefined;
  } catch {
    return undefined;
  }
}

/** The foreground process group of `pid`'s terminal (its leader's pid); `pid` itself when it has
 * no terminal; undefined when the process can't be read. */
async function tpgidOf(pid: number): Promise<number | undefined> {
  try {
    return parseTpgid(await readFile(`/proc/${pid}/stat`, "utf8")) ?? pid;
  } catch {}
  const n = Number((await output(["ps", "-o", "tpgid=", "-p", String(pid)]))?.trim());
  return Number.isInteger(n) && n > 0 ? n : undefined;
}

/** The pid of the process in the foreground of `pid`'s terminal; `pid` itself when unknown. */
export async function foregroundPid(pid: number): Promise<number> {
  return (await tpgidOf(pid)) ?? pid;
}

/** The foreground process of `pid`'s terminal and its argv, or null when it can't be read. */
export async function foregroundProcess(pid: number): Promise<ForegroundProcess | null> {
  const fg = await tpgidOf(pid);
  if (fg === undefined) return null;
  try {
    const argv = (await readFile(`/proc/${fg}/cmdline`, "utf8")).split("\0").filter((x, i, a) => x !== "" || i < a.length - 1);
    return { pid: fg, argv };
  } catch {}
  const line = (await output(["ps", "-o", "args=", "-p", String(fg)]))?.trim();
  if (line === undefined) return null;
  return { pid: fg, argv: line ? line.split(/\s+/) : [] };
}

/** A process's current directory, or undefined when it can't be read (gone, or not ours). */
export async function processCwd(pid: number): Promise<string | undefined> {
  try {
    return await readlink(`/proc/${pid}/cwd`);
  } catch {}
  if (process.platform === "linux") return undefined; // /proc said no: lsof would say no slower
  // lsof's field output: "p<pid>", "fcwd", "n<path>".
  const out = await output(["lsof", "-a", "-d", "cwd", "-p", String(pid), "-Fn"]);
  const line = out?.split("\n").find((l) => l.startsWith("n/"));
  return line?.slice(1);
}
