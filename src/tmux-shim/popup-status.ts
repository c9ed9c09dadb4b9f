// A popup's end as an exit status, as tmux's display-popup reports it: the program's exit code,
// the number of the signal that ended it, or 128+SIGHUP when the popup was closed with it still
// running. The shim's display-popup and `ws popup --wait` exit with it.
import { constants } from "node:os";

export function popupStatus(exitCode: unknown, signal: unknown): number {
  if (typeof exitCode === "number") return exitCode;
  const n = typeof signal === "string" ? (constants.signals as Record<string, number>)[signal] : undefined;
  return n ?? 128 + constants.signals.SIGHUP;
}
