// ws help [COMMAND…] [--man] and ws version: from the command table and the build, whatever
// server runs (or none).
import { BUILD, WS_VERSION } from "../build-info";
import { UsageError } from "../cli-table/parse";
import { VERSION } from "../protocol/version";
import { globals, print, printJson } from "./common";
import type { HandlerInput } from "./handlers";
import { commandHelp, groupHelp, mainHelp } from "./help";

/** What --help prints for those words (ws help pane send = ws pane send --help), or the man page. */
export async function help({ fields, table, lookup }: HandlerInput): Promise<void> {
  if (fields.man === true) {
    const { manPage } = await import("./man-page");
    return print(manPage(table(), WS_VERSION).trimEnd());
  }
  const words = (fields.command as string[] | undefined) ?? [];
  if (!words.length) return print(mainHelp(table(), `${WS_VERSION} (${BUILD})`));
  const found = lookup(words);
  if (!("command" in found)) return print(groupHelp(found.group, found.commands));
  if (found.rest.length) throw new UsageError(`ws help takes a command's words only: ${found.command.path} has no command ${found.rest.join(" ")} (ws help ${found.command.path} lists its arguments)`);
  return print(commandHelp(found.command));
}

export async function version(): Promise<void> {
  if (globals.json) printJson({ v: VERSION, type: "version", version: WS_VERSION, build: BUILD });
  else print(`${WS_VERSION} (${BUILD})`);
}
