// The approvals inbox with Codex: a real daemon, `ws hooks install codex` writing a real
// $CODEX_HOME (config.toml's notify and hooks.json's PermissionRequest hook), and a stand-in Codex
// (test/fixtures/codex-approval-agent.ts) that reads them as Codex 0.171 does, runs the hook with
// Codex's payload through `$SHELL -lc`, and acts on its stdout.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parse as parseToml } from "smol-toml";
import { CODEX_PERMISSION_HOOK_TIMEOUT_S } from "../src/features/agents/hooks-install";
import { ROOT, TestServer, waitFor } from "./harness";
import type { ApprovalRow, Replies } from "./replies";
import { spawnStandIn } from "./approval-rig";

const AGENT = join(ROOT, "test/fixtures/codex-approval-agent.ts");
let s: TestServer;
let codexHome: string;

beforeAll(async () => {
  s = new TestServer();
  await s.start();
  codexHome = join(s.root, ".codex");
  const out = await s.ok(["hooks", "install", "codex"], { env: { CODEX_HOME: codexHome } });
  expect(out).toContain("open /hooks in Codex"); // Codex asks the person to trust a new hook
  const hooks = JSON.parse(readFileSync(join(codexHome, "hooks.json"), "utf8"));
  const [group] = hooks.hooks.PermissionRequest;
  expect(group.matcher).toBe("*");
  expect(group.hooks[0]).toMatchObject({ type: "command", timeout: CODEX_PERMISSION_HOOK_TIMEOUT_S });
  expect(group.hooks[0].command).toMatch(/approval-hook --agent codex$/);
  // The notify ws installed before stays.
  expect((parseToml(readFileSync(join(codexHome, "config.toml"), "utf8")).notify as string[]).slice(-3)).toEqual(["report", "--agent", "codex"]);
});
afterAll(() => s.stop());

/** Start a stand-in Codex as if it ran in `pane` (the environment ws gives a pane's programs). */
function codex(pane: number, args: string[], env: Record<string, string> = {}) {
  return spawnStandIn(s, AGENT, "stand-in codex", pane, args, { CODEX_HOME: codexHome, ...env });
}

const inbox = async (): Promise<ApprovalRow[]> => (JSON.parse(await s.ok(["--json", "inbox"])) as Replies["approval_list"]).approvals;
const waitInbox = (n: number) =>
  waitFor(`${n} approvals waiting`, async () => {
    const rows = await inbox();
    // Typed as non-empty: the tests read the rows they waited for by position.
    return rows.length === n ? (rows as [ApprovalRow, ...ApprovalRow[]]) : undefined;
  }, 20000);

describe("approvals through Codex's PermissionRequest hook (hooks.json)", () => {
  test("allow: the row names codex, Bash and the command; ws approve answers; Codex reads allow", async () => {
    const a = codex(1, ["cargo test --workspace"]);
    const [row] = await waitInbox(1);
    expect(row).toMatchObject({ pane: 1, agent: "codex", tool: "Bash", summary: "cargo test --workspace" });
    // Codex's own default wait: 60 s, not Claude Code's 300 s (its dialog waits for the hook).
    expect(row.timeout_ms).toBeLessThanOrEqual(60000);
    expect(row.timeout_ms).toBeGreaterThan(30000);
    expect((await s.ok(["approve", String(row.id)])).trim()).toBe(`allowed ${row.id} (pane 1)`);
    expect(await a.output).toBe("DECISION allow");
    expect(await inbox()).toEqual([]);
  }, 60000);

  test("deny with a message: Codex reads the reason", async () => {
    const a = codex(1, ["git push --force"]);
    const [row] = await waitInbox(1);
    await s.ok(["deny", String(row.id), "--message", "no force pushes; open a PR"]);
    expect(await a.output).toBe("DECISION deny: no force pushes; open a PR");
  }, 60000);

  test("the hook's time limit: nobody answers, it gives up in time and Codex shows its own dialog", async () => {
    const a = codex(1, ["make deploy"], { WS_APPROVAL_TIMEOUT_MS: "1500" });
    const [row] = await waitInbox(1);
    expect(row.timeout_ms).toBeLessThanOrEqual(1500);
    const out = await a.output;
    expect(out).toMatch(/^DECISION dialog after \d+ ms$/);
    expect(Number(/after (\d+)/.exec(out)![1])).toBeLessThan(CODEX_PERMISSION_HOOK_TIMEOUT_S * 1000); // not killed by Codex
    expect(await inbox()).toEqual([]);
  }, 60000);

  test("the turn interrupted in Codex: it kills the hook, and the row goes at once", async () => {
    const a = codex(1, ["rm -rf target", "--interrupt"]);
    await waitInbox(1);
    process.kill(a.pid, "SIGUSR1");
    expect(await a.output).toBe("DECISION interrupted");
    await waitInbox(0);
  }, 60000);

  test("no server, or not in ws: the hook returns at once with no decision", async () => {
    const noServer = codex(1, ["ls"], { WS_SOCKET: join(s.root, "nobody.sock") });
    const out = await noServer.output;
    expect(out).toMatch(/^DECISION dialog after \d+ ms$/);
    expect(Number(/after (\d+)/.exec(out)![1])).toBeLessThan(5000);
    const outside = codex(1, ["ls"], { WS_PANE_ID: "" });
    expect(await outside.output).toMatch(/^DECISION dialog after \d+ ms$/);
    expect(await inbox()).toEqual([]);
  }, 60000);
});

// The real Codex, where one is installed (WS_TEST_CODEX=/path/to/codex, or `codex` on PATH): its
// app-server lists the hook ws wrote as a valid PermissionRequest command hook (untrusted until
// the person trusts it, as every new hook).
const realCodex = process.env.WS_TEST_CODEX || Bun.which("codex");
describe.skipIf(!realCodex)("the real Codex reads ws's hooks.json", () => {
  test("app-server hooks/list: one PermissionRequest command hook, matcher *, ws's timeout, no errors", async () => {
    const rpc = [
      { jsonrpc: "2.0", id: 1, method: "initialize", params: { clientInfo: { name: "ws-test", version: "1" } } },
      { jsonrpc: "2.0", method: "initialized" },
      { jsonrpc: "2.0", id: 2, method: "hooks/list", params: { cwds: [s.root] } },
    ];
    const proc = Bun.spawn([realCodex!, "app-server"], { stdin: "pipe", stdout: "pipe", stderr: "ignore", env: { ...s.env, CODEX_HOME: codexHome, HOME: s.root } });
    proc.stdin.write(rpc.map((m) => JSON.stringify(m)).join("\n") + "\n");
    proc.stdin.flush();
    let buf = "";
    const dec = new TextDecoder();
    const reader = proc.stdout.getReader();
    const reply = await waitFor("hooks/list's reply", async () => {
      const r = await reader.read();
      if (r.done) throw new Error(`codex app-server ended: ${buf}`);
      buf += dec.decode(r.value, { stream: true });
      return buf.split("\n").flatMap((l) => (l.startsWith("{") ? [JSON.parse(l)] : [])).find((m) => m.id === 2);
    }, 30000);
    proc.kill();
    const [entry] = reply.result.data;
    expect(entry.errors).toEqual([]);
    expect(entry.warnings).toEqual([]);
    const ours = entry.hooks.filter((h: { command: string }) => /approval-hook --agent codex$/.test(h.command));
    expect(ours).toHaveLength(1);
    expect(ours[0]).toMatchObject({ eventName: "permissionRequest", handlerType: "command", matcher: "*", timeoutSec: CODEX_PERMISSION_HOOK_TIMEOUT_S, trustStatus: "untrusted" });
  }, 60000);
});
