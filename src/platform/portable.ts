// The portable answers (src/platform/index.ts): what every Unix has. On macOS libproc answers
// first where it can (src/platform/darwin.ts, no child process); otherwise `ps` and `lsof`, run as
// argv (never a shell). The daemon's forms are asynchronous (its thread never waits on a child
// process); the few synchronous ones serve the CLI and a check made once per request.
import { fstatSync, readdirSync } from "node:fs";
import * as darwin from "./darwin";
import { sessionId } from "./sys";

/** A child's standard output, or undefined when it could not run or failed (exited other than `ok`). */
export async function output(argv: string[], ok: readonly number[] = [0]): Promise<string | undefined> {
  try {
    const p = Bun.spawn(argv, { stdout: "pipe", stderr: "ignore", stdin: "ignore" });
    const [text, code] = await Promise.all([new Response(p.stdout).text(), p.exited]);
    return ok.includes(code) ? text : undefined;
  } catch {
    return undefined;
  }
}

/** output() for a caller that may block. `stdin: "inherit"` lets `tty` see ours. */
function outputSync(argv: string[], stdin: "ignore" | "inherit" = "ignore"): string | undefined {
  try {
    const p = Bun.spawnSync(argv, { stdout: "pipe", stderr: "ignore", stdin });
    return p.exitCode === 0 ? p.stdout.toString() : undefined;
  } catch {
    return undefined;
  }
}

/** ps's one line about `pid`, trimmed; undefined when it is gone. */
async function ps(pid: number, field: string): Promise<string | undefined> {
  const out = (await output(["ps", "-o", `${field}=`, "-p", String(pid)]))?.trim();
  return out === "" ? undefined : out;
}

/** The foreground process group of `pid`'s terminal; `pid` itself when it has no terminal (ps
 * says -1 or 0); undefined when the process is gone. */
export async function tpgid(pid: number): Promise<number | undefined> {
  const info = darwin.bsdInfo(pid);
  const n = info ? info.tpgid : Number(await ps(pid, "tpgid"));
  if (!info && Number.isNaN(n)) return undefined;
  return Number.isInteger(n) && n > 0 ? n : pid;
}

/** A process's command line as ps prints it, split at spaces (ps joins argv with spaces, so an
 * argument holding one comes back as two); undefined when the process is gone. */
export async function argv(pid: number): Promise<string[] | undefined> {
  const line = (await output(["ps", "-o", "args=", "-p", String(pid)]))?.trim();
  if (line === undefined) return undefined;
  return line ? line.split(/\s+/) : [];
}

/** A process's short name (the kernel's command name, as ps's `comm`); undefined when gone. */
export async function name(pid: number): Promise<string | undefined> {
  const comm = darwin.bsdInfo(pid)?.comm ?? (await ps(pid, "comm"));
  return comm?.split("/").pop(); // macOS's ps prints the executable's path
}

/** A process's current directory: libproc, else lsof's field output ("p<pid>", "fcwd", "n<path>"). */
export async function cwd(pid: number): Promise<string | undefined> {
  const fromLib = darwin.cwd(pid);
  if (fromLib) return fromLib;
  const out = await output(["lsof", "-a", "-d", "cwd", "-p", String(pid), "-Fn"]);
  const line = out?.split("\n").find((l) => l.startsWith("n/"));
  return line?.slice(1);
}

export interface ProcessRow {
  pid: number;
  ppid: number;
  args: string;
}

/** Every process with its parent and command line (one `ps -A`). */
export async function processTable(): Promise<ProcessRow[]> {
  const rows: ProcessRow[] = [];
  for (const line of (await output(["ps", "-A", "-o", "pid=,ppid=,args="]))?.split("\n") ?? []) {
    const m = /^\s*(\d+)\s+(\d+)\s?(.*)$/.exec(line);
    if (m) rows.push({ pid: Number(m[1]), ppid: Number(m[2]), args: m[3]! });
  }
  return rows;
}

/** `pid`'s children; [] when it is gone. */
export async function children(pid: number): Promise<number[]> {
  return (await processTable()).filter((r) => r.ppid === pid).map((r) => r.pid);
}

/** `lsof -F pcn` lines: p<pid>, c<command>, n<address:port>. */
export function parseLsof(text: string): { pid: number; port: number }[] {
  const out: { pid: number; port: number }[] = [];
  let pid = 0;
  for (const line of text.split("\n")) {
    if (line.startsWith("p")) pid = Number(line.slice(1));
    else if (line.startsWith("n")) {
      const port = Number(line.slice(line.lastIndexOf(":") + 1));
      if (pid && Number.isInteger(port) && port > 0) out.push({ pid, port });
    }
  }
  return out;
}

const LSOF_LISTEN = ["lsof", "-nP", "-iTCP", "-sTCP:LISTEN", "-F", "pcn"];

/** Every listening TCP socket this user can see, by process (one lsof). */
export async function listening(): Promise<{ pid: number; port: number }[]> {
  return parseLsof((await output(LSOF_LISTEN, [0, 1])) ?? "");
}

/** The TCP ports each of `pids` listens on (one lsof for them all). */
export async function listeningPorts(pids: readonly number[]): Promise<{ pid: number; port: number }[]> {
  if (!pids.length) return [];
  // lsof exits 1 when it found nothing: that is an empty answer, not a failure.
  return parseLsof((await output(["lsof", "-a", "-p", pids.join(","), ...LSOF_LISTEN.slice(1)], [0, 1])) ?? "");
}

export interface ProcState {
  state: string;
  ppid: number;
  session: number;
}

const PS_STAT = (pid: number) => ["ps", "-o", "stat=,ppid=", "-p", String(pid)];

/** libproc's answer (macOS: no ps to wait for), with getsid's session; undefined when it has none. */
function statFromLib(pid: number): ProcState | undefined {
  const info = darwin.bsdInfo(pid);
  const session = info && sessionId(pid);
  return info && session !== undefined ? { state: info.state, ppid: info.ppid, session } : undefined;
}

/** ps's "STAT PPID" line with getsid's session; undefined when the process is gone. */
function statFromPs(pid: number, line: string | undefined): ProcState | undefined {
  const m = /^\s*(\S+)\s+(\d+)\s*$/.exec(line ?? "");
  const session = m ? sessionId(pid) : undefined;
  return m && session !== undefined ? { state: m[1]![0]!, ppid: Number(m[2]), session } : undefined;
}

/** A process's state letter, parent and session, for a caller that may block (libproc, else ps
 * once; getsid). */
export function statSync(pid: number): ProcState | undefined {
  return statFromLib(pid) ?? statFromPs(pid, outputSync(PS_STAT(pid)));
}

/** statSync for the daemon: where ps must answer, it runs without the daemon waiting for it. */
export async function stat(pid: number): Promise<ProcState | undefined> {
  return statFromLib(pid) ?? statFromPs(pid, await output(PS_STAT(pid)));
}

/** The terminal a process runs on (its controlling terminal, as ps's `tty`), or "". */
export function terminalSync(pid: number): string {
  const tty = outputSync(["ps", "-o", "tty=", "-p", String(pid)])?.trim() ?? "";
  return tty && !tty.startsWith("?") ? `/dev/${tty}` : "";
}

/** The terminal this process has as both standard input and output, or undefined. */
export function ownTerminal(): string | undefined {
  try {
    const [i, o] = [fstatSync(0), fstatSync(1)];
    if (!i.isCharacterDevice() || i.rdev !== o.rdev || i.dev !== o.dev) return undefined;
  } catch {
    return undefined;
  }
  const path = outputSync(["tty"], "inherit")?.trim();
  return path?.startsWith("/dev/") ? path : undefined;
}

/** Descriptors this process has open now (/dev/fd lists them on macOS and the BSDs). */
export function openFiles(): number | undefined {
  try {
    return readdirSync("/dev/fd").length;
  } catch {
    return undefined;
  }
}
