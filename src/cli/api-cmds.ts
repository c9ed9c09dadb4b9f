// The v6 control plane from the shell: ws api describe, ws call, ws wait …, ws events, ws pane info.
import { defineCommand } from "citty";
import { REGISTRY } from "../commands";
import { request, NoServer, type ReplyObject } from "../client/request";
import { streamLines } from "../client/stream";
import { VERSION } from "../protocol/version";
import type { MessageDoc } from "../commands/catalogue";
import { CliError, globals, paneArg, print, printError, printJson, printJsonLine, send, show, sock } from "./common";

/** citty's runMain prints a thrown error with its stack and exits 1: report it ourselves instead. */
function guard<A>(fn: (a: A) => Promise<void>): (a: A) => Promise<void> {
  return async (a) => {
    try {
      await fn(a);
    } catch (e) {
      printError(`ws: ${(e as Error).message}`);
      process.exit(e instanceof CliError ? e.exitCode : 1);
    }
  };
}

/** Exit status of `ws wait` when the wait timed out (as timeout(1) does). */
export const WAIT_TIMEOUT_EXIT = 124;

function errorText(reply: ReplyObject): string {
  const hint = reply.hint as { did_you_mean?: unknown; accepted?: unknown[]; command?: string } | undefined;
  let text = String(reply.message ?? "error");
  if (hint?.did_you_mean !== undefined) text += ` (did you mean ${JSON.stringify(hint.did_you_mean)}?)`;
  else if (hint?.accepted?.length && hint.accepted.length <= 12) text += ` (accepted: ${hint.accepted.join(", ")})`;
  if (hint?.command) text += `\n  see: ${hint.command}`;
  return text;
}

/** One v6 request with a deadline that suits it; error replies become CliError (exit 1, or 124 on timeout). */
async function call6(type: string, fields: Record<string, unknown>, timeoutMs = 15000): Promise<ReplyObject> {
  let reply: ReplyObject;
  try {
    reply = await request(sock(), { v: VERSION, type, ...fields }, timeoutMs);
  } catch (e) {
    if (e instanceof NoServer) throw new CliError(`${e.message}. Start one with \`ws start\` (or just \`ws\`).`);
    throw new CliError((e as Error).message);
  }
  if (reply.type === "error") {
    if (globals.json) printJson(reply);
    throw new CliError(errorText(reply), reply.code === "timeout" ? WAIT_TIMEOUT_EXIT : 1);
  }
  return reply;
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

const apiDescribe = defineCommand({
  meta: { name: "describe", description: "Describe every message, or one: ws api describe [TYPE] [--json]. Asks the server; without one, this build's catalogue" },
  args: { type: { type: "positional", required: false, description: "A message type" } },
  run: guard(async ({ args }: { args: any }) => {
    const fields = args.type ? { message: String(args.type) } : {};
    let cat: { messages: MessageDoc[]; errors: { code: string; description: string }[]; protocol: { version: number; min_version: number } } & Record<string, unknown>;
    try {
      cat = (await call6("describe", fields)) as unknown as typeof cat;
    } catch (e) {
      if (!(e instanceof CliError) || !/no ws server/.test(e.message)) throw e;
      const { catalogue } = await import("../commands/catalogue");
      const local = catalogue() as unknown as typeof cat;
      const messages = args.type ? local.messages.filter((m) => m.type === args.type) : local.messages;
      if (!messages.length) throw new CliError(`unknown type "${args.type}"`);
      cat = { ...local, type: "catalogue", messages };
    }
    if (globals.json) return printJson(cat);
    const head = args.type ? [] : [`ws protocol ${cat.protocol.min_version}..=${cat.protocol.version}`, ""];
    const tail = args.type ? [] : ["", "error codes:", ...cat.errors.map((e) => `  ${e.code.padEnd(22)} ${e.description}`)];
    print([...head, cat.messages.map(formatMessage).join("\n\n"), ...tail].join("\n"));
  }),
});

export const api = defineCommand({
  meta: { name: "api", description: "The control protocol: ws api describe [TYPE]" },
  subCommands: { describe: apiDescribe },
});

export const call = defineCommand({
  meta: { name: "call", description: "Send any message at the version that introduced it and print the reply: ws call TYPE ['{json fields}']" },
  args: {
    type: { type: "positional", required: true, description: "The message type" },
    fields: { type: "positional", required: false, description: "Its fields, as a JSON object" },
  },
  run: guard(async ({ args }: { args: any }) => {
    let fields: Record<string, unknown> = {};
    if (args.fields) {
      try {
        fields = JSON.parse(String(args.fields));
      } catch (e) {
        throw new CliError(`the fields are not JSON: ${(e as Error).message}`);
      }
      if (typeof fields !== "object" || fields === null || Array.isArray(fields)) throw new CliError("the fields must be a JSON object");
    }
    const type = String(args.type);
    const entry = REGISTRY.get(type);
    const v = (fields.v as number | undefined) ?? entry?.since ?? VERSION;
    const line = JSON.stringify({ ...fields, v, type });
    let failed = false;
    let first = true;
    await streamLines(sock(), line, (l) => {
      if (first) {
        first = false;
        failed = l.startsWith("error") || /^\{[^]*"type":"error"/.test(l);
      }
      printJsonLine(l); // a JSON reply, or a plain `ok` / `error: …` line: escaped either way
      // One reply, unless the message turns the connection into a stream.
      if (!entry?.stream || failed) return false;
    }).catch((e) => {
      throw new CliError((e as Error).message);
    });
    if (failed) process.exitCode = 1;
  }),
});

const timeoutArg = { timeout: { type: "string", description: "Give up after this many ms (default 30000); exit status 124" } } as const;

function ms(v: unknown, what: string): number | undefined {
  if (v === undefined) return undefined;
  if (!/^\d+$/.test(String(v))) throw new CliError(`${what} is a number of milliseconds, got "${v}"`);
  return Number(v);
}

async function wait(fields: Record<string, unknown>, timeout: unknown, human: (r: ReplyObject) => string): Promise<void> {
  const t = ms(timeout, "--timeout");
  if (t !== undefined) fields.timeout = t;
  const reply = await call6("wait_for", fields, (t ?? 30000) + 10000);
  show(reply, human(reply));
}

const waitCmds = {
  output: defineCommand({
    meta: { name: "output", description: "Until a pane's text (scrollback included) matches a regex: ws wait output PANE REGEX" },
    args: {
      pane: { type: "positional", required: true, description: "The pane id" },
      pattern: { type: "positional", required: true, description: "A JavaScript regular expression" },
      "ignore-case": { type: "boolean", description: "Match ignoring case" },
      source: { type: "string", description: "recent (default), visible or recent-unwrapped" },
      ...timeoutArg,
    },
    run: guard(({ args }) =>
      wait(
        { condition: "output", pane: paneArg(args.pane), pattern: String(args.pattern), ignore_case: !!args["ignore-case"], ...(args.source ? { source: args.source } : {}) },
        args.timeout,
        (r) => String(r.match),
      )),
  }),
  exit: defineCommand({
    meta: { name: "exit", description: "Until a pane's program exits; prints its exit code: ws wait exit PANE" },
    args: { pane: { type: "positional", required: true, description: "The pane id" }, ...timeoutArg },
    run: guard(({ args }) => wait({ condition: "exit", pane: paneArg(args.pane) }, args.timeout, (r) => (r.closed ? "closed" : String(r.exit_code ?? r.signal)))),
  }),
  idle: defineCommand({
    meta: { name: "idle", description: "Until a pane has printed nothing for MS milliseconds: ws wait idle PANE MS" },
    args: { pane: { type: "positional", required: true, description: "The pane id" }, ms: { type: "positional", required: true, description: "Quiet time in ms" }, ...timeoutArg },
    run: guard(({ args }) => wait({ condition: "idle", pane: paneArg(args.pane), idle_ms: ms(args.ms, "MS") }, args.timeout, (r) => `idle ${r.idle_ms} ms`)),
  }),
  workspace: defineCommand({
    meta: { name: "workspace", description: "Until a workspace exists: ws wait workspace NAME" },
    args: { name: { type: "positional", required: true, description: "The workspace name" }, ...timeoutArg },
    run: guard(({ args }) => wait({ condition: "workspace_exists", workspace: String(args.name) }, args.timeout, (r) => String(r.workspace))),
  }),
  pane: defineCommand({
    meta: { name: "pane", description: "Until a pane exists: ws wait pane ID" },
    args: { pane: { type: "positional", required: true, description: "The pane id" }, ...timeoutArg },
    run: guard(({ args }) => wait({ condition: "pane_exists", pane: paneArg(args.pane) }, args.timeout, (r) => `${r.workspace} tab ${r.tab}`)),
  }),
  agent: defineCommand({
    meta: { name: "agent", description: "Until a pane's agent status is one of some: ws wait agent PANE done,blocked" },
    args: { pane: { type: "positional", required: true, description: "The pane id" }, statuses: { type: "positional", required: true, description: "blocked, working, done, idle, none (comma-separated)" }, ...timeoutArg },
    run: guard(({ args }) => wait({ condition: "agent_status", pane: paneArg(args.pane), statuses: String(args.statuses).split(",").filter(Boolean) }, args.timeout, (r) => String(r.status))),
  }),
};

export const waitCmd = defineCommand({
  meta: { name: "wait", description: "Block until something happens (no polling): ws wait output|exit|idle|workspace|pane|agent …" },
  subCommands: waitCmds,
});

export const events = defineCommand({
  meta: { name: "events", description: "Print the event stream: ws events [--types a,b] [--workspace W] [--pane N] [--after-seq N --boot-id ID]" },
  args: {
    types: { type: "string", description: "Only these event types, comma-separated (output is opt-in)" },
    workspace: { type: "string", description: "Only this workspace's events" },
    pane: { type: "string", description: "Only this pane's events" },
    "after-seq": { type: "string", description: "Resume after this seq (replays retained events)" },
    "boot-id": { type: "string", description: "The boot id --after-seq belongs to" },
  },
  run: guard(async ({ args }: { args: any }) => {
    const fields: Record<string, unknown> = { v: VERSION, type: "subscribe" };
    if (args.types) fields.types = String(args.types).split(",").filter(Boolean);
    if (args.workspace) fields.workspace = args.workspace;
    if (args.pane) fields.pane = paneArg(args.pane);
    if (args["after-seq"] !== undefined) fields.after_seq = ms(args["after-seq"], "--after-seq");
    if (args["boot-id"]) fields.boot_id = args["boot-id"];
    let first = true;
    let failure: string | undefined;
    await streamLines(sock(), JSON.stringify(fields), (l) => {
      let o: Record<string, unknown>;
      try {
        o = JSON.parse(l);
      } catch {
        failure = l;
        return false;
      }
      if (first) {
        first = false;
        if (o.type === "error") {
          failure = errorText(o as ReplyObject);
          if (globals.json) printJsonLine(l);
          return false;
        }
      }
      if (globals.json) return void printJsonLine(l);
      if (o.type === "subscribed") return void printError(`# subscribed at seq ${o.seq}, boot ${o.boot_id}`);
      const { v: _v, type: _t, event, seq, boot_id: _b, time: _time, ...rest } = o;
      print(`${seq ?? "-"} ${event} ${Object.entries(rest).map(([k, val]) => `${k}=${typeof val === "string" ? val : JSON.stringify(val)}`).join(" ")}`);
    }).catch((e) => {
      throw new CliError((e as Error).message);
    });
    if (failure) throw new CliError(failure);
  }),
});

export const paneInfo = defineCommand({
  meta: { name: "info", description: "What a pane is: size, cursor, title, cwd, pid, foreground process, exit status" },
  args: { pane: { type: "positional", required: false, description: "The pane id (default: $WS_PANE_ID)" } },
  run: guard(async ({ args }: { args: any }) => {
    const r = await send("pane_info", { pane: paneArg(args.pane) });
    if (r.exited && r.cols === undefined) return show(r, `pane ${r.pane}: exited (${r.exit_code ?? r.signal})`);
    const fg = r.foreground as { pid: number; argv: string[] } | null;
    show(
      r,
      [
        `pane ${r.pane}  ${r.workspace} / tab ${r.tab}${r.focused ? "  focused" : ""}${r.zoomed ? "  zoomed" : ""}`,
        `size     ${r.cols}x${r.rows}  cursor ${(r.cursor as { x: number }).x},${(r.cursor as { y: number }).y}`,
        `title    ${r.title || "-"}  (shown as ${r.label})`,
        `cwd      ${r.cwd}`,
        `pid      ${r.pid}  running ${(r.argv as string[]).join(" ")}`,
        `fg       ${fg ? `${fg.pid} ${fg.argv.join(" ")}` : "-"}`,
      ].join("\n"),
    );
  }),
});
