// Which TCP ports each pane's process tree listens on.
// Linux: the LISTEN socket inodes matched to those the pane's descendants hold (src/platform/linux.ts
// reads them from /proc), walked again only where something changed (ProcPortScanner).
// Elsewhere: one `lsof` and one `ps` per scan (src/platform/portable.ts).
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

/** root and all its descendants, breadth first. */
async function treeOf(root: number, childrenOf: (pid: number) => Promise<number[]> | number[]): Promise<number[]> {
  const out = [root];
  for (let i = 0; i < out.length; i++) out.push(...(await childrenOf(out[i]!)));
  return out;
}

const cmdline = async (pid: number) => ((await linux.argv(pid)) ?? []).filter(Boolean).join(" ");

/** A pane as the scanner sees it: its process, and its terminal's foreground process as last
 * looked at (Pane.foregroundPid; 0 when not known). */
export interface PaneProcess {
  pid: number;
  foreground: number;
}

/** Panes walked at once while looking for a new socket's owner. */
const SEARCH_BATCH = 16;

/**
 * Which ports each pane's process tree listens on, kept from scan to scan (Linux /proc). A scan
 * reads which sockets listen (/proc/net/tcp and tcp6) and walks a pane's process tree and open
 * files only where something changed: a pane that is new, whose process or foreground process
 * changed, or, when a socket started listening that no pane is known to hold, the other panes
 * until it is placed. A socket that stops listening is dropped from its pane without a walk. So a
 * scan of idle panes costs one read of /proc/net/tcp*, however many panes there are.
 */
export class ProcPortScanner {
  /** For tests and benches: scans made, scans that looked for a new socket's owner, and pane walks
   * (a process tree and its open files read). */
  readonly stats = { scans: 0, searches: 0, walks: 0 };
  /** Per pane: what it was walked for (process and foreground), and the listening sockets its
   * tree held then (inode → port). */
  private panes = new Map<number, { key: string; ports: Map<string, ListeningPort> }>();
  /** Every listening socket seen: inode → the pane whose tree holds it, or undefined for none. */
  private placed = new Map<string, number | undefined>();

  async scan(panes: ReadonlyMap<number, PaneProcess>): Promise<Map<number, ListeningPort[]>> {
    this.stats.scans++;
    const listening = await linux.listeningInodes();
    for (const [id, state] of this.panes) {
      if (panes.has(id)) continue;
      this.panes.delete(id);
      for (const inode of state.ports.keys()) this.placed.set(inode, undefined); // outlived its pane
    }
    for (const [inode, pane] of this.placed) {
      if (listening.has(inode)) continue;
      this.placed.delete(inode);
      if (pane !== undefined) this.panes.get(pane)?.ports.delete(inode);
    }
    const keyOf = (p: PaneProcess) => `${p.pid}:${p.foreground}`;
    const due = [...panes].filter(([id, p]) => this.panes.get(id)?.key !== keyOf(p));
    const unplaced = new Set([...listening.keys()].filter((inode) => !this.placed.has(inode)));
    if (due.length || unplaced.size) {
      const children = await linux.childrenLookup();
      const walk = (id: number, p: PaneProcess) => this.walk(id, keyOf(p), p.pid, listening, children);
      await Promise.all(due.map(([id, p]) => walk(id, p)));
      for (const inode of unplaced) if (this.placed.has(inode)) unplaced.delete(inode);
      // A new socket no changed pane holds: look through the others until each is placed.
      const walked = new Set(due.map(([id]) => id));
      const rest = [...panes].filter(([id]) => !walked.has(id));
      if (unplaced.size && rest.length) this.stats.searches++;
      for (let i = 0; i < rest.length && unplaced.size; i += SEARCH_BATCH) {
        await Promise.all(rest.slice(i, i + SEARCH_BATCH).map(([id, p]) => walk(id, p)));
        for (const inode of unplaced) if (this.placed.has(inode)) unplaced.delete(inode);
      }
      for (const inode of unplaced) this.placed.set(inode, undefined); // not a pane's (another user's, a daemon's)
    }
    const result = new Map<number, ListeningPort[]>();
    for (const id of panes.keys()) {
      const ports = uniqueByPort([...(this.panes.get(id)?.ports.values() ?? [])]);
      if (ports.length) result.set(id, ports);
    }
    return result;
  }

  /** Read which of the `listening` sockets pane `id`'s process tree holds now. */
  private async walk(id: number, key: string, root: number, listening: Map<string, number>, children: (pid: number) => Promise<number[]>): Promise<void> {
    this.stats.walks++;
    const before = this.panes.get(id)?.ports;
    const ports = new Map<string, ListeningPort>();
    for (const pid of await treeOf(root, children)) {
      for (const inode of await linux.socketInodes(pid)) {
        const port = listening.get(inode);
        if (port !== undefined && !ports.has(inode)) ports.set(inode, { port, pid, command: "" });
      }
    }
    for (const p of ports.values()) p.command = await cmdline(p.pid);
    for (const inode of before?.keys() ?? []) if (!ports.has(inode) && this.placed.get(inode) === id) this.placed.set(inode, undefined);
    for (const inode of ports.keys()) this.placed.set(inode, id);
    this.panes.set(id, { key, ports });
  }
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

async function methodHere(): Promise<ScanMethod> {
  hasProc ??= await linux.hasProcNet();
  return hasProc && platformKind() === "linux" ? "proc" : "lsof";
}

/**
 * Ports listened on by each pane's process tree, read afresh (every tree walked). `roots` maps
 * pane id → the pane's process id. Panes with no listening ports are left out of the result.
 */
export async function scanPorts(
  roots: ReadonlyMap<number, number>,
  method?: ScanMethod,
): Promise<Map<number, ListeningPort[]>> {
  if ((method ?? (await methodHere())) === "lsof") return scanLsof(roots);
  return new ProcPortScanner().scan(new Map([...roots].map(([pane, pid]) => [pane, { pid, foreground: 0 }])));
}

/** Scans for a watcher that keeps them going: incremental where /proc has the answers
 * (ProcPortScanner), one lsof and ps each time elsewhere. */
export function portScanner(): { scan(panes: ReadonlyMap<number, PaneProcess>): Promise<Map<number, ListeningPort[]>>; stats?: ProcPortScanner["stats"] } {
  let proc: ProcPortScanner | undefined;
  return {
    async scan(panes) {
      if ((await methodHere()) === "lsof") return scanLsof(new Map([...panes].map(([pane, p]) => [pane, p.pid])));
      proc ??= new ProcPortScanner();
      return proc.scan(panes);
    },
    get stats() {
      return proc?.stats;
    },
  };
}
