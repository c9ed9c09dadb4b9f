// The control plane from the shell beyond single messages: ws api describe, ws call, ws events,
// and ws tab list (a view of workspace_list).
import type { ReplyObject } from "../client/request";
import { streamLines } from "../client/stream";
import { REPLY_TIMEOUT_MS } from "../client/request";
import { VERSION } from "../protocol/version";
import type { MessageDoc } from "../messages/catalogue";
import { EXIT_USAGE, exitFor } from "./exit-status";
import { CliError, clientFailure, replyList, replyDeadline, messageTable, errorText, globals, print, printError, printJsonLine, send, show, sock } from "./common";
import type { HandlerInput } from "./handlers";
import { tabLines } from "./views";
import type { WorkspaceInfo } from "../model/views";

/** A stream's connection failing: "no server" gets the same advice as a request. `replyMs`: the
 * first line's deadline (a stream's later lines come when they come). */
async function stream(line: string, onLine: (l: string) => boolean | void, replyMs: number): Promise<void> {
  await streamLines(sock(), line, onLine, replyMs).catch((e) => {
    throw clientFailure(e);
  });
}

// The catalogue's own types (a type import: the CLI loads nothing more for them).
export function formatMessage(m: MessageDoc): string {
  const kind = m.stream ? "request, stream" : m.request ? "request" : "message";
  const out = [`${m.type} (v${m.since}, ${kind})`, `  ${m.summary}`];
  if (m.fields.length) {
    out.push("  fields:");
    for (const f of m.fields) {
      const bits = [f.type, f.required ? "required" : f.default !== undefined ? `default ${JSON.stringify(f.default)}` : "optional"];
      if (f.accepted) bits.push(`one of ${f.accepted.join("|")}`);
      if (f.min !== undefined) bits.push(`>= ${f.min}`);
      if (f.max !== undefined) bits.push(`<= ${f.max}`);
      out.push(`    ${f.name.padEnd(12)} ${bits.join(", ")}`, `    ${"".padEnd(12)} ${f.description}`);
    }
  }
  if (m.reply) out.push(`  reply: ${m.reply.type}${m.reply.fields.length ? ` (${m.reply.fields.map((f) => f.name).join(", ")})` : ""}`);
  else out.push("  reply: ok (plain `ok` at v1–v5), then acted on");
  if (m.errors.length) out.push(`  errors: ${m.errors.join(", ")} (and the envelope's)`);
  return out.join("\n");
}

export async function describe({ fields: args }: HandlerInput): Promise<void> {
  const fields = args.message !== undefined ? { message: String(args.message) } : {};
  let cat: { messages: MessageDoc[]; errors: { code: string; description: string }[]; protocol: { version: number; min_version: number } } & Record<string, unknown>;
  try {
    cat = (await send("describe", fields)) as unknown as typeof cat;
  } catch (e) {
    if (!(e instanceof CliError) || !/no ws server/.test(e.message)) throw e;
    const { catalogue } = await import("../messages/catalogue");
    const local = catalogue() as unknown as typeof cat;
    const messages = args.message ? local.messages.filter((m) => m.type === args.message) : local.messages;
    if (!messages.length) throw new CliError(`unknown type "${args.message}"`);
    cat = { ...local, type: "catalogue", messages };
  }
  if (globals.json) return show(cat as unknown as ReplyObject);
  const head = args.message ? [] : [`ws protocol ${cat.protocol.min_version}..=${cat.protocol.version}`, ""];
  const tail = args.message ? [] : ["", "error codes:", ...cat.errors.map((e) => `  ${e.code.padEnd(22)} ${e.description}`)];
  print([...head, cat.messages.map(formatMessage).join("\n\n"), ...tail].join("\n"));
}

export async function call({ fields: args }: HandlerInput): Promise<void> {
  let fields: Record<string, unknown> = {};
  if (args.fields) {
    try {
      fields = JSON.parse(String(args.fields));
    } catch (e) {
      throw new CliError(`the fields are not JSON: ${(e as Error).message}`, EXIT_USAGE, "usage");
    }
    if (typeof fields !== "object" || fields === null || Array.isArray(fields)) throw new CliError("the fields must be a JSON object", EXIT_USAGE, "usage");
  }
  const type = String(args.type);
  const entry = messageTable()[type];
  const v = (fields.v as number | undefined) ?? entry?.since ?? VERSION;
  const line = JSON.stringify({ ...fields, v, type });
  let failure: { message: string; code?: string } | undefined;
  let first = true;
  await stream(line, (l) => {
    if (first) {
      first = false;
      failure = callFailure(l);
    }
    printJsonLine(l); // a JSON reply, or a plain `ok` / `error: …` line: escaped either way
    // One reply, unless the message turns the connection into a stream.
    if (!entry?.stream || failure) return false;
  }, entry ? replyDeadline(entry, fields) : (globals.timeoutMs ?? REPLY_TIMEOUT_MS));
  // The reply is ws call's output, as it came; the failure is said on stderr as every command does.
  if (failure) {
    printError(`ws: ${failure.message}`);
    process.exitCode = exitFor(failure.code);
  }
}

/** An error reply (v6 JSON, or an older version's plain `error: …` line) as its message and code. */
function callFailure(line: string): { message: string; code?: string } | undefined {
  if (line.startsWith("error")) return { message: line.replace(/^error:?\s*/, "") || "error" };
  if (!/^\{[^]*"type":"error"/.test(line)) return undefined;
  try {
    const o = JSON.parse(line) as ReplyObject;
    return { message: errorText(o), ...(typeof o.code === "string" ? { code: o.code } : {}) };
  } catch {
    return { message: line };
  }
}

export async function events({ fields: args }: HandlerInput): Promise<void> {
  const fields: Record<string, unknown> = { v: VERSION, type: "subscribe", ...args };
  let first = true;
  let failure: CliError | undefined;
  await stream(JSON.stringify(fields), (l) => {
    let o: Record<string, unknown>;
    try {
      o = JSON.parse(l);
    } catch {
      failure = new CliError(l);
      return false;
    }
    if (first) {
      first = false;
      if (o.type === "error") {
        failure = new CliError(errorText(o as ReplyObject), 1, String(o.code ?? "internal"), o as ReplyObject);
        return false;
      }
    }
    if (globals.json) return void printJsonLine(l);
    if (o.type === "subscribed") return void printError(`# subscribed at seq ${o.seq}, boot ${o.boot_id}`);
    const { v: _v, type: _t, event, seq, boot_id: _b, time: _time, ...rest } = o;
    print(`${seq ?? "-"} ${event} ${Object.entries(rest).map(([k, val]) => `${k}=${typeof val === "string" ? val : JSON.stringify(val)}`).join(" ")}`);
  }, globals.timeoutMs ?? REPLY_TIMEOUT_MS).then(() => {
    // The stream ends only when the server closes it: a script reading events must see that fail.
    if (!failure) failure = new CliError("the server closed the event stream (it stopped, crashed or was killed)", 1, "client_failed");
  });
  if (failure) throw failure;
}

/** ws tab list [--workspace W]: the tabs of one workspace, from workspace_list. */
export async function tabList({ fields: args }: HandlerInput): Promise<void> {
  const reply = await send("workspace_list");
  const wss = replyList<WorkspaceInfo>(reply, "workspaces");
  const want = args.workspace as string | undefined;
  const ws = want ? (wss.find((w) => w.name === want) ?? wss.find((w) => w.name.toLowerCase() === want.toLowerCase())) : wss.find((w) => w.current);
  if (!ws) throw new CliError(`no workspace "${want}" (have: ${wss.map((w) => w.name).join(", ")})`);
  show({ type: "tabs", workspace: ws.name, tabs: ws.tabs }, tabLines(ws.tabs).join("\n"));
}
