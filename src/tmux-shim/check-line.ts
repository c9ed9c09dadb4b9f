// Whether a tmux command line is one ws can run: parsed by the shim's one parser, each command in
// its table and carried out, its flags as that command's template takes them. What keys.toml's
// bindings and `ws config import-tmux` are checked against.
import { parseCommands } from "./parse";
import { findCommand } from "./cmd/index";
import { getopt } from "./getopt";

/** What is wrong with the line (undefined: nothing). */
export function checkTmuxLine(line: string, env: Record<string, string | undefined> = process.env): string | undefined {
  try {
    const commands = parseCommands(line, env);
    if (!commands.length) return "is empty";
    for (const words of commands) {
      const entry = findCommand(words[0]!);
      if (!entry.run) return `${entry.name}: not supported by ws`;
      getopt(entry.name, entry.template ?? "", words.slice(1));
    }
    return undefined;
  } catch (e) {
    return (e as Error).message;
  }
}
