// The command table from the registry's `cli` sections and the CLI's own commands: built at build
// time (src/cli/message-table.ts, a macro), so a CLI call never loads this module; loaded by the
// UI's command prompt (ui/command-line.ts) and tests.
import { MESSAGES } from "../messages";
import type { MessageCli, MessageEntry } from "../messages/types";
import type { FieldSpec } from "../protocol/schema";
import { LOCAL_COMMANDS } from "./local-commands";
import type { Command, MessageInfo, Param, ParamType } from "./spec";

const CLI_TYPES: readonly string[] = ["string", "integer", "boolean", "string[]", "integer[]", "object"];

export const flagName = (field: string) => field.replace(/_/g, "-");

/** The first sentence of a summary, for the one-line list of commands. */
function firstSentence(text: string): string {
  const m = /^(.*?)\.(\s|$)/.exec(text);
  return m ? m[1]! : text;
}

function paramType(entry: MessageEntry, field: string, spec: FieldSpec): ParamType {
  if (spec.type === "object" && spec.keyValue) return "map";
  if (!CLI_TYPES.includes(spec.type)) throw new Error(`${entry.type}.${field}: a ${spec.type} field can't be a CLI argument`);
  return spec.type as ParamType;
}

/** One message's `cli` section as a command. */
export function messageCommand(entry: MessageEntry, cli: MessageCli): Command {
  const fields = entry.fields;
  const spec = (f: string): FieldSpec => {
    const s = fields[f];
    if (!s) throw new Error(`${entry.type}: the CLI names no field "${f}"`);
    return s;
  };
  const defaults = cli.defaults ?? {};
  // `args: ["message?"]`: a positional argument that may be left out; `"keys..."`: the rest of the words.
  const args = (cli.args ?? []).map((a) => ({ field: a.replace(/(\?|\.\.\.)$/, ""), optional: a.endsWith("?"), many: a.endsWith("...") }));
  args.forEach((a, i) => {
    if (a.many && (i !== args.length - 1 || spec(a.field).type !== "string[]")) throw new Error(`${entry.type}: only the last positional argument, a string[], takes the rest of the words`);
  });
  const taken = new Set([...args.map((a) => a.field), ...(cli.rest ? [cli.rest] : []), ...Object.keys(cli.fixed ?? {})]);
  const param = (field: string, flag?: string, optional = false): Param => {
    const s = spec(field);
    const p: Param = { field, type: paramType(entry, field, s), description: s.description };
    if (flag !== undefined) p.flag = flag;
    if (field in defaults) p.default = defaults[field];
    // A positional argument is needed unless the CLI supplies it; a flag when the message needs it.
    if (!(field in defaults) && !optional && (flag === undefined || s.required)) p.required = true;
    if (s.accepted) p.accepted = s.accepted;
    return p;
  };
  const params: Param[] = args.map((a) => ({ ...param(a.field, undefined, a.optional), ...(a.many ? { many: true } : {}) }));
  for (const field of cli.flags ?? Object.keys(fields)) if (!taken.has(field)) params.push(param(field, flagName(field)));
  for (const [flag, field] of Object.entries(cli.percent ?? {})) {
    spec(field);
    const p = params.find((x) => x.field === flag);
    if (p?.type !== "integer") throw new Error(`${entry.type}: percent needs an integer flag, not "${flag}"`);
    p.percentField = field;
  }
  for (const field of cli.repeat ?? []) {
    const p = params.find((x) => x.field === field && x.flag !== undefined);
    if (p?.type !== "string[]") throw new Error(`${entry.type}: repeat needs a string[] flag, not "${field}"`);
    p.repeat = true;
  }
  for (const [letter, field] of Object.entries(cli.short ?? {})) params.push({ ...param(field, letter), description: `Short for --${flagName(field)}` });
  for (const [flag, sw] of Object.entries(cli.switches ?? {})) {
    spec(sw.field);
    params.push({ field: sw.field, flag, type: "boolean", description: sw.description, value: sw.value });
  }
  const cmd: Command = { path: cli.path, summary: cli.summary ?? firstSentence(entry.summary), message: entry.type, send: messageInfo(entry), params };
  if (cli.rest) cmd.rest = { field: cli.rest, description: spec(cli.rest).description };
  if (cli.fixed) cmd.fixed = cli.fixed;
  if (cli.oneOf) {
    for (const f of cli.oneOf) if (!params.some((p) => p.field === f)) throw new Error(`${entry.type}: oneOf names "${f}", which the CLI doesn't offer`);
    cmd.oneOf = cli.oneOf;
  }
  if (cli.view) cmd.view = cli.view;
  if (cli.run) cmd.run = cli.run;
  if (cli.status) {
    cmd.status = cli.status;
    if (cli.status === "exit_code") cmd.params.push({ field: "status_ok", flag: "status-ok", type: "boolean", local: true, description: "Exit 0 when it answered, whatever the program's status (default: exit with it)" });
  }
  return cmd;
}

/** Every command, sorted by path. */
export function buildCommandTable(messages: readonly MessageEntry[] = MESSAGES): Command[] {
  const out: Command[] = [];
  for (const m of messages) for (const cli of [m.cli ?? []].flat()) out.push(messageCommand(m, cli));
  out.push(...LOCAL_COMMANDS);
  const seen = new Set<string>();
  for (const c of out) {
    if (seen.has(c.path)) throw new Error(`two commands are called "ws ${c.path}"`);
    seen.add(c.path);
  }
  return out.sort((a, b) => a.path.localeCompare(b.path));
}

const messageInfo = (m: MessageEntry): MessageInfo => ({ since: m.since, longRunning: !!m.longRunning, stream: !!m.stream });

export function buildMessageTable(messages: readonly MessageEntry[] = MESSAGES): Record<string, MessageInfo> {
  return Object.fromEntries(messages.map((m) => [m.type, messageInfo(m)]));
}
