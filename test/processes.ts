// The processes a test started, found in /proc: by a line of their environment (one every process
// they start inherits, so daemons and programs that left the test's process tree are found too)
// and their descendants. For TestServer.stop and the after-all check (test/leak-check.ts).
import { readdirSync, readFileSync } from "node:fs";

function read(path: string): string | undefined {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return undefined;
  }
}

export interface Found {
  pid: number;
  cmd: string;
}

/** Live processes (zombies left out) whose environment holds `entry` ("NAME=value"), or whose
 * ancestor's does, or that descend from `root`; this process is never one of them. */
export function processesCarrying(entry: string, root?: number): Found[] {
  const parent = new Map<number, number>();
  const marked = new Set<number>();
  for (const name of readdirSync("/proc")) {
    const pid = Number(name);
    if (!Number.isInteger(pid) || pid === process.pid) continue;
    const stat = read(`/proc/${pid}/stat`);
    if (!stat) continue;
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    if (fields[0] === "Z") continue;
    parent.set(pid, Number(fields[1]));
    if (read(`/proc/${pid}/environ`)?.split("\0").includes(entry)) marked.add(pid);
  }
  const ours = (pid: number): boolean => {
    for (let p: number | undefined = pid, depth = 0; p !== undefined && p > 1 && depth < 64; p = parent.get(p), depth++) if (p === root || marked.has(p)) return true;
    return false;
  };
  return [...parent.keys()].filter(ours).map((pid) => ({ pid, cmd: (read(`/proc/${pid}/cmdline`) ?? "").split("\0").join(" ").trim().slice(0, 160) }));
}

/** Ends every process `find` names: SIGTERM, then SIGKILL for those still there after `graceMs`.
 * What it found at first. */
export async function endAll(find: () => Found[], graceMs = 2000): Promise<Found[]> {
  const first = find();
  if (!first.length) return first;
  const signal = (sig: NodeJS.Signals) => {
    for (const p of find()) {
      try {
        process.kill(p.pid, sig);
      } catch {}
    }
  };
  signal("SIGTERM");
  const deadline = Date.now() + graceMs;
  while (find().length && Date.now() < deadline) await Bun.sleep(50);
  signal("SIGKILL");
  return first;
}
