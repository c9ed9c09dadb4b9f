// Help, from the command table: the command list, a group's commands, one command's usage with
// its arguments and flags described by the registry's field descriptions. Plain text, no colour.
import { CWD_DEFAULT, PANE_DEFAULT, type Command, type Param } from "../cli-table/spec";
import { GLOBALS } from "../cli-table/globals";

/** The global flags as help lists them: "-L NAME, --socket-name NAME". */
export const globalItems = (): [string, string][] => GLOBALS.map((g) => [g.flags.map((f) => (g.metavar ? `${f} ${g.metavar}` : f)).join(", "), g.description]);

/** A flag as typed: one letter takes one dash (-l), a word two (--below). */
const dashed = (flag: string) => (flag.length === 1 ? `-${flag}` : `--${flag}`);

export const metavar = (p: Param) => (p.type === "integer" ? "N" : p.type === "string[]" ? "A,B" : p.type === "integer[]" ? "N,M" : p.type === "object" ? "FILE" : p.type === "map" ? "NAME=VALUE" : p.field.toUpperCase());

export function usageLine(c: Command): string {
  const bits = [`ws ${c.path}`];
  for (const p of c.params.filter((p) => !p.flag)) {
    const name = p.field.toUpperCase() + (p.many ? "…" : "");
    bits.push(p.required ? name : `[${name}]`);
  }
  for (const p of c.params.filter((p) => p.flag)) bits.push(p.type === "boolean" ? `[${dashed(p.flag!)}]` : p.required ? `${dashed(p.flag!)} ${metavar(p)}` : `[${dashed(p.flag!)} ${metavar(p)}]`);
  if (c.rest) bits.push(`[-- ${c.rest.field.toUpperCase()}…]`);
  return bits.join(" ");
}

export function defaultText(p: Param): string {
  if (p.default === PANE_DEFAULT) return " (default: the pane this runs in, $WS_PANE_ID)";
  if (p.default === CWD_DEFAULT) return " (default: the current directory)";
  if (p.default !== undefined && p.default !== "" && p.default !== false) return ` (default: ${JSON.stringify(p.default)})`;
  return "";
}

function rows(items: [string, string][]): string[] {
  const w = Math.min(24, Math.max(...items.map(([a]) => a.length)));
  return items.map(([a, b]) => `  ${a.padEnd(w)}  ${b}`);
}

/** A command's arguments and flags, each with what it does: help's rows and the man page's. */
export function paramItems(c: Command): [string, string][] {
  const items: [string, string][] = c.params.map((p) => [
    p.flag ? (p.type === "boolean" ? dashed(p.flag) : `${dashed(p.flag)} ${metavar(p)}`) : p.field.toUpperCase() + (p.many ? "…" : ""),
    `${p.type === "object" ? "A JSON file (- reads stdin): " : ""}${p.description}${p.type === "map" ? " (repeat the flag for more)" : ""}${p.accepted ? ` (one of ${p.accepted.join(", ")})` : ""}${defaultText(p)}`,
  ]);
  if (c.rest) items.push([`-- ${c.rest.field.toUpperCase()}…`, c.rest.description]);
  return items;
}

export function commandHelp(c: Command): string {
  const items = paramItems(c);
  const out = [`usage: ${usageLine(c)}`, "", c.summary + (c.message ? ` (sends ${c.message})` : "")];
  if (items.length) out.push("", ...rows(items));
  out.push("", "global flags:", ...rows(globalItems()));
  return out.join("\n");
}

export function groupHelp(name: string, commands: readonly Command[]): string {
  return [`usage: ws ${name} <command> [args] [--help]`, "", "commands:", ...rows(commands.map((c) => [c.path.slice(name.length + 1), c.summary]))].join("\n");
}

export function mainHelp(table: readonly Command[], version: string): string {
  return [
    `ws ${version}: a terminal multiplexer for running many coding agents side by side`,
    "",
    "usage: ws [-L NAME] [--local]              attach (starting a server when none runs)",
    "       ws [-L NAME] [--json] <command> …   one request; ws help <command> for its flags",
    "       ws -H HOST …                        the same against the ws on HOST, through ssh",
    "",
    "commands:",
    ...rows(table.map((c) => [c.path, c.summary])),
    "",
    "global flags:",
    ...rows(globalItems()),
  ].join("\n");
}
