// What a pane's program is doing now: the terminal's foreground process and a process's current
// directory, as the platform layer answers (src/platform/: /proc on Linux; libproc, ps and lsof
// elsewhere or with WS_PLATFORM=portable). Every read is asynchronous: the daemon's thread never
// waits on the file system or a child process.
import { stat } from "node:fs/promises";
import { childrenOf, foregroundGroup, processArgv, processCwd } from "../platform";

export { processCwd };
import type { Pane } from "./pane";

export interface ForegroundProcess {
  pid: number;
  argv: string[];
}

/** The pid of the process in the foreground of `pid`'s terminal; `pid` itself when unknown. */
export async function foregroundPid(pid: number): Promise<number> {
  return (await foregroundGroup(pid)) ?? pid;
}

/** The foreground process of `pid`'s terminal and its argv, or null when it can't be read. A box
 * (src/model/box.ts) is seen through: its program, not bwrap, is what runs. */
export async function foregroundProcess(pid: number): Promise<ForegroundProcess | null> {
  const fg = await foregroundGroup(pid);
  if (fg === undefined) return null;
  const argv = await processArgv(fg);
  if (argv === undefined) return null;
  return (await boxedProgram(fg, argv)) ?? { pid: fg, argv };
}

/** The program a box runs when `pid` is the box (bwrap, and under it bwrap as the box's pid 1):
 * the first process below them that is not bwrap. */
async function boxedProgram(pid: number, argv: string[]): Promise<ForegroundProcess | undefined> {
  let at = { pid, argv };
  for (let depth = 0; depth < 3 && isBwrap(at.argv); depth++) {
    const child = (await childrenOf(at.pid))[0];
    const childArgv = child !== undefined ? await processArgv(child) : undefined;
    if (child === undefined || childArgv === undefined) return undefined;
    at = { pid: child, argv: childArgv };
  }
  return at.pid === pid || isBwrap(at.argv) ? undefined : at;
}

const isBwrap = (argv: readonly string[]) => (argv[0] ?? "").split("/").pop() === "bwrap" && argv.includes("--die-with-parent");

const isDir = (dir: string) => stat(dir).then((st) => st.isDirectory(), () => false);

/**
 * A pane's current directory, the one rule for pane_info, pane_list, the command line and the
 * save (tmux's #{pane_current_path}): where its foreground program is (`fgPid` when the caller has
 * read it), else where the pane started, whichever still exists (a deleted directory reads as
 * "DIR (deleted)"); undefined when neither does (or there is no pane): a command line then runs
 * in the server's. `ask: false` leaves the system unasked (a save where that costs a process per
 * pane).
 */
export async function paneDirectory(pane: Pane | undefined, o: { fgPid?: number; ask?: boolean } = {}): Promise<string | undefined> {
  if (!pane) return undefined;
  const ask = o.ask !== false && !pane.exited;
  const now = ask ? await processCwd(o.fgPid ?? (await foregroundProcess(pane.pid))?.pid ?? pane.pid) : undefined;
  for (const dir of [now, pane.cwd]) if (dir && (await isDir(dir))) return dir;
  return undefined;
}
