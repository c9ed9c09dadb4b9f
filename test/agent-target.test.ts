// Agents by their own pane, and statuses that survive: `ws agent send --to`
// names the agent itself (its pane, a tab, a tab's name) from anywhere; `--pane` stays the asking
// pane, and each refusal says which form was meant. An agent's last status is kept, marked
// restored, over `ws pane respawn` and `ws restart`, until it reports again or its program ends.
// A stand-in agent in a real pane reports through the real `ws report`, as Claude Code's hooks do.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT, TestServer, processAlive, standInAgentServer, waitFor } from "./harness";
import { gitEnv, makeRepo } from "./git-rig";

const AGENT = join(ROOT, "test/fixtures/stand-in-agent.sh");
let s: TestServer;
let log: string;

beforeAll(async () => {
  ({ s, log } = await standInAgentServer());
});
afterAll(() => s.stop(), 30_000);

const agentRow = async (pane: number) => (await s.v6({ type: "dashboard" })).agents.find((a) => a.pane === pane);
const prompts = (pane: number) => (existsSync(`${log}.${pane}`) ? readFileSync(`${log}.${pane}`, "utf8") : "");
/** A line typed into the stand-in: an event name fires that hook. */
const fire = (pane: number, event: string) => s.v6({ type: "pane_send", pane, text: event, enter: true });

test("agent send --to names the agent itself; --pane is the asking pane; refusals say which form was meant", async () => {
  const shell = (await s.v6({ type: "tab_new", name: "agents-tab", cwd: s.root, command: [] })).pane;
  const agent = (await s.v6({ type: "split", pane: shell, right: true, cwd: s.root, command: ["bash", AGENT, "SessionStart"], focus: false })).pane;
  await waitFor("the agent to be idle", async () => (await agentRow(agent))?.status === "idle");
  const tabId = (await s.v6({ type: "pane_info", pane: agent })).tab;

  // From outside any pane (the test's own environment has no WS_PANE_ID): the agent by its pane.
  expect(await s.run(["agent", "send", "--to", String(agent), "first by pane"])).toMatchObject({ code: 0, stdout: `sent to pane ${agent}\n` });
  await waitFor("the prompt to reach the agent", () => prompts(agent).includes("first by pane"));
  // By its tab's id and its tab's name.
  expect((await s.run(["agent", "send", "--to", `@${tabId}`, "second by tab"])).code).toBe(0);
  expect((await s.run(["agent", "send", "--to", "agents-tab", "third by name"])).code).toBe(0);
  await waitFor("both prompts to reach the agent", () => prompts(agent).includes("second by tab") && prompts(agent).includes("third by name"));

  // The dashboard's pane number given as --pane: the agent's tab has no other agent. The refusal
  // names the form that was meant.
  const wrongForm = await s.run(["--json", "agent", "send", "--pane", String(agent), "hello"]);
  expect(wrongForm.code).toBe(1);
  expect(wrongForm.stderr).toContain(`--to ${agent}`);
  expect(JSON.parse(wrongForm.stdout)).toMatchObject({ code: "no_agent" });
  // --to a pane that is no agent: the refusal points at --pane.
  const notAgent = await s.run(["agent", "send", "--to", String(shell), "hello"]);
  expect(notAgent.code).toBe(1);
  expect(notAgent.stderr).toContain(`--pane ${shell}`);
  // The hook form still works: --pane the asking pane, the agent in its tab.
  expect(await s.run(["agent", "send", "--pane", String(shell), "fourth tab-mate"])).toMatchObject({ code: 0, stdout: `sent to pane ${agent}\n` });
  await waitFor("the tab-mate prompt to reach the agent", () => prompts(agent).includes("fourth tab-mate"));
  // Inside a pane (a hook), with neither: --pane is that pane.
  expect(await s.run(["agent", "send", "fifth from inside"], { env: { WS_PANE_ID: String(shell), WS_SOCKET: s.sock } })).toMatchObject({ code: 0, stdout: `sent to pane ${agent}\n` });
  await waitFor("the hook-form prompt to reach the agent", () => prompts(agent).includes("fifth from inside"));
  // Outside a pane with neither: which agent?
  const neither = await s.run(["agent", "send", "hello"]);
  expect(neither.code).toBe(2);
  expect(neither.stderr).toContain("--to");
  // v1–v5 lines are answered as they always were: `pane` needed, `to` ignored.
  expect(await s.rawLine('{"v":4,"type":"agent_send","to":"1","text":"x"}\n')).toBe("error: invalid message: missing field `pane`");
  expect(await s.rawLine(`{"v":4,"type":"agent_send","pane":${shell},"to":"no-such-thing","text":"sixth v4"}\n`)).toBe(`{"v":5,"type":"pane","pane":${agent}}`);
  await waitFor("the v4 prompt to reach the agent", () => prompts(agent).includes("sixth v4"));
  // An unknown name, and a tab name two tabs share, are refused plainly.
  expect((await s.v6({ type: "agent_send", to: "no-such-thing", text: "x" })).code).toBe("invalid_params");
  await s.v6({ type: "tab_new", name: "twin", cwd: s.root, command: [] });
  await s.v6({ type: "tab_new", name: "twin", cwd: s.root, command: [] });
  const twins = await s.v6({ type: "agent_send", to: "twin", text: "x" });
  expect(twins).toMatchObject({ type: "error", code: "invalid_params" });
  expect(twins.message).toContain("@");
  await s.v6({ type: "pane_close", pane: agent });
}, 60_000);

test("agent send --to WORKSTREAM: the agent in the workstream's tab", async () => {
  const { repo } = makeRepo(s.root, gitEnv(s.root));
  const dir = join(s.root, "config", "ws", "templates");
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, "paired.toml"),
    `[layout]
type = "split"
direction = "right"
ratio = 0.5

[layout.first]
type = "pane"

[layout.second]
type = "pane"
command = ["bash", ${JSON.stringify(AGENT)}, "SessionStart"]
`,
  );
  const r = await s.v6({ type: "new_workstream", template: "paired", name: "feat-ag", repo });
  expect(r).toMatchObject({ type: "pane" });
  const tab = (await s.v6({ type: "pane_info", pane: r.pane })).tab;
  const agent = await waitFor("the workstream's agent to report", async () => {
    const rows = (await s.v6({ type: "dashboard" })).agents;
    for (const a of rows) if ((await s.v6({ type: "pane_info", pane: a.pane })).tab === tab) return a.pane as number;
    return undefined;
  });
  expect(await s.run(["agent", "send", "--to", "feat-ag", "via the workstream"])).toMatchObject({ code: 0, stdout: `sent to pane ${agent}\n` });
  await waitFor("the prompt to reach the workstream's agent", () => prompts(agent).includes("via the workstream"));
}, 60_000);

/** Watch a status for `ms`: it must be there, as `want`, at every look (the reaper runs every 2 s). */
async function staysFor(pane: number, want: Record<string, unknown>, ms: number): Promise<void> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    expect(await agentRow(pane)).toMatchObject(want);
    await Bun.sleep(200); // between looks: showing that it stays needs a window of time
  }
}

test("an agent's status survives ws pane respawn and ws restart, marked restored, until it reports again", async () => {
  // The agent is the pane's own program, reporting only when told (so a restart does not report).
  const agent = (await s.v6({ type: "tab_new", name: "keeper", cwd: s.root, command: ["bash", AGENT] })).pane;
  await s.waitScreen(agent, "stand-in agent ready");
  await fire(agent, "UserPromptSubmit");
  await waitFor("the agent to be working", async () => (await agentRow(agent))?.status === "working");
  expect((await agentRow(agent))!.restored).toBeUndefined();

  // Respawn: the old program is hung up on; the status stays, marked restored, past the reaper.
  const oldPid = (await s.v6({ type: "pane_info", pane: agent })).pid!;
  expect((await s.run(["pane", "respawn", String(agent)])).code).toBe(0);
  await waitFor("the old agent process to be gone", () => !processAlive(oldPid));
  await staysFor(agent, { status: "working", restored: true }, 4500);
  expect(await s.ok(["dashboard"])).toMatch(new RegExp(`working .*pane ${agent} .*\\[restored\\]`));
  // It reports again: a fresh status, no longer marked.
  await s.waitScreen(agent, "stand-in agent ready");
  await fire(agent, "Stop");
  await waitFor("the agent's own report", async () => (await agentRow(agent))?.status === "done");
  expect((await agentRow(agent))!.restored).toBeUndefined();

  // ws restart (its save is taken as the server stops): the same pane id, the last status back,
  // marked restored.
  expect((await s.run(["restart"])).code).toBe(0);
  await waitFor("the restored status", async () => (await agentRow(agent))?.restored === true, 15_000);
  expect(await agentRow(agent)).toMatchObject({ status: "done", restored: true });
  await staysFor(agent, { status: "done", restored: true }, 4500);
  await s.waitScreen(agent, "stand-in agent ready");
  await fire(agent, "UserPromptSubmit");
  await waitFor("the agent's report after the restart", async () => (await agentRow(agent))?.status === "working");
  expect((await agentRow(agent))!.restored).toBeUndefined();

  // Its program ends: the status goes with it.
  await fire(agent, "exit");
  await waitFor("the status to go with the agent", async () => (await agentRow(agent)) === undefined);
}, 120_000);
