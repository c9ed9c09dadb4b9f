// The registry as the CLI needs it, imported as a Bun macro (`with { type: "macro" }`): computed
// when the code is bundled or transpiled, so a CLI call never loads the registry.
import { buildCommandTable, buildMessageTable } from "./table";
import type { Command, MessageInfo } from "./spec";

/** Each message's `since`, `longRunning` and `stream`. */
export function messageTable(): Record<string, MessageInfo> {
  return buildMessageTable();
}

/** Every CLI command with its arguments, flags and help text. */
export function commandTable(): Command[] {
  return buildCommandTable();
}
