// The prompt queue (ws agent send --when idle|done, ws agent queue, cancel) and answers coming back
// (ws agent send --wait). Real daemon; stand-in agents in real panes report through the real
// `ws report` with the payloads Claude Code's hooks and Codex's notify send.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT, TestServer, standInAgentServer, waitFor } from "./harness";

const AGENT = join(ROOT, "test/fixtures/stand-in-agent.sh");
const ANSWERER = join(ROOT, "test/fixtures/stand-in-answerer.ts");
let s: TestServer;
let log: string;

beforeAll(async () => {
  ({ s, log } = await standInAgentServer());
  s.env.STANDIN_DIR = s.root;
});
afterAll(() => s.stop());

const agentRow = async (pane: number) => (await s.v6({ type: "dashboard" })).agents.find((a) => a.pane === pane);
const statusOf = async (pane: number) => (await agentRow(pane))?.status;
const prompts = (pane: number) => (existsSync(`${log}.${pane}`) ? readFileSync(`${log}.${pane}`, "utf8") : "");
const queued = async () => (await s.call({ type: "agent_queue_list" })).prompts;

/** A tab with a stand-in agent (bash) that has reported `first`. */
async function standIn(first = "SessionStart"): Promise<number> {
  const tab = await s.v6({ type: "tab_new", cwd: s.root, command: ["bash", AGENT, first] });
  await waitFor(`pane ${tab.pane}'s agent to report`, async () => (await statusOf(tab.pane)) !== undefined);
  return tab.pane;
}

test("queued prompts go in one a turn, in order, survive a restart, and can be cancelled", async () => {
  const agent = await standIn();
  await s.v6({ type: "agent_send", to: String(agent), text: "UserPromptSubmit" });
  await waitFor("the agent to work", async () => (await statusOf(agent)) === "working");

  // While it works, prompts wait: the CLI says so, the list shows them in order.
  const first = await s.run(["agent", "send", "--to", String(agent), "--when", "idle", "first"]);
  expect(first.code).toBe(0);
  expect(first.stdout).toMatch(/^queued as prompt \d+ for pane \d+/);
  expect(JSON.parse(await s.ok(["--json", "agent", "send", "--to", String(agent), "--when", "idle", "dropped"]))).toMatchObject({ type: "pane", pane: agent, queued: true });
  await s.ok(["agent", "send", "--to", String(agent), "--when", "idle", "second"]);
  await s.ok(["agent", "send", "--to", String(agent), "--when", "done", "third"]);
  let list = await queued();
  expect(list.map((p) => [p.text, p.position, p.when, p.pane])).toEqual([["first", 1, "idle", agent], ["dropped", 2, "idle", agent], ["second", 3, "idle", agent], ["third", 4, "done", agent]]);
  expect(list[0]!.queued_ms).toBeGreaterThanOrEqual(0);
  expect((await s.run(["agent", "queue"])).stdout).toContain("when done");

  // Cancel: by id, once; the rest move up.
  const cancelled = await s.run(["agent", "queue", "cancel", String(list[1]!.id)]);
  expect(cancelled).toMatchObject({ code: 0, stdout: `cancelled prompt ${list[1]!.id} (pane ${agent})\n` });
  const again = await s.v6({ type: "agent_queue_cancel", prompt: list[1]!.id });
  expect(again).toMatchObject({ type: "error", code: "prompt_not_found" });
  expect(again.hint?.available).toEqual([list[0]!.id, list[2]!.id, list[3]!.id]);
  expect((await queued()).map((p) => p.position)).toEqual([1, 2, 3]);
  expect((await agentRow(agent))!.queued).toBe(3);
  expect((await s.ok(["dashboard"])).split("\n").find((l) => l.includes(`pane ${agent} `))).toContain("[3 queued]");
  expect(prompts(agent)).toBe(""); // nothing typed while it works

  // A restart: the queue comes back with the pane; the restarted agent's first report (SessionStart,
  // idle) lets the first prompt in, and only that one.
  // Refused while the agent works, naming it, unless forced (no terminal here to ask on).
  const refused = await s.run(["restart"]);
  expect(refused.code).toBe(1);
  expect(refused.stderr).toContain("an agent is working");
  expect(refused.stderr).toMatch(new RegExp(`working .*pane ${agent}  `));
  expect(refused.stderr).toContain("ws restart --force");
  const restart = await s.run(["restart", "--force"]);
  expect(restart.code).toBe(0);
  await waitFor("the first prompt to reach the restarted agent", () => prompts(agent) === "first\n");
  list = await queued();
  expect(list.map((p) => [p.text, p.position])).toEqual([["second", 1], ["third", 2]]);

  // Each turn's end lets the next one in: "second" (idle) at once, "third" (done) after it.
  await s.v6({ type: "agent_send", to: String(agent), text: "Stop" });
  await waitFor("the second prompt", () => prompts(agent) === "first\nsecond\n");
  expect((await queued()).map((p) => p.text)).toEqual(["third"]);
  await s.v6({ type: "agent_send", to: String(agent), text: "Stop" });
  await waitFor("the third prompt", () => prompts(agent) === "first\nsecond\nthird\n");
  expect(await queued()).toEqual([]);
  expect((await agentRow(agent))!.queued).toBeUndefined();
}, 90_000);

test("when idle goes in at once to an agent that waits; when done waits for a turn to end", async () => {
  const agent = await standIn();
  await waitFor("the agent to be idle", async () => (await statusOf(agent)) === "idle");
  const now = await s.v6({ type: "agent_send", to: String(agent), text: "at once", when: "idle" });
  expect(now).toMatchObject({ type: "pane", pane: agent, queued: false });
  await waitFor("the prompt", () => prompts(agent) === "at once\n");
  // One a turn: typed, and no turn has ended since, so the next waits even though the status says idle.
  expect(await s.v6({ type: "agent_send", to: String(agent), text: "next turn", when: "idle" })).toMatchObject({ queued: true });
  expect(await s.v6({ type: "agent_send", to: String(agent), text: "after that", when: "done" })).toMatchObject({ queued: true });
  await s.v6({ type: "agent_send", to: String(agent), text: "Stop" });
  await waitFor("the next prompt", () => prompts(agent) === "at once\nnext turn\n");
  await s.v6({ type: "agent_send", to: String(agent), text: "Stop" });
  await waitFor("the last prompt", () => prompts(agent) === "at once\nnext turn\nafter that\n");
  // A closed pane takes its queue with it.
  await s.v6({ type: "agent_send", to: String(agent), text: "UserPromptSubmit" });
  await waitFor("the agent to work", async () => (await statusOf(agent)) === "working");
  await s.v6({ type: "agent_send", to: String(agent), text: "never", when: "idle" });
  await s.v6({ type: "pane_close", pane: agent });
  await waitFor("its queue to empty", async () => !(await queued()).some((p) => p.pane === agent));
}, 60_000);

test("the queue's limits: prompts per agent, in all, and text length; a bad when", async () => {
  const agent = await standIn("UserPromptSubmit");
  await waitFor("the agent to work", async () => (await statusOf(agent)) === "working");
  const { MAX_QUEUED_PER_AGENT, MAX_PROMPT_CHARS } = await import("../src/features/agents/queue");
  for (let i = 0; i < MAX_QUEUED_PER_AGENT; i++) expect(await s.v6({ type: "agent_send", to: String(agent), text: `p${i}`, when: "idle" })).toMatchObject({ queued: true });
  const full = await s.v6({ type: "agent_send", to: String(agent), text: "one more", when: "idle" });
  expect(full).toMatchObject({ type: "error", code: "limit_exceeded", hint: { limit: MAX_QUEUED_PER_AGENT } });
  const other = await standIn("UserPromptSubmit");
  const long = await s.v6({ type: "agent_send", to: String(other), text: "x".repeat(MAX_PROMPT_CHARS + 1), when: "idle" });
  expect(long).toMatchObject({ type: "error", code: "invalid_params", hint: { param: "text" } });
  expect(await s.v6({ type: "agent_send", to: String(other), text: "x", when: "later" })).toMatchObject({ type: "error", code: "invalid_params" });
  expect((await queued()).filter((p) => p.pane === other)).toEqual([]);

  // In all: fill every agent's queue up to the total; one more anywhere is refused.
  const { MAX_QUEUED } = await import("../src/features/agents/queue");
  const panes = [agent, other];
  while (panes.length * MAX_QUEUED_PER_AGENT < MAX_QUEUED) panes.push(await standIn("UserPromptSubmit"));
  for (const p of panes) await waitFor(`pane ${p} to work`, async () => (await statusOf(p)) === "working");
  const before = (await queued()).length;
  let left = MAX_QUEUED - before;
  for (const p of panes.slice(1)) {
    const n = Math.min(left, MAX_QUEUED_PER_AGENT);
    const rs = await Promise.all(Array.from({ length: n }, (_, i) => s.v6({ type: "agent_send", to: String(p), text: `q${i}`, when: "idle" })));
    expect(rs.every((r) => r.queued === true)).toBe(true);
    left -= n;
  }
  expect((await queued()).length).toBe(MAX_QUEUED);
  const extra = await standIn("UserPromptSubmit");
  await waitFor("the extra agent to work", async () => (await statusOf(extra)) === "working");
  expect(await s.v6({ type: "agent_send", to: String(extra), text: "over", when: "idle" })).toMatchObject({ type: "error", code: "limit_exceeded", hint: { limit: MAX_QUEUED } });
  for (const p of [...panes, extra]) await s.v6({ type: "pane_close", pane: p });
  await waitFor("the queues to go with their panes", async () => (await queued()).length === before - MAX_QUEUED_PER_AGENT);
}, 120_000);

/** A tab running the answering stand-in in `mode`. */
async function answerer(mode: string): Promise<number> {
  const tab = await s.v6({ type: "tab_new", cwd: s.root, command: [process.execPath, ANSWERER, mode] });
  await s.waitScreen(tab.pane, "stand-in answerer ready");
  return tab.pane;
}

test("--wait returns the turn's final message: from Claude Code's transcript and Stop payload, and Codex's notify", async () => {
  const claude = await answerer("claude-transcript");
  await waitFor("the agent to be idle", async () => (await statusOf(claude)) === "idle");
  const r = await s.run(["agent", "send", "--to", String(claude), "--wait", "what is 2+2"]);
  expect(r).toMatchObject({ code: 0, stdout: "answer to: what is 2+2\n" });
  const j = JSON.parse(await s.ok(["--json", "agent", "send", "--to", String(claude), "--wait", "and 3+3"]));
  expect(j).toMatchObject({ type: "pane", pane: claude, status: "done", answer: "answer to: and 3+3" });

  // An answer with escape sequences prints as safe text; --json keeps it exact.
  const evil = "red \u001b[31mtext\u001b]0;title\u0007";
  const shown = await s.run(["agent", "send", "--to", String(claude), "--wait", `say:${JSON.stringify(evil)}`]);
  expect(shown.code).toBe(0);
  expect(shown.stdout).not.toContain("\u001b");
  expect(shown.stdout).toContain("red ");
  expect(JSON.parse(await s.ok(["--json", "agent", "send", "--to", String(claude), "--wait", `say:${JSON.stringify(evil)}`])).answer).toBe(evil);

  const message = await answerer("claude-message");
  await waitFor("the agent to be idle", async () => (await statusOf(message)) === "idle");
  expect(await s.v6({ type: "agent_send", to: String(message), text: "hello", wait: {} })).toMatchObject({ status: "done", answer: "answer to: hello" });

  // Codex reports nothing before its first turn: one typed plainly makes it known.
  const codex = await answerer("codex");
  await s.v6({ type: "pane_send", pane: codex, text: "warm up", enter: true });
  await waitFor("codex to report", async () => (await statusOf(codex)) === "done");
  expect(await s.v6({ type: "agent_send", to: String(codex), text: "ship it?", wait: { timeout: 20000 } })).toMatchObject({ status: "done", answer: "answer to: ship it?" });
  // The same answer again: Codex stays done with the same detail (no status change), and the wait still ends.
  expect(await s.v6({ type: "agent_send", to: String(codex), text: "ship it?", wait: { timeout: 20000 } })).toMatchObject({ status: "done", answer: "answer to: ship it?" });

  // Queued and waited for: `when: done` waits for the next turn's end, then the answer is the queued
  // prompt's turn's, not the turn that let it in.
  const behind = s.v6({ type: "agent_send", to: String(claude), text: "queued question", when: "done", wait: {} });
  await waitFor("the prompt to queue", async () => (await queued()).some((p) => p.text === "queued question"));
  await s.v6({ type: "pane_send", pane: claude, text: "a turn the person started", enter: true });
  expect(await behind).toMatchObject({ type: "pane", status: "done", answer: "answer to: queued question" });
}, 90_000);

test("agent to agent: the CLI inside one pane asks another agent and reads its answer", async () => {
  const other = await answerer("claude-transcript");
  await waitFor("the agent to be idle", async () => (await statusOf(other)) === "idle");
  const out = join(s.root, "asked.txt");
  const wrapper = s.env.STANDIN_WS!;
  // The asking agent is a program in a pane: it has WS_SOCKET and WS_PANE_ID, and runs the CLI.
  await s.v6({ type: "tab_new", cwd: s.root, command: ["sh", "-c", `'${wrapper}' agent send --to ${other} --wait 'which tests fail?' > '${out}' 2>&1; echo exit=$? >> '${out}'`] });
  await waitFor("the asking agent to read the answer", () => existsSync(out) && readFileSync(out, "utf8").includes("exit="), 30_000);
  expect(readFileSync(out, "utf8")).toBe("answer to: which tests fail?\nexit=0\n");
}, 60_000);
