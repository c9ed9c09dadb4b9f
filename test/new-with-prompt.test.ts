// ws new TEMPLATE NAME --prompt: the first prompt waits in the agent queue and is typed once the
// template's agent pane reports it waits for input; ws new prints that pane (--json: pane,
// workstream, branch, worktree). Real daemon, real git worktrees, a stand-in agent (Claude Code's
// hook payloads through the real `ws report`) as the template's agent pane.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT, TestServer, waitFor, wsArgv } from "./harness";
import { gitEnv, makeRepo } from "./git-rig";

const AGENT = join(ROOT, "test/fixtures/stand-in-agent.sh");
let s: TestServer;
let log: string;
let repo: string;

beforeAll(async () => {
  // As standInAgentServer, with git's environment in the server's before it starts.
  s = new TestServer();
  Object.assign(s.env, gitEnv(s.root));
  const wrapper = join(s.root, "ws-wrapper");
  writeFileSync(wrapper, `#!/bin/sh\nexec ${wsArgv().map((a) => `'${a}'`).join(" ")} "$@"\n`, { mode: 0o755 });
  log = join(s.root, "prompts");
  Object.assign(s.env, { STANDIN_WS: wrapper, STANDIN_LOG: log });
  ({ repo } = makeRepo(s.root, s.env));
  await s.start();
  const dir = join(s.root, "config", "ws", "templates");
  mkdirSync(dir, { recursive: true });
  // A shell on the left, the agent on the right: the agent's pane is not the first one.
  writeFileSync(
    join(dir, "agent.toml"),
    `[layout]\ntype = "split"\ndirection = "right"\nratio = 0.5\n[layout.first]\ntype = "pane"\n[layout.second]\ntype = "pane"\nagent = true\ncommand = ["bash", ${JSON.stringify(AGENT)}, "SessionStart"]\n`,
  );
}, 60_000);
afterAll(() => s.stop());

const prompts = (pane: number) => (existsSync(`${log}.${pane}`) ? readFileSync(`${log}.${pane}`, "utf8") : "");

test("ws new --prompt types the prompt into the agent once it reports ready, and prints the agent's pane", async () => {
  const made = await s.run(["new", "agent", "first-task", "--prompt", "fix the flaky test"], { cwd: repo });
  expect(made.code).toBe(0);
  expect(made.stdout).toMatch(/^\d+\n$/);
  const pane = Number(made.stdout);
  expect(made.stderr).toContain("workstream first-task: pane");
  // The agent's pane, not the tab's first one (a shell).
  const info = await s.v6({ type: "pane_info", pane });
  expect((info.argv as string[]).join(" ")).toContain("stand-in-agent.sh");
  await waitFor("the prompt in the agent", () => prompts(pane) === "fix the flaky test\n", 20_000);
  expect((await s.call({ type: "agent_queue_list" })).prompts.filter((p) => p.pane === pane)).toEqual([]);
}, 90_000);

test("--prompt - reads stdin; --json gives pane, workstream, branch and worktree", async () => {
  const r = await s.run(["--json", "new", "agent", "second-task", "--prompt", "-"], { cwd: repo, stdin: "line one\nline two\n" });
  expect(r.code).toBe(0);
  const j = JSON.parse(r.stdout);
  expect(j).toMatchObject({ type: "pane", workstream: "second-task", branch: "second-task" });
  expect(j.worktree).toBe(j.dir);
  expect(existsSync(j.worktree)).toBe(true);
  expect(typeof j.prompt).toBe("number");
  // A multi-line prompt goes in as one paste; the stand-in reads its lines.
  await waitFor("the prompt in the agent", () => prompts(j.pane) === "line one\nline two\n", 20_000);
}, 90_000);

test("a prompt over the queue's limit is refused before anything is made", async () => {
  const r = await s.run(["new", "agent", "third-task", "--prompt", "x".repeat(100_001)], { cwd: repo });
  expect(r.code).not.toBe(0);
  expect(r.stderr).toContain("at most 100000 characters");
  expect(JSON.parse(await s.ok(["--json", "workstream", "list"])).workstreams.map((w: { name: string }) => w.name)).not.toContain("third-task");
}, 60_000);
