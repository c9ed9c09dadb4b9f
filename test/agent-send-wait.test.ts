// agent_send with `wait`: one request types the prompt and waits for the agent's answer status; an
// agent blocked on its own prompt is refused before anything is typed. A stand-in agent in a real
// pane reports its statuses through the real `ws report`, as Claude Code's hooks do.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT, TestServer, standInAgentServer, waitFor } from "./harness";

const AGENT = join(ROOT, "test/fixtures/stand-in-agent.sh");
let s: TestServer;
let log: string;

beforeAll(async () => {
  ({ s, log } = await standInAgentServer());
});
afterAll(() => s.stop());

const statusOf = async (pane: number) => (await s.v6({ type: "dashboard" })).agents.find((a) => a.pane === pane)?.status;
const prompts = (pane: number) => (existsSync(`${log}.${pane}`) ? readFileSync(`${log}.${pane}`, "utf8") : "");

test("agent_send wait: types, then answers with the status the agent reports next", async () => {
  const shell = (await s.v6({ type: "tab_new", cwd: s.root, command: [] })).pane;
  const agent = (await s.v6({ type: "split", pane: shell, right: true, cwd: s.root, command: ["bash", AGENT, "SessionStart"], focus: false })).pane;
  await waitFor("the agent to be idle", async () => (await statusOf(agent)) === "idle");

  // The stand-in turns a line naming a hook event into that report, as if the prompt made the
  // agent do it. The CLI's --wait waits for done, idle or blocked and prints it.
  const cli = await s.run(["agent", "send", "--pane", String(shell), "--wait", "Stop"]);
  expect(cli).toMatchObject({ code: 0, stdout: "done\n" });

  const working = await s.v6({ type: "agent_send", pane: shell, text: "UserPromptSubmit", wait: { until: ["working"], timeout: 10000 } });
  expect(working).toMatchObject({ type: "pane", pane: agent, status: "working" });
  expect(working.elapsed_ms).toBeGreaterThanOrEqual(0);
  expect(await s.v6({ type: "agent_send", pane: shell, text: "Stop", wait: {} })).toMatchObject({ type: "pane", pane: agent, status: "done" });

  // Blocked on its own prompt: refused, and nothing is typed (a later prompt arrives alone).
  await s.v6({ type: "agent_send", pane: shell, text: "Permission" });
  await waitFor("the agent to be blocked", async () => (await statusOf(agent)) === "blocked");
  const refused = await s.v6({ type: "agent_send", pane: shell, text: "answer it", wait: { until: ["done"] } });
  expect(refused).toMatchObject({ type: "error", code: "agent_blocked" });
  const cliRefused = await s.run(["agent", "send", "--pane", String(shell), "--wait", "answer it too"]);
  expect(cliRefused.code).toBe(1);
  expect(cliRefused.stderr).toContain("blocked");
  expect((await s.v6({ type: "agent_send", pane: shell, text: "Stop" })).type).toBe("pane");
  await waitFor("the agent to be done", async () => (await statusOf(agent)) === "done");

  // A timeout: the text was typed, the status never came.
  const late = await s.v6({ type: "agent_send", pane: shell, text: "a plain prompt", wait: { until: ["working"], timeout: 300 } });
  expect(late).toMatchObject({ type: "error", code: "timeout" });
  await waitFor("the prompt to reach the agent", () => prompts(agent).includes("a plain prompt\n"));
  expect(prompts(agent)).toBe("a plain prompt\n");

  // v4 without wait answers as it always did.
  expect(await s.request({ v: 4, type: "agent_send", pane: shell, text: "UserPromptSubmit" })).toEqual({ v: 5, type: "pane", pane: agent });
}, 30_000);

test("agent_send wait: a bad wait is invalid_params and types nothing", async () => {
  const shell = (await s.v6({ type: "tab_new", cwd: s.root, command: [] })).pane;
  const agent = (await s.v6({ type: "split", pane: shell, right: true, cwd: s.root, command: ["bash", AGENT, "SessionStart"], focus: false })).pane;
  await waitFor("the agent to be idle", async () => (await statusOf(agent)) === "idle");
  for (const wait of [{ until: ["bogus"] }, { until: [] }, { timeout: -1 }, { later: 1 }, "soon"])
    expect(await s.v6({ type: "agent_send", pane: shell, text: "nothing", wait })).toMatchObject({ type: "error", code: "invalid_params" });
  await s.v6({ type: "agent_send", pane: shell, text: "something" });
  await waitFor("the prompt to reach the agent", () => prompts(agent).includes("something\n"));
  expect(prompts(agent)).toBe("something\n");
}, 30_000);
