// The registry as the CLI needs it, imported as a Bun macro (`with { type: "macro" }`): computed
// when the code is bundled or transpiled, so a CLI call never loads the registry. The tables come
// as JSON text (the command table as one JSON text per command, in an object made once at module
// level): as object literals inside the functions that use them, the minifier copied them into
// each, and each such function then cost milliseconds to compile on its first call.
import { buildCommandTable, buildMessageTable } from "../cli-table/table";

/** Each message's `since`, `longRunning` and `stream`: JSON of Record<string, MessageInfo>. */
export function messageTableJson(): string {
  return JSON.stringify(buildMessageTable());
}

/** Every CLI command with its arguments, flags and help text, each as JSON text by its path, in
 * path order: a call parses only the command it runs. */
export function commandJsonByPath(): Record<string, string> {
  return Object.fromEntries(buildCommandTable().map((c) => [c.path, JSON.stringify(c)]));
}
