// Which process is the agent in a pane: the terminal's foreground process group when the hook ran
// (the agent started from the pane's shell), else the pane's own process (the agent is the pane).

import { readFile } from "node:fs/promises";

/** tpgid from /proc/<pid>/stat: the foreground process group of its controlling terminal. */
export function parseTpgid(stat: string): number | undefined {
  const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const tpgid = Number(f[5]); // state ppid pgrp session tty_nr tpgid
  return Number.isInteger(tpgid) && tpgid > 0 ? tpgid : undefined;
}

export async function foregroundPid(panePid: number): Promise<number> {
  try {
    return parseTpgid(await readFile(`/proc/${panePid}/stat`, "utf8")) ?? panePid;
  } catch {}
  try {
    // No /proc (macOS, BSD): ps knows the same field.
    const p = Bun.spawn(["ps", "-o", "tpgid=", "-p", String(panePid)], { stdout: "pipe", stderr: "ignore" });
    const n = Number((await new Response(p.stdout).text()).trim());
    if (Number.isInteger(n) && n > 0) return n;
  } catch {}
  return panePid;
}

/** Signal 0 asks the kernel whether the process exists, without touching it. */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}
