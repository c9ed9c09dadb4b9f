// `ws approval-hook --agent NAME [--timeout MS]`: an agent's PermissionRequest hook. It puts the
// request in ws's inbox and waits for a person's answer, then prints it the way the agent reads a
// hook's decision; silence (and exit 0) leaves the agent's own dialog to decide. Like `ws report`
// it loads nothing heavy and never fails the agent: outside ws, with no server, or after any
// error it returns at once, saying nothing.
//
// Claude Code runs this hook while its permission dialog is already on screen (the first answer
// wins there, so nothing is answered twice); the wait's default is therefore long, and it ends
// early when the agent reports it moved on. Codex runs it *before* its dialog appears (the dialog
// waits for the hook), so its default wait is short: a person at the Codex pane sees its own
// dialog within a minute (docs/agents.md "Approvals").
import { readStdin, sendLine } from "./report";
import { safeText } from "../safe-text";

/** How long the hook waits for an answer in ws by default: 5 minutes (Claude Code's dialog is usable meanwhile). */
export const DEFAULT_WAIT_MS = 300_000;
/** Codex's default: 1 minute, since Codex shows its own dialog only once the hook has returned. */
export const CODEX_WAIT_MS = 60_000;
/** The longest wait the server accepts (approval_request's `timeout`). */
export const MAX_WAIT_MS = 3_600_000;
/** Extra time for the server's reply to arrive after its own deadline. */
const REPLY_GRACE_MS = 2_000;

export interface HookArgs {
  agent?: string;
  waitMs: number;
}

export function parseHookArgs(argv: string[], env: Record<string, string | undefined>): HookArgs {
  let agent: string | undefined;
  let wait: string | undefined = env.WS_APPROVAL_TIMEOUT_MS;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === "--agent") agent = argv[++i];
    else if (a.startsWith("--agent=")) agent = a.slice(8);
    else if (a === "--timeout") wait = argv[++i];
    else if (a.startsWith("--timeout=")) wait = a.slice(10);
  }
  const n = Number(wait);
  const fallback = agent === "codex" ? CODEX_WAIT_MS : DEFAULT_WAIT_MS;
  const waitMs = wait !== undefined && wait !== "" && Number.isInteger(n) && n >= 1 ? Math.min(n, MAX_WAIT_MS) : fallback;
  return { ...(agent ? { agent } : {}), waitMs };
}

/** The line the agent reads, or undefined for silence. */
export function decisionOutput(reply: string | undefined): string | undefined {
  if (!reply) return undefined;
  let r: { type?: unknown; behavior?: unknown; message?: unknown };
  try {
    r = JSON.parse(reply);
  } catch {
    return undefined;
  }
  if (r.type !== "approval_decision" || (r.behavior !== "allow" && r.behavior !== "deny")) return undefined;
  const decision = r.behavior === "deny" ? { behavior: "deny", message: typeof r.message === "string" && r.message ? r.message : "Denied in ws" } : { behavior: "allow" };
  return JSON.stringify({ hookSpecificOutput: { hookEventName: "PermissionRequest", decision } });
}

export async function main(argv: string[], env: Record<string, string | undefined> = process.env): Promise<void> {
  const args = parseHookArgs(argv, env);
  const socket = env.WS_SOCKET;
  const pane = Number(env.WS_PANE_ID);
  if (!socket || !Number.isInteger(pane) || pane < 0) return; // not inside ws: the agent's dialog decides
  const input = await readStdin();
  if ("refused" in input) {
    // Nothing to ask about that the server would take: the agent's own dialog decides.
    if (env.WS_DEBUG) console.error(safeText(`ws approval-hook: ${input.refused}; leaving the decision to the agent`));
    return;
  }
  let payload: unknown;
  try {
    payload = JSON.parse(input.text);
  } catch {
    return; // not a hook payload: nothing to ask about
  }
  const line = `${JSON.stringify({ v: 6, id: 1, type: "approval_request", pane, ...(args.agent ? { agent: args.agent } : {}), payload, timeout: args.waitMs })}\n`;
  const reply = await sendLine(socket, line, args.waitMs + REPLY_GRACE_MS, !!env.WS_DEBUG);
  const out = decisionOutput(reply);
  if (out) console.log(out); // synchronous: the process exits right after
}
