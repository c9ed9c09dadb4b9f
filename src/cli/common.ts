// What every CLI command shares: which socket, sending a message at the version that introduced
// it, printing replies for people or (--json) for scripts, and turning failures into advice.
import { messageTableJson } from "./message-table" with { type: "macro" };
import type { MessageInfo } from "../cli-table/spec";
import { serverName } from "../client/connect";
import { request, NoAnswer, NoServer, REPLY_TIMEOUT_MS, type ReplyObject } from "../client/request";
import type { KeptConnection } from "../client/kept-connection";
import { socketPath } from "../paths";
import { type Globals, takeGlobals } from "./global-flags";
import { safeJson, safeText } from "../safe-text";
import { MAX_LINE, VERSION } from "../protocol/version";
import { EXIT_TIMEOUT, exitFor } from "./exit-status";

export { type Globals, takeGlobals };

export let globals: Globals = { json: false };
export function setGlobals(g: Globals): void {
  globals = g;
}

export function sock(): string {
  return socketPath(globals);
}

/** A failure the CLI reports: one line on stderr, or under --json one v6 error object with
 * `code`, `message` and `hint` (the server's own reply when it refused), and an exit status
 * from the table in docs/cli.md. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode = 1,
    readonly code: string = "client_failed",
    /** The server's error reply, printed as it is under --json. */
    readonly reply?: ReplyObject,
  ) {
    super(message);
  }
}

/** The --json form of a failure: always `code`, `message` and `hint`. */
export function errorJson(e: CliError): Record<string, unknown> {
  if (e.reply) return { ...e.reply, hint: e.reply.hint ?? {} };
  return { v: VERSION, type: "error", code: e.code, message: e.message, hint: {} };
}

const OLD_SERVER_ADVICE =
  "the running ws server is older than this ws and doesn't know this command.\n" +
  "Install the new build, then restart the server: `ws kill-server` (or `ws kill-server --keep` to keep your layout), then `ws`.";

/** Exit status when a wait timed out (as timeout(1) does). */
export const WAIT_TIMEOUT_EXIT = EXIT_TIMEOUT;

let messages: Record<string, MessageInfo> | undefined;
/** Each message's `since`, `longRunning` and `stream`, from the registry at build time (a macro);
 * parsed on first use. */
export function messageTable(): Record<string, MessageInfo> {
  return (messages ??= JSON.parse(messageTableJson()));
}

/** What to run when no server answers, for the server this call chose. */
export function noServerError(e: NoServer): CliError {
  const flag = (globals.hosts?.length ? ` -H ${globals.hosts[0]}` : "") + (globals.name ? ` -L ${globals.name}` : "");
  return new CliError(`${e.message}. Start one with \`ws start${flag}\` (or just \`ws${flag}\`).`, 1, "no_server");
}

/** An error reply as one line for people, with the server's hint (did you mean, accepted, see). */
export function errorText(reply: ReplyObject): string {
  const hint = reply.hint as { did_you_mean?: unknown; accepted?: unknown[]; command?: string } | undefined;
  let text = String(reply.message ?? "error");
  if (hint?.did_you_mean !== undefined) text += ` (did you mean ${JSON.stringify(hint.did_you_mean)}?)`;
  else if (hint?.accepted?.length && hint.accepted.length <= 12) text += ` (accepted: ${hint.accepted.join(", ")})`;
  if (hint?.command) text += `\n  see: ${hint.command}`;
  return text;
}

/**
 * How long a request's reply may take, in ms (0: no limit). A wait gets its own timeout and 10 s
 * more (a timeout of 0 asks the server for no limit: then the CLI has none either); another
 * long-running request (a big save, a workstream's git) 10 minutes; everything else 10 s.
 * --timeout changes the last two.
 */
export function replyDeadline(entry: MessageInfo, fields: Record<string, unknown>): number {
  const own = ownTimeout(entry, fields);
  if (own !== undefined) return own === 0 ? 0 : own + WAIT_REPLY_GRACE_MS;
  return globals.timeoutMs ?? (entry.longRunning ? 10 * 60_000 : REPLY_TIMEOUT_MS);
}

/** How long past a wait's own timeout the CLI waits for the server to say so: a server that says
 * nothing by then (stopped, stuck) has let the wait run out all the same. */
const WAIT_REPLY_GRACE_MS = 2000;

/** A long-running request's own `timeout` (a wait's), in ms; undefined when it has none. */
function ownTimeout(entry: MessageInfo, fields: Record<string, unknown>): number | undefined {
  if (!entry.longRunning) return undefined;
  const wait = fields.wait as { timeout?: unknown } | undefined;
  const timeout = typeof fields.timeout === "number" ? fields.timeout : wait && typeof wait === "object" ? (wait.timeout ?? 0) : undefined;
  return typeof timeout === "number" ? timeout : undefined;
}

/** How long after a wait with no deadline begins, and between answers, the CLI asks the server
 * whether it still answers (a `hello` on another connection, given the reply deadline). */
const ANSWERING_EVERY_MS = 2000;

/** `reply`, unless the server stops answering first: then NoAnswer (no_answer), once a `hello`
 * has gone unanswered for the reply deadline (REPLY_TIMEOUT_MS). */
async function whileAnswering<T>(path: string, reply: Promise<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let done = false;
  const stopped = new Promise<never>((_, reject) => {
    const probe = async () => {
      try {
        await request(path, { v: VERSION, type: "hello" }, REPLY_TIMEOUT_MS);
      } catch (e) {
        // No server any more: the wait's own connection says so.
        if (!done && e instanceof NoAnswer)
          reject(new NoAnswer(`the ws server on ${serverName(path)} stopped answering while the wait ran (a hello went unanswered for ${REPLY_TIMEOUT_MS / 1000} s): is it stopped or stuck?`));
        return;
      }
      if (!done) timer = setTimeout(probe, ANSWERING_EVERY_MS);
    };
    timer = setTimeout(probe, ANSWERING_EVERY_MS);
  });
  try {
    return await Promise.race([reply, stopped]);
  } finally {
    done = true;
    clearTimeout(timer);
  }
}

/** A request that got no reply, as the CLI's error: no server, no answer in time, or a failure here. */
export function clientFailure(e: unknown): CliError {
  if (e instanceof CliError) return e;
  if (e instanceof NoServer) return noServerError(e);
  if (e instanceof NoAnswer) return new CliError(e.message, 1, "no_answer");
  return new CliError((e as Error).message);
}

let kept: KeptConnection | undefined;
/** Send every later message on one connection (a command chain, ws batch); undefined: one each. */
export function keepConnection(k: KeptConnection | undefined): void {
  kept = k;
}

/** Send a registered message at v6, whatever version introduced it, so every error the CLI shows
 * has the structured `code` and `hint` (the spec allows any message at the newest version); throw
 * CliError on an error reply. */
export async function send(type: string, fields: Record<string, unknown> = {}, info?: MessageInfo): Promise<ReplyObject> {
  const entry = info ?? messageTable()[type];
  if (!entry) throw new Error(`no message ${type} in the registry`);
  const deadline = replyDeadline(entry, fields);
  let reply: ReplyObject;
  try {
    const asked = (msg: Record<string, unknown>) => (kept ? kept.request(msg, deadline) : request(sock(), msg, deadline));
    // A reply with no deadline (a wait with no --timeout) may rightly take for ever, but a server
    // that stops answering (stopped, stuck) must not hold it so: ask it meanwhile whether it answers.
    const ask = (msg: Record<string, unknown>) => (deadline === 0 && !globals.hosts ? whileAnswering(sock(), asked(msg)) : asked(msg));
    reply = await ask({ v: Math.max(entry.since, VERSION), type, ...fields });
    // A server from before v6 refuses the version: ask again at the one that introduced the message.
    if (reply.type === "error" && reply.plain && entry.since < VERSION && /protocol version \d+ not supported/.test(String(reply.message)))
      reply = await ask({ v: entry.since, type, ...fields });
  } catch (e) {
    const own = ownTimeout(entry, fields);
    // A wait given --timeout ends by it, as timeout(1), even when the server never answers.
    if (e instanceof NoAnswer && own)
      throw new CliError(`timed out after ${own} ms: the ws server on ${serverName(sock())} did not answer (is it stopped or stuck?)`, WAIT_TIMEOUT_EXIT, "timeout");
    throw clientFailure(e);
  }
  if (reply.type === "error") {
    const message = String(reply.message ?? "error");
    if (reply.plain && /protocol version \d+ not supported|unknown (type|variant)/.test(message))
      throw new CliError(`${message}\n${OLD_SERVER_ADVICE}`);
    throw new CliError(errorText(reply), exitFor(typeof reply.code === "string" ? reply.code : undefined), String(reply.code ?? "internal"), reply);
  }
  return reply;
}

/** A reply's list field, or a clear error when another server (ws -H, another build) sent something else. */
export function replyList<T>(reply: ReplyObject, field: string): T[] {
  const v = reply[field];
  if (!Array.isArray(v) || !v.every((x) => typeof x === "object" && x !== null)) throw new CliError(`bad reply from the ws server on ${serverName(sock())}: \`${field}\` is not a list of objects`);
  return v as T[];
}

/** A failed read (src/safe-file.ts's FileReadError) as the CLI's error: `file_refused` when the checks
 * refused it (not a regular file, a device, over its bound), else the system's reason. */
export function fileRefused(e: unknown, what: string): CliError {
  const code = (e as { code?: unknown }).code;
  const refused = code === "NOT_REGULAR" || code === "TOO_BIG";
  return new CliError(`${what}: ${(e as Error).message}`, 1, refused ? "file_refused" : "client_failed");
}

/** An object-typed argument: the JSON in the file it names, or on stdin for `-`. It goes in one
 * request line, so it is read only up to a line's size (MAX_LINE), from a regular file, a pipe or a
 * terminal, never a FIFO or a device in the file's place (src/safe-file.ts). */
export async function readJsonArg(path: string): Promise<unknown> {
  const { readStdinBounded, readTextFileAsync } = await import("../safe-file");
  let text: string;
  try {
    text = path === "-" ? (await readStdinBounded(MAX_LINE)).toString("utf8") : await readTextFileAsync(path, MAX_LINE);
  } catch (e) {
    throw fileRefused(e, `can't read ${path === "-" ? "stdin" : path}`);
  }
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new CliError(`${path === "-" ? "stdin" : path} is not JSON: ${(e as Error).message}`);
  }
}

// Everything the CLI prints goes through these four: names, titles and messages come from others
// (a pane's program, another server), so people's text is made terminal-safe and JSON is escaped.

/** A line (or lines) of text for people on stdout; `keepSgr` lets colours through (pane read --styled). */
export function print(text: string, opts: { keepSgr?: boolean } = {}): void {
  console.log(safeText(text, opts));
}

/** A message for people on stderr. */
export function printError(text: string): void {
  console.error(safeText(text));
}

/** A value as one line of JSON: exact when parsed, with no raw control or bidi characters. */
export function printJson(value: unknown): void {
  printJsonLine(JSON.stringify(value));
}

/** A line of JSON text someone else made (a server's reply), escaped the same way. */
export function printJsonLine(line: string): void {
  console.log(safeJson(line));
}

/** Print a reply: JSON for scripts, else the given human text (if any). Every --json success is
 * one object with `v` and `type`, the server's replies and the CLI's own results alike. */
export function show(reply: ReplyObject, human?: string, opts: { keepSgr?: boolean } = {}): void {
  if (globals.json) printJson(reply.v === undefined ? { v: VERSION, ...reply } : reply);
  else if (human !== undefined && human !== "") print(human, opts);
}

/** A --json result the CLI made itself (not a server's reply): `v`, `type`, then its fields. */
export function printResult(type: string, fields: Record<string, unknown>): void {
  printJson({ v: VERSION, type, ...fields });
}
