// Whether an agent's process is still there. (Which process is the agent: the foreground process
// when the hook ran, from src/model/process-info.ts.)

/** Signal 0 asks the kernel whether the process exists, without touching it. */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}
