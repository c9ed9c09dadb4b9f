// The Linux answers (src/platform/index.ts): /proc. The one reader of /proc/<pid>/stat and
// /proc/<pid>/cwd; the daemon uses the asynchronous forms (its thread never waits on the file
// system), the CLI and the approval peer check the synchronous one.
import { readFileSync } from "node:fs";
import { readFile, readlink } from "node:fs/promises";

/** The fields of /proc/<pid>/stat that ws reads. */
export interface ProcStat {
  /** R, S, D, T (stopped), t (traced), Z… */
  state: string;
  ppid: number;
  pgrp: number;
  session: number;
  /** The foreground process group of the controlling terminal; -1 (or 0) without one. */
  tpgid: number;
}

/** /proc/<pid>/stat text parsed; undefined when it is not that. The command name, in parentheses,
 * may itself hold spaces and parentheses: the fields start after the last ")". */
export function parseStat(text: string): ProcStat | undefined {
  const close = text.lastIndexOf(")");
  if (close < 0) return undefined;
  const f = text.slice(close + 2).split(" "); // state ppid pgrp session tty_nr tpgid …
  const [ppid, pgrp, session, tpgid] = [f[1], f[2], f[3], f[5]].map(Number) as [number, number, number, number];
  if (!f[0] || ![ppid, pgrp, session, tpgid].every(Number.isInteger)) return undefined;
  return { state: f[0], ppid, pgrp, session, tpgid };
}

/** A process's stat; undefined when it is gone (or not readable). */
export async function stat(pid: number): Promise<ProcStat | undefined> {
  return parseStat(await readFile(`/proc/${pid}/stat`, "utf8").catch(() => ""));
}

/** stat for a caller that may block (the CLI, a check made once per request). */
export function statSync(pid: number): ProcStat | undefined {
  try {
    return parseStat(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return undefined;
  }
}

/** A process's current directory; undefined when it is gone or not ours. */
export async function cwd(pid: number): Promise<string | undefined> {
  return readlink(`/proc/${pid}/cwd`).catch(() => undefined);
}

/** A process's argv from /proc/<pid>/cmdline (NUL-separated; an empty last argument kept). */
export async function argv(pid: number): Promise<string[] | undefined> {
  try {
    return (await readFile(`/proc/${pid}/cmdline`, "utf8")).split("\0").filter((x, i, a) => x !== "" || i < a.length - 1);
  } catch {
    return undefined;
  }
}
