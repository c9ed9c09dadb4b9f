// Whether a process is still there, on any POSIX system.

/** Signal 0 asks the kernel whether the process exists, without touching it; EPERM means it does,
 * under another user. Not a pid (0 and -1 would name a group): false. */
export function processAlive(pid: number): boolean {
  if (!Number.isSafeInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}
