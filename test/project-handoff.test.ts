// ws project handoff (handoff, project_handoff): every running agent in the project's tabs is typed
// a request naming the project's handoff file; the CLI waits for each to finish and prints what
// they appended. Agents are stand-ins in real panes reporting through the real `ws report`.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT, TestServer, standInAgentServer, waitFor } from "./harness";

const HANDOFF_AGENT = join(ROOT, "test/fixtures/handoff-agent.sh");
const LOGGING_AGENT = join(ROOT, "test/fixtures/stand-in-agent.sh");
let s: TestServer;
let log: string;
let file: string;
// HOME is the test's root, so projects live in its ~/.local/share.
const dataDir = () => join(s.root, ".local/share");
const statusOf = async (pane: number) => (await s.v6({ type: "dashboard" })).agents.find((a) => a.pane === pane)?.status;
const prompts = (pane: number) => (existsSync(`${log}.${pane}`) ? readFileSync(`${log}.${pane}`, "utf8") : "");

async function agentIn(tabPane: number, argv: string[], env: Record<string, string> = {}, want = "idle"): Promise<number> {
  const pane = (await s.v6({ type: "split", pane: tabPane, right: true, cwd: s.root, command: argv, focus: false, env })).pane;
  await waitFor(`the agent in pane ${pane} to be ${want}`, async () => (await statusOf(pane)) === want);
  return pane;
}

beforeAll(async () => {
  ({ s, log } = await standInAgentServer());
});
afterAll(() => s.stop());

test("ws project handoff asks each agent in the project's tabs, waits, and prints their entries", async () => {
  await s.ok(["project", "new", "buttons"]);
  await s.ok(["project", "new", "elsewhere"]);
  file = join(dataDir(), "ws/projects/buttons/handoff.md");
  const t1 = (await s.v6({ type: "tab_new", cwd: s.root, project: "buttons", name: "one" })).pane;
  const t2 = (await s.v6({ type: "tab_new", cwd: s.root, project: "buttons", name: "two" })).pane;
  const t3 = (await s.v6({ type: "tab_new", cwd: s.root, project: "elsewhere", name: "three" })).pane;
  const a1 = await agentIn(t1, ["bash", HANDOFF_AGENT], { HANDOFF_WORK: "focus rings" });
  const a2 = await agentIn(t2, ["bash", HANDOFF_AGENT], { HANDOFF_WORK: "aria labels" });
  const outside = await agentIn(t3, ["bash", LOGGING_AGENT, "SessionStart"]);

  const r = await s.run(["project", "handoff", "buttons"]);
  expect(r.stderr).toBe("");
  expect(r.code).toBe(0);
  // Both entries, whichever agent wrote first.
  const entry = (pane: number, work: string) => `## pane ${pane}\nDid: ${work}\nNext: review it\n`;
  expect(r.stdout).toContain(entry(a1, "focus rings"));
  expect(r.stdout).toContain(entry(a2, "aria labels"));
  expect(readFileSync(file, "utf8").length).toBe(r.stdout.length + 1); // the file as printed: the blank line after the last entry trimmed
  expect(prompts(outside)).toBe("");

  // A second handoff prints only what this one added; the file keeps both.
  const json = JSON.parse(await s.ok(["--json", "project", "handoff", "buttons"]));
  expect(json).toMatchObject({ type: "handoff", file });
  expect(json.agents.map((a: { pane: number; asked: boolean; status: string }) => [a.pane, a.asked, a.status]).sort()).toEqual([[a1, true, "done"], [a2, true, "done"]].sort());
  expect(json.entries.split("## pane").length - 1).toBe(2);
  expect(readFileSync(file, "utf8").split("## pane").length - 1).toBe(4);
}, 30_000);

test("an agent blocked on a prompt is not typed into; the CLI says so and exits 1", async () => {
  await s.ok(["project", "new", "blocked-one"]);
  const t = (await s.v6({ type: "tab_new", cwd: s.root, project: "blocked-one", name: "b" })).pane;
  const ok = await agentIn(t, ["bash", HANDOFF_AGENT], { HANDOFF_WORK: "tests" });
  const blocked = await agentIn(t, ["bash", LOGGING_AGENT, "SessionStart", "Permission"], {}, "blocked");
  const r = await s.run(["project", "handoff", "blocked-one"]);
  expect(r.code).toBe(1);
  expect(r.stdout).toContain(`## pane ${ok}\nDid: tests\n`);
  expect(r.stderr).toContain(`pane ${blocked} (b): not asked, its agent is blocked on a prompt`);
  expect(prompts(blocked)).toBe("");
}, 30_000);

test("handoff at v1 is answered ok and asks the agents; errors: an unknown project, a project without agents", async () => {
  await s.ok(["project", "new", "v1-proj"]);
  const t = (await s.v6({ type: "tab_new", cwd: s.root, project: "v1-proj", name: "v1" })).pane;
  const a = await agentIn(t, ["bash", HANDOFF_AGENT], { HANDOFF_WORK: "the v1 path" });
  expect(await s.request({ v: 1, type: "handoff", slug: "v1-proj" })).toEqual({ type: "ok" });
  const v1file = join(dataDir(), "ws/projects/v1-proj/handoff.md");
  await waitFor("the agent's entry", () => existsSync(v1file) && readFileSync(v1file, "utf8").includes(`## pane ${a}\nDid: the v1 path\n`));

  expect(await s.v6({ type: "project_handoff", slug: "nope" })).toMatchObject({ type: "error", code: "project_not_found", hint: { param: "slug" } });
  await s.ok(["project", "new", "empty"]);
  expect(await s.v6({ type: "project_handoff", slug: "empty" })).toMatchObject({ type: "error", code: "no_agent" });
  const r = await s.run(["project", "handoff", "empty"]);
  expect(r.code).toBe(1);
  expect(r.stderr).toContain("no running agent in the tabs of project empty");
}, 30_000);
