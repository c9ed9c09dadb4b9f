// The Linux answers (src/platform/index.ts): /proc. The one reader of /proc in ws; the daemon
// uses the asynchronous forms (its thread never waits on the file system), the CLI and the
// approval peer check the synchronous ones.
import { readdirSync, readFileSync, readlinkSync } from "node:fs";
import { readdir, readFile, readlink } from "node:fs/promises";

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

/** A process's short name (/proc/<pid>/comm: the kernel's, at most 15 bytes). */
export async function name(pid: number): Promise<string | undefined> {
  return readFile(`/proc/${pid}/comm`, "utf8").then(
    (s) => s.replace(/\n$/, ""),
    () => undefined,
  );
}

/** The terminal (or file) a process has as its standard input, "" when it can't be read. */
export function stdinPathSync(pid: number | "self"): string {
  try {
    return readlinkSync(`/proc/${pid}/fd/0`);
  } catch {
    return "";
  }
}

/** This process's standard output's path, "" when it can't be read. */
export function stdoutPathSync(): string {
  try {
    return readlinkSync("/proc/self/fd/1");
  } catch {
    return "";
  }
}

/** This process's memory mappings with what each holds resident (/proc/self/smaps); undefined
 * without /proc. Synchronous: it describes this process, nothing another holds. */
export function ownMappingsSync(): string | undefined {
  try {
    return readFileSync("/proc/self/smaps", "utf8");
  } catch {
    return undefined;
  }
}

/** Descriptors this process has open now; undefined without /proc. */
export function openFiles(): number | undefined {
  try {
    return readdirSync("/proc/self/fd").length;
  } catch {
    return undefined;
  }
}

// Kernels without CONFIG_PROC_CHILDREN (and some sandboxes) lack task/*/children; then the whole
// process table's ppids are read instead. Decided once, on the first call that needs it.
let childrenFiles: boolean | undefined;

/** Test hook: force the ppid-table path (false) even where children files exist. */
export function _forceChildrenFiles(on: boolean | undefined): void {
  childrenFiles = on;
}

/** `pid`'s children from its threads' children files; undefined where the kernel has none. */
async function childrenFromTasks(pid: number): Promise<number[] | undefined> {
  const tasks = await readdir(`/proc/${pid}/task`).catch(() => [] as string[]);
  let seen = false;
  const out: number[] = [];
  for (const text of await Promise.all(
    tasks.map((t) =>
      readFile(`/proc/${pid}/task/${t}/children`, "utf8").then(
        (s) => ((seen = true), s),
        () => "",
      ),
    ),
  )) {
    for (const c of text.split(" ")) if (c.trim()) out.push(Number(c));
  }
  return tasks.length > 0 && !seen ? undefined : out;
}

// pid → ppid from the last table. A process keeps its parent until that parent dies, so a pid seen
// before whose parent is still alive needs no new read: idle scans read only new processes' stat.
let ppids = new Map<number, number>();

/** Every process's children (ppid → pids), from each /proc/<pid>/stat. */
export async function childrenTable(): Promise<Map<number, number[]>> {
  const live = new Set((await readdir("/proc")).filter((n) => /^\d+$/.test(n)).map(Number));
  const next = new Map<number, number>();
  await Promise.all(
    [...live].map(async (pid) => {
      const known = ppids.get(pid);
      const ppid = known !== undefined && (known === 0 || live.has(known)) ? known : (await stat(pid))?.ppid;
      if (ppid !== undefined) next.set(pid, ppid);
    }),
  );
  ppids = next;
  const kids = new Map<number, number[]>();
  for (const [pid, ppid] of next) {
    const list = kids.get(ppid);
    if (list) list.push(pid);
    else kids.set(ppid, [pid]);
  }
  return kids;
}

/** A way to ask for children: the children files (cheap, per process) or, where the kernel has
 * none, one table of every process read now. */
export async function childrenLookup(): Promise<(pid: number) => Promise<number[]>> {
  childrenFiles ??= (await childrenFromTasks(process.pid)) !== undefined;
  if (childrenFiles) return async (pid) => (await childrenFromTasks(pid)) ?? [];
  const table = await childrenTable();
  return async (pid) => table.get(pid) ?? [];
}

/** `pid`'s children; [] when it is gone. */
export async function children(pid: number): Promise<number[]> {
  return (await childrenLookup())(pid);
}

const TCP_LISTEN = "0A";

/** LISTEN sockets in /proc/net/tcp text: inode → port. */
export function parseProcNetTcp(text: string, into = new Map<string, number>()): Map<string, number> {
  for (const line of text.split("\n").slice(1)) {
    const f = line.trim().split(/\s+/);
    if (f.length < 10 || f[3] !== TCP_LISTEN) continue;
    const port = Number.parseInt(f[1]!.slice(f[1]!.lastIndexOf(":") + 1), 16);
    if (f[9] !== "0" && port > 0) into.set(f[9]!, port);
  }
  return into;
}

const readText = (path: string) => readFile(path, "utf8").catch(() => "");

/** Every listening TCP socket (IPv4 and IPv6): inode → port. Empty without /proc/net. */
export async function listeningInodes(): Promise<Map<string, number>> {
  const [tcp4, tcp6] = await Promise.all([readText("/proc/net/tcp"), readText("/proc/net/tcp6")]);
  return parseProcNetTcp(tcp6, parseProcNetTcp(tcp4));
}

/** Whether /proc/net/tcp can be read here (not in every sandbox). */
export async function hasProcNet(): Promise<boolean> {
  return (await readText("/proc/net/tcp")) !== "";
}

/** The socket inodes a process holds open. */
export async function socketInodes(pid: number): Promise<string[]> {
  const fds = await readdir(`/proc/${pid}/fd`).catch(() => [] as string[]);
  const links = await Promise.all(fds.map((fd) => readlink(`/proc/${pid}/fd/${fd}`).catch(() => "")));
  return links.filter((l) => l.startsWith("socket:[")).map((l) => l.slice(8, -1));
}

/** The TCP ports each of `pids` listens on. */
export async function listeningPorts(pids: readonly number[]): Promise<{ pid: number; port: number }[]> {
  const listening = await listeningInodes();
  const out: { pid: number; port: number }[] = [];
  for (const pid of pids) {
    for (const inode of await socketInodes(pid)) {
      const port = listening.get(inode);
      if (port !== undefined) out.push({ pid, port });
    }
  }
  return out;
}
