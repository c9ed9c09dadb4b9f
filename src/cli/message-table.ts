// What the CLI needs of each message to send it: the version that introduced it and whether it
// may run long. Imported as a Bun macro (`with { type: "macro" }`), so it is computed from the
// registry when the code is bundled or transpiled and a CLI call never loads the registry.
import { MESSAGES } from "../commands";

export function messageTable(): Record<string, { since: number; longRunning: boolean }> {
  return Object.fromEntries(MESSAGES.map((m) => [m.type, { since: m.since, longRunning: !!m.longRunning }]));
}
