// What a pane's program is doing now: the terminal's foreground process and a process's current
// directory, as the platform layer answers (src/platform/: /proc on Linux; libproc, ps and lsof
// elsewhere or with WS_PLATFORM=portable). Every read is asynchronous: the daemon's thread never
// waits on the file system or a child process.
import { foregroundGroup, processArgv, processCwd } from "../platform";

export { processCwd };

export interface ForegroundProcess {
  pid: number;
  argv: string[];
}

/** The pid of the process in the foreground of `pid`'s terminal; `pid` itself when unknown. */
export async function foregroundPid(pid: number): Promise<number> {
  return (await foregroundGroup(pid)) ?? pid;
}

/** The foreground process of `pid`'s terminal and its argv, or null when it can't be read. */
export async function foregroundProcess(pid: number): Promise<ForegroundProcess | null> {
  const fg = await foregroundGroup(pid);
  if (fg === undefined) return null;
  const argv = await processArgv(fg);
  return argv === undefined ? null : { pid: fg, argv };
}
