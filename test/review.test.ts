// Reviews and workstreams with gh: a stand-in `gh` on PATH for `ws new --pr`, PR status
// on the dashboard, `ws review` with and without fresh (and from git alone without gh), `ws pr
// comments`, `ws done` from inside a workstream, the last tab, and a restart keeping workstreams.
// Real daemon, real shells, real git with a local bare remote.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { TestServer, waitFor, wsArgv } from "./harness";
import { ghStandIn, git, gitEnv, makePr, makeRepo } from "./git-rig";

let s: TestServer;
let env: Record<string, string>;
let repo: string;
let gh: { bin: string; dir: string };
let wtRoot: string;
const plainPath = process.env.PATH!;

beforeAll(async () => {
  s = new TestServer();
  env = gitEnv(s.root);
  gh = ghStandIn(s.root);
  // `ws` itself on the panes' PATH (beside gh), as an installed ws is.
  writeFileSync(join(gh.bin, "ws"), `#!/bin/sh\nexec ${wsArgv().map((a) => `'${a}'`).join(" ")} "$@"\n`, { mode: 0o755 });
  Object.assign(s.env, env, { PATH: `${gh.bin}:${plainPath}`, WS_REVIEW_COMMAND: `echo "agent for $WS_WORKSTREAM"; exec cat` });
  ({ repo } = makeRepo(s.root, env));
  makePr(repo, env, 9, "nine-head");
  writeFileSync(join(gh.dir, "head-branch"), "nine-head");
  writeFileSync(
    join(gh.dir, "pr.json"),
    JSON.stringify({
      number: 9,
      title: "Invoice full width",
      body: "Makes the invoice use the full width.",
      url: "https://example.invalid/app/pull/9",
      headRefName: "nine-head",
      baseRefName: "main",
      state: "OPEN",
      reviewDecision: "APPROVED",
      files: [{ path: "nine-head.txt", additions: 1, deletions: 0 }],
      statusCheckRollup: [{ name: "ci", conclusion: "SUCCESS" }],
    }),
  );
  writeFileSync(
    join(gh.dir, "threads.json"),
    JSON.stringify({
      data: {
        repository: {
          pullRequest: {
            reviewThreads: {
              nodes: [
                { isResolved: false, path: "nine-head.txt", line: 1, comments: { nodes: [{ author: { login: "rev" }, body: "Rename this file" }, { author: { login: "dev" }, body: "Why?\u0003\u001b[2Jnow" }] } },
                { isResolved: true, path: "README.md", line: 1, comments: { nodes: [{ author: { login: "rev" }, body: "Settled already" }] } },
              ],
            },
          },
        },
      },
    }),
  );
  wtRoot = join(s.root, "data", "ws", "worktrees", "app");
  await s.start();
}, 60_000);
afterAll(async () => {
  await s.stop();
}, 60_000);

const dashboard = async () => (await s.request({ v: 5, type: "dashboard" })) as { workstreams: { name: string; workspace: string; pane: number; branch?: string; pr?: string }[] };
const tabOf = async (pane: number) => {
  for (const w of await s.list()) for (const t of w.tabs) if (t.panes.includes(pane)) return { ws: w.name, tab: t };
  return undefined;
};
const calls = () => (existsSync(join(gh.dir, "calls.log")) ? readFileSync(join(gh.dir, "calls.log"), "utf8") : "");
/** Where ws review keeps its notes about a review: `ws` in the worktree's own git directory. */
const notes = (dir: string) => join(git(dir, ["rev-parse", "--absolute-git-dir"], env), "ws");

test("ws new --pr with gh: gh pr checkout in the worktree; the dashboard shows the PR as gh tells it", async () => {
  const out = await s.run(["new", "default", "pr-9", "--pr", "9"], { cwd: repo });
  expect(out.code).toBe(0);
  expect(out.stdout).toMatch(/^\d+\n$/); // the pane, for scripts
  expect(out.stderr).toContain("on branch nine-head");
  expect(calls()).toContain("pr checkout 9");
  const dir = join(wtRoot, "pr-9");
  expect(git(dir, ["rev-parse", "HEAD"], env)).toBe(git(repo, ["rev-parse", "nine-head"], env));
  const row = (await dashboard()).workstreams.find((w) => w.name === "pr-9");
  expect(row).toMatchObject({ name: "pr-9", workspace: "app", branch: "nine-head", pr: "#9 ✓ approved, checks passing" });
  expect((await tabOf(row!.pane))?.tab.name).toBe("pr-9");
  expect(await s.ok(["dashboard"])).toContain("pr-9  pane");
}, 30_000);

test("ws review N: the worktree and pr.md (in its git directory) from gh, the review tab with its agent; again goes to it; --fresh replaces it", async () => {
  const out = await s.ok(["review", "9"], { cwd: repo });
  const pane = Number(/pane (\d+)/.exec(out)![1]);
  const dir = join(wtRoot, "review-app-9");
  const md = readFileSync(join(notes(dir), "pr.md"), "utf8");
  for (const part of ["#9 Invoice full width", "Makes the invoice use the full width.", "- nine-head.txt (+1 −0)", "- ci: success", "Branch: nine-head → main"]) expect(md).toContain(part);
  expect(notes(dir)).toBe(join(repo, ".git", "worktrees", "review-app-9", "ws"));
  expect(existsSync(join(dir, ".ws"))).toBe(false); // nothing of ws's in the checked-out tree
  expect(git(dir, ["status", "--porcelain"], env)).toBe("");
  const at = await tabOf(pane);
  expect(at?.ws).toBe("PR Review");
  expect(at?.tab.name).toBe("app#9 Invoice full width");
  expect(at?.tab.panes.length).toBe(2);
  await s.waitScreen(pane, "agent for review-app-9");

  // Again, without fresh: the same tab, its focused pane.
  const again = await s.ok(["review", "9"], { cwd: repo });
  expect(Number(/pane (\d+)/.exec(again)![1])).toBe(pane);
  expect((await s.list()).find((w) => w.name === "PR Review")!.tabs.length).toBe(1);

  // --fresh: a new tab in its place, the old one closed.
  const fresh = Number(/pane (\d+)/.exec(await s.ok(["review", "9", "--fresh"], { cwd: repo }))![1]);
  expect(fresh).not.toBe(pane);
  expect(await tabOf(pane)).toBeUndefined();
  const tabs = (await s.list()).find((w) => w.name === "PR Review")!.tabs;
  expect(tabs.length).toBe(1);
  expect(tabs[0]!.panes).toContain(fresh);
  await s.waitScreen(fresh, "agent for review-app-9");
  expect((await dashboard()).workstreams.find((w) => w.name === "review-app-9")?.pane).toBe(fresh);
}, 60_000);

test("ws pr comments sends the unresolved review threads to the tab's agent; without gh it says so", async () => {
  const row = (await dashboard()).workstreams.find((w) => w.name === "review-app-9")!;
  const tab = (await tabOf(row.pane))!.tab;
  const [agent, shell] = tab.panes as [number, number];
  await s.request({ v: 1, type: "report", pane: agent, agent: "claude", event: "SessionStart" });
  await waitFor("the agent to report", async () => (await s.v6({ type: "dashboard" })).agents.some((a) => a.pane === agent));
  const dir = join(wtRoot, "review-app-9");
  const out = await s.ok(["pr", "comments", "--pane", String(shell)], { cwd: dir });
  expect(out).toContain(`sent 1 unresolved review thread of PR #9 to the agent in pane ${agent}`);
  const screen = await s.waitScreen(agent, "Rename this file");
  expect(screen).toContain("Address these unresolved review comments on PR");
  // A reviewer's control characters arrive as text: ^C did not stop the agent, ESC cleared nothing.
  expect(screen).toContain("reply from dev: Why?^C^[[2Jnow");
  expect(screen).toContain("agent for review-app-9");
  expect((await s.v6({ type: "pane_info", pane: agent })).exited).toBeFalsy();
  expect(screen).not.toContain("Settled already");
  const none = await s.run(["pr", "comments", "--pane", String(shell)], { cwd: dir, env: { PATH: plainPath } });
  expect(none.code).toBe(1);
  expect(none.stderr).toContain("GitHub CLI (gh), which is not installed");
}, 30_000);

test("ws review BRANCH without gh: pr.md from git alone", async () => {
  git(repo, ["checkout", "--quiet", "-b", "topic"], env);
  writeFileSync(join(repo, "topic.txt"), "t\n");
  git(repo, ["add", "-A"], env);
  git(repo, ["commit", "--quiet", "-m", "topic: add a file"], env);
  git(repo, ["checkout", "--quiet", "main"], env);
  const out = await s.ok(["review", "topic", "--no-focus"], { cwd: repo, env: { PATH: plainPath } });
  const dir = join(wtRoot, "review-app-topic");
  expect(out).toContain(dir);
  const md = readFileSync(join(notes(dir), "pr.md"), "utf8");
  expect(md).toContain("from git alone, against origin/main");
  expect(md).toContain("topic: add a file");
  expect(md).toContain("- topic.txt (+1 −0)");
  expect(git(dir, ["rev-parse", "--abbrev-ref", "HEAD"], env)).toBe("review/topic");
}, 30_000);

test("ws done inside the workstream: the tab closes under it, and that is success", async () => {
  const r = await s.v6({ type: "new_workstream", template: "default", name: "inside", repo });
  await s.waitScreen(r.pane, /[$#] ?$/m); // the shell's prompt
  await s.request({ v: 2, type: "pane_send", pane: r.pane, text: "ws done", enter: true });
  await waitFor("the tab to close", async () => (await tabOf(r.pane)) === undefined);
  await waitFor("the worktree to go", () => !existsSync(r.dir));
}, 30_000);

test("a restart keeps the workstreams; done refuses the last tab in ws", async () => {
  const before = (await dashboard()).workstreams.map((w) => w.name).sort();
  expect(before).toEqual(["pr-9", "review-app-9", "review-app-topic"]);
  expect((await s.run(["kill-server", "--keep"])).code).toBe(0);
  await s.start();
  const after = await dashboard();
  expect(after.workstreams.map((w) => w.name).sort()).toEqual(before);
  const pr9 = after.workstreams.find((w) => w.name === "pr-9")!;
  expect(pr9).toMatchObject({ workspace: "app", branch: "nine-head", pr: "#9 ✓ approved, checks passing" });
  // The restored panes still belong to it.
  await s.request({ v: 2, type: "pane_send", pane: pr9.pane, text: 'echo "w=$WS_WORKSTREAM"', enter: true });
  await s.waitScreen(pr9.pane, "w=pr-9");

  // Leave only pr-9's tab: done must refuse to close the last tab in ws.
  for (const w of await s.list()) if (w.name !== "app") await s.request({ v: 2, type: "workspace_close", name: w.name });
  const app = (await s.list()).find((w) => w.name === "app")!;
  for (const t of app.tabs) if (!t.panes.includes(pr9.pane)) await s.request({ v: 2, type: "tab_close", workspace: "app", tab: t.name });
  const last = await s.run(["done", "pr-9", "--force"]);
  expect(last.code).toBe(1);
  expect(last.stderr).toContain("last tab in ws");
  expect((await s.v6({ type: "workstream_done", name: "pr-9" })).code).toBe("last_pane");
  await s.request({ v: 2, type: "tab_new", workspace: "app", cwd: s.root });
  await s.ok(["done", "pr-9"]);
  await waitFor("the worktree to go", () => !existsSync(join(wtRoot, "pr-9")));
  // The reviews' worktrees outlived their tabs' restart and are still done-able.
  await s.ok(["done", "review-app-topic"]);
  await waitFor("the review worktree to go", () => !existsSync(join(wtRoot, "review-app-topic")));
}, 60_000);
