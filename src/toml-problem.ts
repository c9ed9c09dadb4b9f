// What a TOML file that does not parse says to its author: the file, the line, and smol-toml's
// first line of complaint, for every TOML file ws reads (keys.toml, workstream templates).
import { TomlError } from "smol-toml";

export function tomlProblem(e: unknown, file: string): string {
  const line = e instanceof TomlError ? e.line : 0;
  const msg = (e as Error).message.split("\n")[0]!.replace(/^Invalid TOML document: /, "");
  return `${file}:${line}: ${msg}`;
}
