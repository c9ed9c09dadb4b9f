// The registry as the CLI needs it, imported as a Bun macro (`with { type: "macro" }`): computed
// when the code is bundled or transpiled, so a CLI call never loads the registry. The tables come
// as JSON text: as object literals the minifier copies them into every function that uses them,
// and each such function then costs milliseconds to compile on its first call.
import { buildCommandTable, buildMessageTable } from "./table";

/** Each message's `since`, `longRunning` and `stream`: JSON of Record<string, MessageInfo>. */
export function messageTableJson(): string {
  return JSON.stringify(buildMessageTable());
}

/** Every CLI command with its arguments, flags and help text: JSON of Command[]. */
export function commandTableJson(): string {
  return JSON.stringify(buildCommandTable());
}
