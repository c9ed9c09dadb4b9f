// The scripting CLI: find the command in the table baked in at build time, parse its arguments,
// then send its message and print the reply, or run its handler (loaded only then).
import { commandJsonByPath } from "./message-table" with { type: "macro" };
import { WS_VERSION, BUILD } from "../build-info";
import { MAX_LINE, VERSION } from "../protocol/version";
import { CliError, errorJson, errorText, fileRefused, type Globals, globals, keepConnection, print, printError, printJson, readJsonArg, send, setGlobals, show, sock, takeGlobals } from "./common";
import { serverName } from "../client/connect";
import { HANDLERS } from "./handlers";
import { commandHelp, groupHelp, mainHelp } from "./help";
import { type Found, MissingPane, UsageError, findCommand, parseArgs, takesFirst } from "../cli-table/parse";
import type { Command } from "../cli-table/spec";
import { viewText } from "./views";
import { EXIT_USAGE } from "./exit-status";
import { serverNameProblem } from "../protocol/names";

/** Each command's table entry as JSON text, by its path (from the registry at build time). */
const COMMAND_JSON: Record<string, string> = commandJsonByPath();

let commands: Command[] | undefined;
/** Every command: the registry's messages and the CLI's own. Parsed on first use, and only for
 * help and mistakes: a call parses just the command it runs (commandNamed). */
export function commandTable(): Command[] {
  return (commands ??= Object.values(COMMAND_JSON).map((json) => JSON.parse(json) as Command));
}

/** The command the leading words name exactly (`split`, `pane send`), or undefined: then
 * findCommand, over the whole table, finds a group or says what is wrong. */
function commandNamed(words: string[]): Found | undefined {
  const first = words[0]!;
  const second = words[1];
  // `ws fan status NAME` before `ws fan N …`: a command's subcommand wins over its own argument.
  const path = `${first} ${second}`;
  // Three words (`ws agent queue cancel ID`) before two (`ws agent queue`).
  const third = words[2];
  if (third !== undefined && !third.startsWith("-") && Object.hasOwn(COMMAND_JSON, `${path} ${third}`)) return { command: JSON.parse(COMMAND_JSON[`${path} ${third}`]!), rest: words.slice(3) };
  if (second !== undefined && !second.startsWith("-") && Object.hasOwn(COMMAND_JSON, path)) {
    const command = JSON.parse(COMMAND_JSON[path]!) as Command;
    // A word it can't take may be a mistyped deeper command: findCommand says which.
    if (third !== undefined && !third.startsWith("-") && !takesFirst(command, third) && Object.keys(COMMAND_JSON).some((p) => p.startsWith(`${path} `))) return undefined;
    return { command, rest: words.slice(2) };
  }
  if (!Object.hasOwn(COMMAND_JSON, first)) return undefined;
  const command = JSON.parse(COMMAND_JSON[first]!) as Command;
  // A word the command can't take may be a mistyped subcommand: findCommand says which.
  if (second !== undefined && !second.startsWith("-") && !takesFirst(command, second) && Object.keys(COMMAND_JSON).some((p) => p.startsWith(`${first} `))) return undefined;
  return { command, rest: words.slice(1) };
}

const USAGE_EXIT = EXIT_USAGE;

export async function runCli(argv: string[]): Promise<void> {
  // `ws tmux a \; b` is one tmux command line: tmux's parser splits it, not ws's chains.
  const chain = takeGlobals(argv).rest[0] === "tmux" ? [argv] : splitChain(argv);
  try {
    if (chain.length > 1) return await runChain(chain);
    const batch = chain[0]?.includes("batch") ? batchOptions(chain[0]) : undefined;
    if (batch) return await runChain(chain, batch);
    await execute(argv);
  } catch (e) {
    fail(e);
  }
}

/** Any failure as the CLI's error, with its code and exit status. */
const asCliError = (e: unknown): CliError =>
  e instanceof CliError ? e : e instanceof UsageError ? new CliError(e.message, USAGE_EXIT, "usage") : new CliError((e as Error)?.message ?? String(e), 1, "internal");

/** Say a failure: a line on stderr, and under --json the error object on stdout. */
function report(failure: CliError, e: unknown): void {
  // Scripts read the JSON error on stdout; people read the line on stderr (both under --json).
  if (globals.json) printJson(errorJson(failure));
  printError(`ws: ${failure.message}`);
  if (process.env.WS_DEBUG) console.error(e);
}

/** Report a failure and exit with its status. */
function fail(e: unknown): never {
  const failure = asCliError(e);
  report(failure, e);
  process.exit(failure.exitCode);
}

/** One command line: globals, then the command (or help, or attach). Throws on failure. */
async function execute(argv: string[], inherited?: Globals): Promise<void> {
  const { globals: g, rest } = takeGlobals(argv);
  if (inherited) for (const [k, v] of Object.entries(inherited)) if ((g as unknown as Record<string, unknown>)[k] === undefined || (k === "json" && v)) (g as unknown as Record<string, unknown>)[k] = v;
  if (!g.hosts && process.env.WS_HOST) g.hosts = [process.env.WS_HOST];
  setGlobals(g);
  // `ws tmux`'s words are tmux's own (split-window -h), as words after `--` are a command's.
  const dashes = rest[0] === "tmux" ? 0 : rest.indexOf("--");
  const before = dashes >= 0 ? rest.slice(0, dashes) : rest;
  const help = before.includes("--help") || before.includes("-h");
  const words = help ? rest.filter((w, i) => (w !== "--help" && w !== "-h") || (dashes >= 0 && i > dashes)) : rest;
  if (g.timeoutMs !== undefined && !Number.isSafeInteger(g.timeoutMs)) throw new UsageError("--timeout is a whole number of milliseconds (0: no limit)");
  const nameProblem = g.name === undefined ? undefined : serverNameProblem(g.name);
  if (nameProblem) throw new UsageError(`-L ${JSON.stringify(g.name)}: the server's name ${nameProblem}`);
  // -H HOST: the remote module (loaded only then) runs the command there or routes its connections.
  if ((g.hosts || g.allHosts) && !help) {
    if (inherited) throw new UsageError("command chains and ws batch run against this machine's server; give -H to each ws call instead");
    const found = words.length ? (commandNamed(words) ?? findCommand(commandTable(), words)) : undefined;
    if (await (await import("./remote")).runRemote(found && "command" in found ? found.command : undefined, argv, words.length === 0)) return;
  }
  if (words.length === 0) {
    if (help) return print(mainHelp(commandTable(), `${WS_VERSION} (${BUILD})`));
    if (inherited) throw new UsageError("an empty command in a chain");
    // Bare `ws` (or `ws --local`, `ws -L NAME`): attach, starting the server if none runs.
    return await (await import("./attach-cmds")).defaultAttach();
  }
  if (words.length === 1 && (words[0] === "--version" || words[0] === "-v")) return print(`${WS_VERSION} (${BUILD})`);
  const found = commandNamed(words) ?? findCommand(commandTable(), words);
  if (!("command" in found)) {
    if (help) return print(groupHelp(found.group, found.commands));
    throw new UsageError(`${found.group} needs a command: ${found.commands.map((c) => c.path.slice(found.group.length + 1)).join(", ")}`);
  }
  const { command } = found;
  if (help) return print(commandHelp(command));
  try {
    await run(command, found.rest);
  } catch (e) {
    throw e instanceof CliError && e.code === "invalid_params" && e.reply ? asUsage(e.reply, command) : e;
  }
}

/** The server refused a value the command line gave (invalid_params): a usage error like the CLI's
 * own, naming what the user typed (`--size`, `PANE`) rather than the protocol's field (`percent`). */
function asUsage(reply: Record<string, unknown>, command: Command): CliError {
  const hint = (reply.hint && typeof reply.hint === "object" ? reply.hint : {}) as Record<string, unknown>;
  const field = typeof hint.param === "string" ? hint.param : undefined;
  const p = field === undefined ? undefined : (command.params.find((q) => q.field === field && q.value === undefined) ?? command.params.find((q) => q.percentField === field));
  const typed = p ? (p.flag ? `--${p.flag}` : p.field.toUpperCase()) : undefined;
  let message = String(reply.message ?? "error");
  if (typed && field) message = message.split(`\`${field}\``).join(`\`${typed}\``);
  const usage = { v: VERSION, type: "error", code: "usage", message, hint: { ...hint, ...(typed ? { flag: typed } : {}), command: `ws ${command.path} --help` } };
  return new CliError(errorText(usage), EXIT_USAGE, "usage", usage);
}

/** `a \; b \; c`: the command lines of a chain, split at words that are exactly ";" (a word "\;"
 * is a literal ";"), as tmux splits its command lists. */
function splitChain(argv: string[]): string[][] {
  const out: string[][] = [[]];
  for (const w of argv) {
    if (w === ";") out.push([]);
    else out[out.length - 1]!.push(w === "\\;" ? ";" : w);
  }
  return out;
}

interface BatchOptions {
  /** The file of command lines; undefined or "-": stdin. */
  file?: string;
  /** Run every line, reporting each failure, and exit with the first failure's status. */
  keepGoing: boolean;
}

/** `ws batch [FILE] [--keep-going]` (globals allowed before it), else undefined (`ws batch --help`
 * is help). A mistake in its own words is a usage error. */
function batchOptions(argv: string[]): BatchOptions | undefined {
  const { rest } = takeGlobals(argv);
  if (rest[0] !== "batch" || rest.includes("--help") || rest.includes("-h")) return undefined;
  const fields = parseArgs(JSON.parse(COMMAND_JSON.batch!) as Command, rest.slice(1));
  return { ...(typeof fields.file === "string" && fields.file !== "-" ? { file: fields.file } : {}), keepGoing: fields.keep_going === true };
}

/** One command line of a chain or a batch, and where it came from, for its errors. */
interface Line {
  words: string[];
  /** `FILE:LINE` (`-:LINE` for stdin) in a batch; `command N (…)` in a chain. */
  where: string;
  /** Why the line is no command line (an unclosed quote), instead of words. */
  mistake?: string;
}

/**
 * A chain (`ws tab new -- make \; split --below -- htop`) or `ws batch` (one command line per stdin
 * line): one process and one connection for all, in order, stopping at the first that fails (an
 * error, or a non-zero exit status such as a search that found nothing), whose status is ws's.
 */
/** In a chain, the pane the last command made (tab new, split) is the next one's default PANE, as
 * tmux's new-window makes its window the current one. */
let chainPane: number | undefined;
let chaining = false;

async function runChain(chain: string[][], batch?: BatchOptions): Promise<void> {
  chaining = true;
  const first = takeGlobals(chain[0]!).globals;
  const { KeptConnection } = await import("../client/kept-connection");
  setGlobals(first);
  const connection = new KeptConnection(sock());
  keepConnection(connection);
  /** --keep-going: the first failure's exit status, reported at the end. */
  let failedWith: number | undefined;
  try {
    const lines = batch ? batchLines(batch.file) : chainLines(chain);
    for await (const { words, where, mistake } of lines) {
      try {
        if (mistake !== undefined) throw new UsageError(mistake);
        if (!words.length) throw new UsageError("an empty command (two ; in a row?)");
        await execute(words, first);
      } catch (e) {
        // Say where the failed command came from; the code and status stay the command's own.
        const f = asCliError(e);
        const json = errorJson(f);
        const at = new CliError(`${where}: ${f.message}`, f.exitCode, f.code, { ...json, type: "error", at: where });
        if (!batch?.keepGoing) throw at;
        report(at, e);
        failedWith ??= at.exitCode;
        continue;
      }
      if (process.exitCode) {
        // A non-zero status (a search that found nothing) stops the chain as a failure does.
        if (!batch?.keepGoing) return;
        failedWith ??= Number(process.exitCode);
        process.exitCode = 0;
      }
    }
  } finally {
    keepConnection(undefined);
    connection.close();
  }
  if (failedWith !== undefined) process.exitCode = failedWith;
}

/** A chain's command lines, each named by its place and words. */
async function* chainLines(chain: string[][]): AsyncGenerator<Line> {
  let n = 0;
  for (const words of chain) yield { words, where: `command ${++n} (${words.join(" ").slice(0, 80)})` };
}

/** ws batch: the file's (or stdin's) lines, each split into words as a shell would without
 * expanding anything, each named FILE:LINE. */
async function* batchLines(file: string | undefined): AsyncGenerator<Line> {
  const { splitWords } = await import("../shell-words");
  const { FileReadError, fileLines, stdinLines } = await import("../safe-file");
  const name = file ?? "-";
  let lineNo = 0;
  // Each line is one command line: at most a request line's size (MAX_LINE), never from a device.
  let lines: AsyncGenerator<string>;
  try {
    lines = file === undefined ? stdinLines(MAX_LINE) : fileLines(file, MAX_LINE);
  } catch (e) {
    if (e instanceof FileReadError) throw fileRefused(e, "ws batch");
    throw e;
  }
  for (;;) {
    let next: IteratorResult<string>;
    try {
      next = await lines.next();
    } catch (e) {
      if (e instanceof FileReadError) throw fileRefused(e, lineNo ? `ws batch: ${name}:${lineNo + 1}` : "ws batch");
      throw e;
    }
    if (next.done) return;
    lineNo++;
    let words: string[];
    try {
      words = splitWords(next.value);
    } catch (e) {
      yield { words: [], where: `${name}:${lineNo}`, mistake: (e as Error).message };
      continue;
    }
    if (!words.length) continue;
    for (const command of splitChain(words)) yield { words: command, where: `${name}:${lineNo}` };
  }
}

async function run(command: Command, words: string[]): Promise<void> {
  let fields: Record<string, unknown> = {};
  try {
    // With -H, this pane and this directory are not the remote server's: no defaults from them.
    if (!command.ownArgs) fields = globals.hosts ? parseArgs(command, words, { ...process.env, WS_PANE_ID: undefined }, () => undefined) : parseArgs(command, words, chainPane !== undefined ? { ...process.env, WS_PANE_ID: String(chainPane) } : process.env);
  } catch (e) {
    if (e instanceof MissingPane) throw new UsageError(e.message);
    throw e;
  }
  // The CLI's own flags (--status-ok) are not the message's.
  const local: Record<string, unknown> = {};
  for (const p of command.params)
    if (p.local && p.field in fields) {
      local[p.field] = fields[p.field];
      delete fields[p.field];
    }
  // --timeout is the wait's own where the command waits (ws wait …, agent send --wait); else the
  // reply's deadline (send reads it from globals).
  if (globals.timeoutMs !== undefined) {
    if (command.params.some((p) => p.field === "timeout")) fields.timeout = globals.timeoutMs;
    else if (fields.wait !== null && typeof fields.wait === "object") fields.wait = { ...fields.wait, timeout: globals.timeoutMs };
  }
  if (command.run) {
    const load = HANDLERS[command.run];
    if (!load) throw new Error(`no handler ${command.run} for ws ${command.path}`);
    return (await load())({ command, fields, words, runCli, table: commandTable, lookup: (w) => commandNamed(w) ?? findCommand(commandTable(), w) });
  }
  for (const p of command.params) if (p.type === "object" && typeof fields[p.field] === "string") fields[p.field] = await readJsonArg(String(fields[p.field]));
  const reply = await send(command.message!, fields, command.send);
  if (reply.type === "pane" && typeof reply.pane === "number" && chaining) chainPane = reply.pane;
  let human: string | undefined;
  try {
    human = command.view ? viewText(command.view, reply, fields) : undefined;
  } catch (e) {
    // A reply not shaped as the message's (a remote ws of another build, or a broken one): said, not a crash.
    if (e instanceof TypeError) throw new CliError(`bad reply from the ws server on ${serverName(sock())}: ${e.message}`);
    throw e;
  }
  show(reply, human, { keepSgr: fields.styled === true });
  process.exitCode = exitStatus(command, reply, local);
}

/** The exit status a successful reply gives (docs/cli.md, Exit statuses). */
function exitStatus(command: Command, reply: Record<string, unknown>, local: Record<string, unknown>): number {
  switch (command.status) {
    case "exit_code": {
      if (local.status_ok === true) return 0;
      const code = reply.exit_code;
      // A signal or a closed pane has no status: report failure, as a shell's 128+N would.
      return typeof code === "number" ? code & 255 : reply.closed || reply.signal ? 1 : 0;
    }
    case "found":
      return Array.isArray(reply.matches) && reply.matches.length === 0 ? 1 : 0;
    case "warnings":
      // Problems reported are a failure to a script (`ws config reload && …`).
      return Array.isArray(reply.warnings) && reply.warnings.length > 0 ? 1 : 0;
    default:
      return 0;
  }
}
