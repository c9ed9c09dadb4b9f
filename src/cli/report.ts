// `ws report EVENT [--agent NAME]`: forward one agent hook event to the ws owning this pane.
// Runs on every hook event, so it imports nothing heavy, prints nothing (Claude Code feeds some
// hooks' stdout to the model) and always exits 0: a hook must never break the agent.
//
// Claude Code hooks pass their JSON on stdin. Codex `notify` passes it as the last argument and
// names the event in its `type`; anything after `--` is the user's own notify command, run too.

import { clientLibc } from "../platform/client-libc";
import { requestLine } from "../client/request";
import { safeText } from "../safe-text";

const STDIN_WAIT_MS = 1000;
const SOCKET_WAIT_MS = 1500;

export interface ReportArgs {
  event?: string;
  agent?: string;
  /** JSON text given as an argument (Codex), rather than on stdin. */
  argPayload?: string;
  /** A notify command ws stands in front of: run with the same payload. */
  chain: string[];
}

export function parseReportArgs(argv: string[]): ReportArgs {
  const out: ReportArgs = { chain: [] };
  let args = argv;
  const last = args.at(-1);
  if (last?.trimStart().startsWith("{")) {
    out.argPayload = last;
    args = args.slice(0, -1);
  }
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === "--") {
      out.chain = args.slice(i + 1);
      break;
    }
    if (a === "--agent") out.agent = args[++i];
    else if (a.startsWith("--agent=")) out.agent = a.slice(8);
    else if (!a.startsWith("-") && out.event === undefined) out.event = a;
  }
  return out;
}

function parseJson(text: string): unknown {
  if (text.trim() === "") return null;
  try {
    return JSON.parse(text);
  } catch {
    return text; // not JSON: pass it through as a string rather than lose it
  }
}

/** The most of a hook's input taken: the server takes a line of at most 1 MiB (MAX_LINE), and a
 * payload has to fit in one. */
export const MAX_HOOK_INPUT = 1024 * 1024;

/** A hook's input, or why none was taken (more than MAX_HOOK_INPUT, a device, an error). */
export type HookInput = { text: string } | { refused: string };

// Hooks always pipe stdin; a person typing `ws report Stop` at a terminal just waits out the
// deadline (or presses ^D). Read at most MAX_HOOK_INPUT, and never from a device that is not a
// terminal (`< /dev/zero`). glibc's poll, read, fstat and isatty where they are at hand (platform/client-libc.ts,
// loaded anyway for the socket checks): Bun.stdin and node:fs each cost a call milliseconds.
export async function readStdin(): Promise<HookInput> {
  const libc = clientLibc();
  if (libc) {
    let got: ReturnType<typeof libc.readToEnd>;
    try {
      got = libc.readToEnd(0, STDIN_WAIT_MS, MAX_HOOK_INPUT);
    } catch (e) {
      return { refused: `stdin can't be read (${(e as Error).message})` }; // a hook must never fail
    }
    if (got === "too_big") return { refused: `the input on stdin is over ${MAX_HOOK_INPUT} bytes` };
    if (got === "device") return { refused: "stdin is a device, not a pipe, a file or a terminal" };
    return { text: got ? new TextDecoder().decode(got) : "" };
  }
  const { readStdinBounded } = await import("../safe-file");
  const timeout = new Promise<HookInput>((r) => setTimeout(() => r({ text: "" }), STDIN_WAIT_MS).unref());
  const read = readStdinBounded(MAX_HOOK_INPUT).then(
    (b) => ({ text: b.toString("utf8") }),
    (e) => ({ refused: (e as Error).message }),
  );
  return Promise.race([read, timeout]);
}

/** Send one line and wait for the server's answer (so reports from one hook sequence stay in order). */
export function sendLine(path: string, line: string, waitMs = SOCKET_WAIT_MS, debug = false): Promise<string | undefined> {
  // Promise.withResolvers, not `new Promise`: the constructor costs a call ~0.4 ms on first use.
  const { promise, resolve } = Promise.withResolvers<string | undefined>();
  const timer = setTimeout(() => resolve(undefined), waitMs);
  // requestLine writes all of a long line (a hook's payload can be megabytes) before it reads.
  requestLine(path, line, waitMs)
    .then(resolve, (e) => {
      // An unsafe socket (another user's, or in an open directory) gets nothing; say why when debugging.
      if (debug) console.error(safeText(`ws report: ${(e as Error).message}`));
      resolve(undefined);
    })
    .finally(() => clearTimeout(timer));
  return promise;
}

export function reportLine(pane: number, agent: string | undefined, event: string, payload: unknown): string {
  return `${JSON.stringify({ v: 1, type: "report", pane, ...(agent ? { agent } : {}), event, payload })}\n`;
}

export async function main(argv: string[], env: Record<string, string | undefined> = process.env): Promise<void> {
  const args = parseReportArgs(argv);
  if (args.chain.length) {
    try {
      const argvChain = args.argPayload === undefined ? args.chain : [...args.chain, args.argPayload];
      Bun.spawn(argvChain, { stdin: "ignore", stdout: "ignore", stderr: "ignore" }).unref();
    } catch {
      // the user's notify program is missing: theirs to fix, not a reason to fail the hook
    }
  }
  const socket = env.WS_SOCKET;
  const pane = Number(env.WS_PANE_ID);
  if (!socket || !Number.isInteger(pane) || pane < 0) return; // not inside ws
  // An input too big to send is left out: the event itself still counts (a Stop still ends the turn).
  const input: HookInput = args.argPayload !== undefined ? { text: args.argPayload } : await readStdin();
  if ("refused" in input && env.WS_DEBUG) console.error(safeText(`ws report: ${input.refused}; reporting ${args.event ?? "the event"} without its input`));
  const payload = "text" in input ? parseJson(input.text) : null;
  const typed = payload && typeof payload === "object" ? (payload as { type?: unknown }).type : undefined;
  const event = args.event ?? (typeof typed === "string" ? typed : undefined);
  if (!event) return;
  const reply = await sendLine(socket, reportLine(pane, args.agent, event, payload), SOCKET_WAIT_MS, !!env.WS_DEBUG);
  if (env.WS_DEBUG && reply !== "ok") console.error(safeText(`ws report: ${reply ?? "no answer from ws"}`));
}

