// Which TCP ports each pane's process tree listens on.
// Linux: /proc/net/tcp{,6} LISTEN inodes matched to /proc/<pid>/fd of the pane's descendants.
// Elsewhere: one `lsof` and one `ps` per scan. All asynchronous: the daemon must never block.

import { readdir, readFile, readlink } from "node:fs/promises";
import { platformKind } from "../platform";
import * as linux from "../platform/linux";

export interface ListeningPort {
  port: number;
  pid: number;
  /** The listening process's command line. */
  command: string;
}

export type ScanMethod = "proc" | "lsof";

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

// Kernels without CONFIG_PROC_CHILDREN (and some sandboxes) lack task/*/children; then the
// whole process table's ppids are read instead. Decided once, on the first scan that needs it.
let childrenFiles: boolean | undefined;
let memo: { key: string; result: Map<number, ListeningPort[]> } | undefined;

async function childrenOf(pid: number): Promise<number[] | undefined> {
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

// pid → ppid from the last scan. A process keeps its parent until that parent dies, so a pid seen
// before whose parent is still alive needs no new read: idle scans read only new processes' stat.
let ppids = new Map<number, number>();

async function ppidTable(): Promise<Map<number, number[]>> {
  const live = new Set((await readdir("/proc")).filter((n) => /^\d+$/.test(n)).map(Number));
  const next = new Map<number, number>();
  await Promise.all(
    [...live].map(async (pid) => {
      const known = ppids.get(pid);
      const ppid = known !== undefined && (known === 0 || live.has(known)) ? known : (await linux.stat(pid))?.ppid;
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

/** root and all its descendants, breadth first. */
async function treeOf(root: number, table?: Map<number, number[]>): Promise<number[]> {
  const out = [root];
  for (let i = 0; i < out.length; i++) {
    const kids = table ? table.get(out[i]!) : await childrenOf(out[i]!);
    if (kids) out.push(...kids);
  }
  return out;
}

async function socketInodes(pid: number): Promise<string[]> {
  const fds = await readdir(`/proc/${pid}/fd`).catch(() => [] as string[]);
  const links = await Promise.all(fds.map((fd) => readlink(`/proc/${pid}/fd/${fd}`).catch(() => "")));
  return links.filter((l) => l.startsWith("socket:[")).map((l) => l.slice(8, -1));
}

const cmdline = async (pid: number) => (await readText(`/proc/${pid}/cmdline`)).split("\0").filter(Boolean).join(" ");

/** How long a scan may answer from the last one while nothing started or stopped listening. */
const FULL_WALK_MS = 30_000;
let lastWalk: { key: string; at: number; result: Map<number, ListeningPort[]> } | undefined;

async function scanProc(roots: ReadonlyMap<number, number>): Promise<Map<number, ListeningPort[]>> {
  const result = new Map<number, ListeningPort[]>();
  const [tcp4, tcp6] = await Promise.all([readText("/proc/net/tcp"), readText("/proc/net/tcp6")]);
  const listening = parseProcNetTcp(tcp6, parseProcNetTcp(tcp4));
  if (listening.size === 0 || roots.size === 0) return result;
  // No socket started or stopped listening and the panes' processes are the ones walked last time:
  // the answer is the last one. Walking 100 idle panes' process trees every 2 s was most of the
  // daemon's idle CPU. (A listener that changes process tree without a new socket, which is rare,
  // shows at the next full walk.)
  const quickKey = `${[...listening.keys()].sort().join(",")}|${[...roots].map(([p, r]) => `${p}:${r}`).join(";")}`;
  if (lastWalk?.key === quickKey && Date.now() - lastWalk.at < FULL_WALK_MS) return new Map(lastWalk.result);
  const walked = await walkTrees(roots, listening);
  lastWalk = { key: quickKey, at: Date.now(), result: new Map(walked) };
  return walked;
}

/** Which of the `listening` sockets (inode → port) each pane's process tree holds. */
async function walkTrees(roots: ReadonlyMap<number, number>, listening: Map<string, number>): Promise<Map<number, ListeningPort[]>> {
  const result = new Map<number, ListeningPort[]>();

  if (childrenFiles === undefined) {
    const probe = await childrenOf(process.pid);
    childrenFiles = probe !== undefined;
  }
  const table = childrenFiles ? undefined : await ppidTable();
  const trees = await Promise.all([...roots].map(async ([pane, root]) => [pane, await treeOf(root, table)] as const));
  // Same listening sockets and same processes as last time: same answer. This skips the fd walk,
  // most of a scan's cost, while panes sit idle.
  const key = `${[...listening.keys()].sort().join(",")}|${trees.map(([p, t]) => `${p}:${t.join(",")}`).join(";")}`;
  if (memo?.key === key) return new Map(memo.result);
  await Promise.all(
    trees.map(async ([pane, tree]) => {
      const found: ListeningPort[] = [];
      for (const pid of tree) {
        for (const inode of await socketInodes(pid)) {
          const port = listening.get(inode);
          if (port !== undefined) found.push({ port, pid, command: "" });
        }
      }
      const ports = uniqueByPort(found);
      for (const p of ports) p.command = await cmdline(p.pid);
      if (ports.length) result.set(pane, ports);
    }),
  );
  memo = { key, result: new Map(result) };
  return result;
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

async function run(argv: string[]): Promise<string> {
  try {
    const p = Bun.spawn(argv, { stdout: "pipe", stderr: "ignore", stdin: "ignore" });
    const text = await new Response(p.stdout).text();
    await p.exited;
    return text;
  } catch {
    return ""; // the tool is missing: no ports rather than a broken daemon
  }
}

async function scanLsof(roots: ReadonlyMap<number, number>): Promise<Map<number, ListeningPort[]>> {
  const result = new Map<number, ListeningPort[]>();
  const [lsof, ps] = await Promise.all([
    run(["lsof", "-nP", "-iTCP", "-sTCP:LISTEN", "-F", "pcn"]),
    run(["ps", "-A", "-o", "pid=,ppid=,args="]),
  ]);
  const sockets = parseLsof(lsof);
  if (!sockets.length) return result;
  const kids = new Map<number, number[]>();
  const args = new Map<number, string>();
  for (const line of ps.split("\n")) {
    const m = /^\s*(\d+)\s+(\d+)\s?(.*)$/.exec(line);
    if (!m) continue;
    const [pid, ppid] = [Number(m[1]), Number(m[2])];
    args.set(pid, m[3]!);
    const list = kids.get(ppid);
    if (list) list.push(pid);
    else kids.set(ppid, [pid]);
  }
  for (const [pane, root] of roots) {
    const tree = new Set(await treeOf(root, kids));
    const found = sockets.filter((s) => tree.has(s.pid)).map((s) => ({ ...s, command: args.get(s.pid) ?? "" }));
    const ports = uniqueByPort(found);
    if (ports.length) result.set(pane, ports);
  }
  return result;
}

// The same port shows once per address family and once per forked worker: keep one, the lowest pid
// (usually the parent that opened it).
function uniqueByPort(found: ListeningPort[]): ListeningPort[] {
  const best = new Map<number, ListeningPort>();
  for (const f of found) {
    const b = best.get(f.port);
    if (!b || f.pid < b.pid) best.set(f.port, f);
  }
  return [...best.values()].sort((a, b) => a.port - b.port);
}

let hasProc: boolean | undefined;

/**
 * Ports listened on by each pane's process tree. `roots` maps pane id → the pane's process id.
 * Panes with no listening ports are left out of the result.
 */
export async function scanPorts(
  roots: ReadonlyMap<number, number>,
  method?: ScanMethod,
): Promise<Map<number, ListeningPort[]>> {
  hasProc ??= (await readText("/proc/net/tcp")) !== "";
  return (method ?? (hasProc && platformKind() === "linux" ? "proc" : "lsof")) === "proc" ? scanProc(roots) : scanLsof(roots);
}

/** Test hook: force the ppid-table path even where children files exist. */
export function _forceChildrenFiles(on: boolean | undefined): void {
  childrenFiles = on;
}
