// Which TCP ports each pane's process tree listens on.
// Linux: the LISTEN socket inodes matched to those the pane's descendants hold (src/platform/linux.ts
// reads them from /proc). Elsewhere: one `lsof` and one `ps` per scan (src/platform/portable.ts).
// All asynchronous: the daemon must never block.

import { platformKind } from "../platform";
import * as linux from "../platform/linux";
import * as portable from "../platform/portable";

export { parseLsof } from "../platform/portable";
export { parseProcNetTcp, _forceChildrenFiles } from "../platform/linux";

export interface ListeningPort {
  port: number;
  pid: number;
  /** The listening process's command line. */
  command: string;
}

export type ScanMethod = "proc" | "lsof";

let memo: { key: string; result: Map<number, ListeningPort[]> } | undefined;

/** root and all its descendants, breadth first. */
async function treeOf(root: number, childrenOf: (pid: number) => Promise<number[]> | number[]): Promise<number[]> {
  const out = [root];
  for (let i = 0; i < out.length; i++) out.push(...(await childrenOf(out[i]!)));
  return out;
}

const cmdline = async (pid: number) => ((await linux.argv(pid)) ?? []).filter(Boolean).join(" ");

/** How long a scan may answer from the last one while nothing started or stopped listening. */
const FULL_WALK_MS = 30_000;
let lastWalk: { key: string; at: number; result: Map<number, ListeningPort[]> } | undefined;

async function scanProc(roots: ReadonlyMap<number, number>): Promise<Map<number, ListeningPort[]>> {
  const result = new Map<number, ListeningPort[]>();
  const listening = await linux.listeningInodes();
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
  const children = await linux.childrenLookup();
  const trees = await Promise.all([...roots].map(async ([pane, root]) => [pane, await treeOf(root, children)] as const));
  // Same listening sockets and same processes as last time: same answer. This skips the fd walk,
  // most of a scan's cost, while panes sit idle.
  const key = `${[...listening.keys()].sort().join(",")}|${trees.map(([p, t]) => `${p}:${t.join(",")}`).join(";")}`;
  if (memo?.key === key) return new Map(memo.result);
  await Promise.all(
    trees.map(async ([pane, tree]) => {
      const found: ListeningPort[] = [];
      for (const pid of tree) {
        for (const inode of await linux.socketInodes(pid)) {
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

async function scanLsof(roots: ReadonlyMap<number, number>): Promise<Map<number, ListeningPort[]>> {
  const result = new Map<number, ListeningPort[]>();
  const [sockets, table] = await Promise.all([portable.listening(), portable.processTable()]);
  if (!sockets.length) return result;
  const kids = new Map<number, number[]>();
  const args = new Map<number, string>();
  for (const { pid, ppid, args: line } of table) {
    args.set(pid, line);
    const list = kids.get(ppid);
    if (list) list.push(pid);
    else kids.set(ppid, [pid]);
  }
  for (const [pane, root] of roots) {
    const tree = new Set(await treeOf(root, (pid) => kids.get(pid) ?? []));
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
  hasProc ??= await linux.hasProcNet();
  return (method ?? (hasProc && platformKind() === "linux" ? "proc" : "lsof")) === "proc" ? scanProc(roots) : scanLsof(roots);
}
