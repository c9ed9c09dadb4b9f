// The approvals tests' rig (test/approvals.test.ts, test/approvals-guard.test.ts): a real daemon
// with `ws hooks install claude` run as a person would, and a stand-in Claude Code
// (test/fixtures/approval-agent.ts) that reads the settings.json it wrote, runs the PermissionRequest
// hook command with Claude Code's payload and acts on the hook's stdout.
import { expect } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { readUntil, ROOT, standInAgentServer, type TestServer, waitFor } from "./harness";
import type { AnyReply, ApprovalRow, Replies } from "./replies";

const AGENT = join(ROOT, "test/fixtures/approval-agent.ts");

/** A started server with Claude Code's hooks installed; `wrapper` runs this ws through one
 * executable path (what a program in a pane would run). `env` goes to the server and every ws run. */
export async function claudeApprovalServer(env: Record<string, string> = {}): Promise<{ s: TestServer; wrapper: string }> {
  const { s } = await standInAgentServer(env);
  await s.ok(["hooks", "install", "claude"], { env: { CLAUDE_CONFIG_DIR: join(s.root, ".claude") } });
  const settings = JSON.parse(readFileSync(join(s.root, ".claude", "settings.json"), "utf8"));
  // The hook command names this ws (bun + main.ts from the sources); the stand-in runs exactly the
  // installed shape.
  expect(settings.hooks.PermissionRequest[0].hooks[0].command).toMatch(/approval-hook --agent claude$/);
  return { s, wrapper: s.env.STANDIN_WS! };
}

/** Start a stand-in agent as if it ran in `pane` (the environment ws gives a pane's programs).
 * `output` is its one DECISION line. */
export function standInApprovalAgent(s: TestServer, pane: number, args: string[], env: Record<string, string> = {}) {
  return spawnStandIn(s, AGENT, "stand-in agent", pane, args, { CLAUDE_CONFIG_DIR: join(s.root, ".claude"), ...env });
}

/** Run the stand-in `script` (a fixture) as if in `pane`; `output` is what it printed, once it has
 * exited 0 (else an error naming `what`). */
export function spawnStandIn(s: TestServer, script: string, what: string, pane: number, args: string[], env: Record<string, string>) {
  const proc = Bun.spawn([process.execPath, script, ...args], {
    env: { ...s.env, WS_SOCKET: s.sock, WS_PANE_ID: String(pane), ...env },
    cwd: s.root,
    stdout: "pipe",
    stderr: "pipe",
  });
  return {
    pid: proc.pid,
    output: (async () => {
      const [out, err] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text()]);
      await proc.exited;
      if (proc.exitCode !== 0) throw new Error(`${what} exited ${proc.exitCode}: ${err}`);
      return out.trim();
    })(),
  };
}

/** The approvals waiting now (`ws --json inbox`). */
export const inboxOf = async (s: TestServer): Promise<ApprovalRow[]> => (JSON.parse(await s.ok(["--json", "inbox"])) as Replies["approval_list"]).approvals;

/** Wait until exactly `n` approvals are waiting; returns them. */
export const waitInbox = (s: TestServer, n: number) =>
  waitFor(`${n} approvals waiting`, async () => {
    const rows = await inboxOf(s);
    // Typed as non-empty: the tests read the rows they waited for by position.
    return rows.length === n ? (rows as [ApprovalRow, ...ApprovalRow[]]) : undefined;
  }, 20000);

/** The approval_resolved events so far (replayed from the server's retained events). */
export async function resolvedEvents(s: TestServer): Promise<AnyReply[]> {
  // Every retained event is replayed, up to the seq the acknowledgement names: the replay is
  // complete when that one arrives.
  const c = await s.connect();
  try {
    c.send({ v: 6, id: 1, type: "subscribe", after_seq: 0 });
    const ack = await c.nextJson();
    if (ack.type !== "subscribed") throw new Error(`subscribe: ${JSON.stringify(ack)}`);
    const events = (ack.seq ?? 0) > 0 ? await readUntil(c, (e) => e.seq === ack.seq) : [];
    return events.filter((e) => e.event === "approval_resolved");
  } finally {
    c.close();
  }
}
