// ws command lines inside the interface: `prefix :` (tmux's command-prompt) and keys.toml keys
// bound to a line with arguments ("v" = "split --right --size 40%"). A line is split into words
// the way a shell would quote them (no expansion, no shell), checked against the CLI's command
// table, and run as the ws CLI itself, in the focused pane's place: $WS_PANE_ID is that pane and
// the directory is its program's, so `split --right` splits it there, `new NAME` uses the checkout
// it is in and `open FILE` finds FILE where it is, as the same words typed in its shell would.

import { buildCommandTable } from "../cli-table/table";
import { findCommand, parseArgs, UsageError } from "../cli-table/parse";
import type { Command } from "../cli-table/spec";
import { valueKind } from "../cli-table/value-kind";
import { selfArgv } from "../paths";
import { safeText } from "../safe-text";
import { shellWord } from "../shell-quote";
import { splitWords as shellWords } from "../shell-words";

/** How long a command line may run before it is stopped (a wait that never ends). */
export const LINE_TIMEOUT_MS = 30_000;
/** The most of a command's output kept for the status line or the output view. */
const OUTPUT_MAX = 64 * 1024;

let table: Command[] | undefined;
const commands = () => (table ??= buildCommandTable());

/** Words as a shell would split them, expanding nothing (shell-words.ts); an unclosed quote is the
 * person's usage error. */
export function splitWords(line: string): string[] {
  try {
    return shellWords(line);
  } catch (e) {
    throw new UsageError(`${(e as Error).message} in the command line`);
  }
}

/** Words for the CLI: a leading "ws" is the command's own name, typed out of habit. */
function lineWords(line: string): string[] {
  const words = splitWords(line);
  return words[0] === "ws" ? words.slice(1) : words;
}

/** What is wrong with a command line, as the CLI would refuse it; undefined when nothing is. */
export function checkCommandLine(line: string): string | undefined {
  try {
    const words = lineWords(line);
    if (!words.length) return "is empty";
    if (words[0] === "attach" || words[0]!.startsWith("-")) return "can't run inside the interface";
    const found = findCommand(commands(), words);
    if (!("command" in found)) return `needs a command: ${found.commands.map((c) => c.path).join(", ")}`;
    if (!found.command.ownArgs) parseArgs(found.command, found.rest, { WS_PANE_ID: "1" }, () => "/");
    return undefined;
  } catch (e) {
    return (e as Error).message;
  }
}

/** A checked command line's command (its path, "ship") and fields, as the CLI would parse them. */
export function parseCommandLine(line: string, pane: number | undefined): { path: string; fields: Record<string, unknown> } | undefined {
  try {
    const found = findCommand(commands(), lineWords(line));
    if (!("command" in found) || found.command.ownArgs) return undefined;
    return { path: found.command.path, fields: parseArgs(found.command, found.rest, { WS_PANE_ID: pane === undefined ? undefined : String(pane) }, () => undefined) };
  } catch {
    return undefined;
  }
}

/** The values an argument of a kind takes ("pane", "template", … as src/cli-table/value-kind.ts
 * names them), from the server's model and ws's files; [] for a kind it can't list. */
export type ValuesOf = (kind: string) => readonly string[];

/** What the word after `lead` (the words typed, the command's first) may be: the argument or flag
 * value it fills, as the shell completion finds it (one rule: valueKind). */
function argumentChoices(lead: string[], values: ValuesOf): string[] {
  let found: ReturnType<typeof findCommand>;
  try {
    found = findCommand(commands(), lead);
  } catch {
    return [];
  }
  if (!("command" in found)) return [];
  const c = found.command;
  const positionals = c.params.filter((p) => !p.flag);
  let n = 0;
  for (let i = 0; i < found.rest.length; i++) {
    const w = found.rest[i]!;
    if (w === "--") return [];
    if (w.startsWith("-")) {
      const p = c.params.find((p) => p.flag !== undefined && (p.flag.length === 1 ? `-${p.flag}` : `--${p.flag}`) === w);
      if (p && p.type !== "boolean") {
        if (i === found.rest.length - 1) return kindValues(valueKind(c, p), values);
        i++;
      }
      continue;
    }
    n++;
  }
  const p = positionals[n] ?? (positionals.at(-1)?.many ? positionals.at(-1) : undefined);
  return p ? kindValues(valueKind(c, p), values) : [];
}

function kindValues(kind: string, values: ValuesOf): string[] {
  if (kind.startsWith("=")) return kind.slice(1).split(",");
  if (kind === "ws-command") return [...new Set(commands().map((c) => c.path.split(" ")[0]!))];
  return kind === "-" || kind === "file" ? [] : [...values(kind)];
}

/** Tab completion: the line with its last word completed as far as it is one word, and the
 * choices when there are several. Command words, flags, and the values of arguments (layout
 * names, pane ids, templates…) from `values`. */
export function completeLine(line: string, values: ValuesOf = () => []): { line: string; choices: string[] } {
  let words: string[];
  try {
    words = splitWords(line);
  } catch {
    return { line, choices: [] };
  }
  const ended = line === "" || /\s$/.test(line);
  const last = ended ? "" : (words.pop() ?? "");
  const lead = words[0] === "ws" ? words.slice(1) : words;
  let choices: string[];
  if (last.startsWith("-")) {
    const found = lead.length ? safeFind(lead) : undefined;
    const flags = found?.params.filter((p) => p.flag).map((p) => `--${p.flag}`) ?? [];
    choices = flags.filter((f) => f.startsWith(last));
  } else if (lead.length === 0 || (lead.length === 1 && commands().some((c) => c.path.startsWith(`${lead[0]} `)))) {
    // The command's first or second word.
    const paths = commands().map((c) => c.path.split(" "));
    const at = lead.length;
    choices = [...new Set(paths.filter((p) => p.length > at && (at === 0 || p[0] === lead[0])).map((p) => p[at]!))].filter((w) => w.startsWith(last)).sort();
    // A command that is a group's first word too (ws fan N …) takes arguments there as well.
    if (at === 1) choices.push(...argumentChoices(lead, values).filter((w) => w.startsWith(last) && !choices.includes(w)));
  } else choices = [...new Set(argumentChoices(lead, values))].filter((w) => w.startsWith(last));
  if (!choices.length) return { line, choices };
  let common = choices[0]!;
  for (const c of choices) while (!c.startsWith(common)) common = common.slice(0, -1);
  const base = ended ? line : line.slice(0, line.length - last.length);
  if (choices.length === 1) return { line: `${base}${shellWord(common)} `, choices: [] };
  return { line: base + (common.length > last.length ? shellWord(common) : last), choices };
}

function safeFind(words: string[]): Command | undefined {
  try {
    const f = findCommand(commands(), words);
    return "command" in f ? f.command : undefined;
  } catch {
    return undefined;
  }
}

export interface LineResult {
  status: number;
  /** What it printed, free of escape sequences, stdout first. */
  output: string;
  /** What it printed on stderr alone, the same way cleaned. */
  stderr?: string;
}

async function readBounded(stream: ReadableStream<Uint8Array>): Promise<string> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of stream) {
    if (size < OUTPUT_MAX) chunks.push(chunk.subarray(0, OUTPUT_MAX - size));
    size += chunk.length; // the rest is read and dropped, so the command never blocks on a full pipe
  }
  return new TextDecoder().decode(Buffer.concat(chunks));
}



/** Run a checked command line as the ws CLI against this server, in `pane`'s place: in `cwd` (its
 * directory, process-info.ts's paneDirectory) when given, else in the server's. */
export async function runCommandLine(line: string, socketPath: string, pane: number | undefined, cwd?: string, flags: string[] = []): Promise<LineResult> {
  const words = lineWords(line);
  // Flags the interface adds (a split's --focus) go before any `--` and its command.
  const end = words.indexOf("--");
  words.splice(end < 0 ? words.length : end, 0, ...flags);
  const env: Record<string, string | undefined> = { ...process.env, WS_SOCKET: socketPath, WS_PANE_ID: pane === undefined ? undefined : String(pane), WS_HOST: undefined };
  if (cwd !== undefined) env.PWD = cwd; // as a shell there would have it, not the server's
  // argv, never a shell string: the words go to ws as they are.
  const child = Bun.spawn([...selfArgv(), ...words], { env, cwd, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  const timer = setTimeout(() => child.kill(), LINE_TIMEOUT_MS);
  try {
    const [out, err, status] = await Promise.all([readBounded(child.stdout), readBounded(child.stderr), child.exited]);
    const clean = (text: string) => safeText(text.trimEnd()).replace(/\t/g, "  ");
    return { status, output: clean(out + err), stderr: clean(err) };
  } finally {
    clearTimeout(timer);
  }
}
