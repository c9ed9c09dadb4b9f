// Signalling a pane's program: it is a session leader on its own PTY, so its whole process group
// (pipelines, children it started) gets the signal; the process alone if the group is gone.
import type { Subprocess } from "bun";

export function signalGroup(proc: Subprocess, signal: NodeJS.Signals): void {
  try {
    process.kill(-proc.pid, signal);
  } catch {
    try {
      proc.kill(signal);
    } catch {}
  }
}
