// ws ship on real git: a workstream-style worktree of a repository whose remote is a local bare
// repository, the stand-in gh recording what `gh pr create` was given, and each refusal leaving
// the checkout as it was.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Conn, readUntil, TestServer, waitFor, wsArgv } from "./harness";
import type { AnyReply } from "./replies";
import { ghStandIn, git, gitEnv, makeRepo } from "./git-rig";
import { saveCheckpointTree } from "../src/features/workstreams/checkpoints";
import { prText } from "../src/features/workstreams/pr-status";

let root: string;
let env: Record<string, string>;
let repo: string;
let remote: string;
let wtRoot: string;
let gh: { bin: string; dir: string };
/** A PATH with git and sh but no gh. */
let noGhPath: string;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), "ws-ship-"));
  env = gitEnv(root);
  ({ repo, remote } = makeRepo(root, env, { "src/a.txt": "a\n", "old.txt": "old\n" }));
  wtRoot = join(root, "worktrees");
  env.WS_WORKTREES = wtRoot;
  gh = ghStandIn(root);
  noGhPath = join(root, "no-gh-bin");
  mkdirSync(noGhPath);
  for (const p of ["git", "sh"]) symlinkSync(Bun.which(p)!, join(noGhPath, p));
  expect(Bun.which("gh", { PATH: noGhPath })).toBeNull();
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A worktree on a new branch from origin/main, where ws new puts one. */
function workstream(name: string): string {
  const dir = join(wtRoot, "app", name);
  git(repo, ["worktree", "add", "--quiet", "-b", name, dir, "origin/main"], env);
  return dir;
}

async function ws(cwd: string, args: string[], o: { path?: string } = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  const p = Bun.spawn([...wsArgv(), ...args], {
    cwd,
    env: { ...process.env, ...env, PATH: o.path ?? `${gh.bin}:${noGhPath}`, WS_WORKSTREAM: "" },
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
  return { code, stdout, stderr };
}

const remoteHas = (branch: string) => Bun.spawnSync(["git", "show-ref", "--verify", "--quiet", `refs/heads/${branch}`], { cwd: remote }).exitCode === 0;
const prArgv = () => readFileSync(join(gh.dir, "pr-create.argv"), "utf8").split("\x1e").slice(0, -1);

test("ws ship commits everything (new, changed, deleted files) after printing the staged summary; --push then pushes the branch with its upstream", async () => {
  const dir = workstream("feat-x");
  writeFileSync(join(dir, "new.txt"), "new\n");
  writeFileSync(join(dir, "src", "a.txt"), "a changed\n");
  unlinkSync(join(dir, "old.txt"));

  const r = await ws(dir, ["ship", "-m", "Add new, change a"]);
  expect(r.stderr).toBe("");
  expect(r.code).toBe(0);
  const staged = r.stdout.indexOf("staged in");
  expect(staged).toBeGreaterThanOrEqual(0);
  for (const f of ["new.txt", "src/a.txt", "old.txt", "3 files changed"]) expect(r.stdout.indexOf(f)).toBeGreaterThan(staged);
  expect(r.stdout.indexOf("committed")).toBeGreaterThan(r.stdout.indexOf("3 files changed"));
  expect(r.stdout).toContain("1 commit not pushed: ws ship --push");
  expect(git(dir, ["log", "-1", "--format=%s"], env)).toBe("Add new, change a");
  expect(git(dir, ["status", "--porcelain"], env)).toBe("");
  expect(git(dir, ["show", "--name-status", "--format=", "HEAD"], env).split("\n").sort()).toEqual(["A\tnew.txt", "D\told.txt", "M\tsrc/a.txt"]);
  expect(remoteHas("feat-x")).toBe(false);

  // Nothing to commit, one commit to push.
  const pushed = await ws(dir, ["ship", "--push"]);
  expect(pushed.code).toBe(0);
  expect(pushed.stdout).toContain("pushed feat-x to origin");
  expect(pushed.stdout).not.toContain("staged");
  expect(git(remote, ["rev-parse", "refs/heads/feat-x"], env)).toBe(git(dir, ["rev-parse", "HEAD"], env));
  expect(git(dir, ["rev-parse", "--abbrev-ref", "@{u}"], env)).toBe("origin/feat-x");

  // Now there is nothing to commit and nothing to push.
  const again = await ws(dir, ["ship", "--push"]);
  expect(again.code).toBe(1);
  expect(again.stderr).toContain("nothing to commit and nothing to push");
  const bare = await ws(dir, ["--json", "ship"]);
  expect(bare.code).toBe(1);
  expect(JSON.parse(bare.stdout.trim() || bare.stderr.trim()).code).toBe("ship_refused");
}, 60_000);

test("ws ship --pr (from the main clone with --name): commits, pushes, and gives gh pr create the title, the commits as body, the base and --draft", async () => {
  const dir = join(wtRoot, "app", "feat-x");
  writeFileSync(join(dir, "more.txt"), "more\n");
  const r = await ws(repo, ["ship", "--name", "feat-x", "-m", "Second change", "--pr", "--draft"]);
  expect(r.stderr).toBe("");
  expect(r.code).toBe(0);
  expect(r.stdout).toContain("more.txt");
  expect(r.stdout).toContain("opened PR https://github.example.invalid/o/app/pull/7");
  expect(git(remote, ["rev-parse", "refs/heads/feat-x"], env)).toBe(git(dir, ["rev-parse", "HEAD"], env));
  expect(git(remote, ["log", "-1", "--format=%s", "feat-x"], env)).toBe("Second change");
  expect(prArgv()).toEqual(["pr", "create", "--head=feat-x", "--title=Second change", "--body=Commits:\n\n- Add new, change a\n- Second change", "--base=main", "--draft"]);
}, 60_000);

test("ws ship --pr without -m titles the PR with the first commit's subject, and opens it for a branch already pushed", async () => {
  const dir = workstream("feat-y");
  writeFileSync(join(dir, "y1.txt"), "1\n");
  git(dir, ["add", "-A"], env);
  git(dir, ["commit", "--quiet", "-m", "First of y"], env);
  writeFileSync(join(dir, "y2.txt"), "2\n");
  git(dir, ["add", "-A"], env);
  git(dir, ["commit", "--quiet", "-m", "Second of y"], env);
  git(dir, ["push", "--quiet", "-u", "origin", "feat-y"], env);

  const r = await ws(dir, ["ship", "--pr"]);
  expect(r.stderr).toBe("");
  expect(r.code).toBe(0);
  expect(prArgv()).toEqual(["pr", "create", "--head=feat-y", "--title=First of y", "--body=Commits:\n\n- First of y\n- Second of y", "--base=main"]);
}, 60_000);

test("ws ship refuses, changing nothing: a detached HEAD, changes without -m, no remote, gh missing for --pr, an unknown --name", async () => {
  const dir = workstream("feat-z");
  writeFileSync(join(dir, "z.txt"), "z\n");
  const head = git(dir, ["rev-parse", "HEAD"], env);
  const unchanged = () => {
    expect(git(dir, ["rev-parse", "HEAD"], env)).toBe(head);
    expect(git(dir, ["status", "--porcelain"], env)).toBe("?? z.txt");
    expect(remoteHas("feat-z")).toBe(false);
  };

  const noMessage = await ws(dir, ["ship", "--push"]);
  expect(noMessage.code).toBe(1);
  expect(noMessage.stderr).toContain("give the commit's message with -m MSG");
  unchanged();

  const noGh = await ws(dir, ["ship", "-m", "z", "--pr"], { path: noGhPath });
  expect(noGh.code).toBe(1);
  expect(noGh.stderr).toContain("GitHub CLI (gh), which is not installed");
  expect(noGh.stderr).toContain("ws ship --push");
  unchanged();

  git(dir, ["checkout", "--quiet", "--detach"], env);
  const detached = await ws(dir, ["ship", "-m", "z"]);
  expect(detached.code).toBe(1);
  expect(detached.stderr).toContain("HEAD is detached");
  expect(detached.stderr).toContain("git switch -c NAME");
  unchanged();
  git(dir, ["checkout", "--quiet", "feat-z"], env);

  // A repository with no remote at all.
  const lone = join(root, "lone");
  mkdirSync(lone);
  git(lone, ["init", "--quiet"], env);
  writeFileSync(join(lone, "f.txt"), "f\n");
  git(lone, ["add", "-A"], env);
  git(lone, ["commit", "--quiet", "-m", "f"], env);
  writeFileSync(join(lone, "g.txt"), "g\n");
  const loneHead = git(lone, ["rev-parse", "HEAD"], env);
  const noRemote = await ws(lone, ["ship", "-m", "g", "--push"]);
  expect(noRemote.code).toBe(1);
  expect(noRemote.stderr).toContain("has no remote");
  expect(noRemote.stderr).toContain("git remote add origin URL");
  expect(git(lone, ["rev-parse", "HEAD"], env)).toBe(loneHead);
  expect(git(lone, ["status", "--porcelain"], env)).toBe("?? g.txt");
  // Without --push it commits there all the same.
  expect((await ws(lone, ["ship", "-m", "g"])).code).toBe(0);
  expect(git(lone, ["log", "-1", "--format=%s"], env)).toBe("g");

  const unknown = await ws(repo, ["ship", "--name", "no-such", "-m", "x"]);
  expect(unknown.code).toBe(1);
  expect(unknown.stderr).toContain('no workstream "no-such"');
  const outside = await ws(root, ["ship", "-m", "x"]);
  expect(outside.code).toBe(1);
  expect(outside.stderr).toContain("not in a git repository");
  expect(existsSync(join(gh.dir, "calls.log")) ? readFileSync(join(gh.dir, "calls.log"), "utf8") : "").not.toContain("feat-z");
}, 60_000);

test("the dashboard's workstream rows show the ship state at v6 (commits ahead, pushed), and v5's rows stay as they were", async () => {
  const s = new TestServer();
  try {
    const senv = gitEnv(s.root);
    Object.assign(s.env, senv);
    const { repo: srepo } = makeRepo(s.root, senv);
    await s.start();
    const made = await s.v6({ id: 1, type: "new_workstream", template: "default", name: "dash-a", repo: srepo });
    expect(made.type).toBe("pane");
    const dir = String(made.dir);
    const row = async (v: number) => ((await s.request({ v, id: 2, type: "dashboard" })).workstreams as Record<string, unknown>[]).find((w) => w.name === "dash-a");
    expect(await row(6)).toMatchObject({ ahead: 0, pushed: false });

    writeFileSync(join(dir, "d.txt"), "d\n");
    git(dir, ["add", "-A"], senv);
    git(dir, ["commit", "--quiet", "-m", "d"], senv);
    await waitFor("1 commit ahead, not pushed", async () => {
      const r = await row(6);
      return r?.ahead === 1 && r.pushed === false;
    }, 20_000, 250);
    expect(await s.ok(["dashboard"])).toMatch(/dash-a .*1 ahead, not pushed/);

    await s.ok(["ship", "--push"], { cwd: dir });
    await waitFor("pushed, nothing ahead", async () => {
      const r = await row(6);
      return r?.ahead === 0 && r.pushed === true;
    }, 20_000, 250);
    expect(await s.ok(["dashboard"])).toMatch(/dash-a .* pushed$/m);
    const v5 = await row(5);
    expect(v5).toBeDefined();
    expect(Object.keys(v5!).sort()).toEqual(["branch", "name", "pane", "workspace"]);
  } finally {
    await s.stop();
  }
}, 90_000);

test("ws ship --pr gives the PR the workstream's last checkpoint prompts, then its commits, as body (a restore's own checkpoint left out)", async () => {
  const dir = workstream("feat-p");
  writeFileSync(join(dir, "p1.txt"), "1\n");
  // The checkpoints' shadow in this test's state dir, where `ws ship` (given the same env) reads them.
  env.XDG_STATE_HOME = join(root, "state");
  const at = { root: join(root, "state", "ws", "checkpoints"), dir, ws: "feat-p" };
  await saveCheckpointTree(at, "first prompt");
  writeFileSync(join(dir, "p2.txt"), "2\n");
  await saveCheckpointTree(at, "second prompt\nwith more lines");
  writeFileSync(join(dir, "p3.txt"), "3\n");
  await saveCheckpointTree(at, "before restore to checkpoint 1");
  // Found from the worktree's place ($WS_WORKTREES/app/feat-p), without --name or $WS_WORKSTREAM.
  const r = await ws(dir, ["ship", "-m", "P change", "--pr"]);
  expect(r.stderr).toBe("");
  expect(r.code).toBe(0);
  expect(prArgv()).toEqual(["pr", "create", "--head=feat-p", "--title=P change", "--body=Prompts:\n\n- first prompt\n- second prompt\n\nCommits:\n\n- P change", "--base=main"]);
}, 60_000);

test("the ship message ships a workstream in the server and publishes shipped; a refusal changes nothing and publishes nothing", async () => {
  const s = new TestServer();
  const sub = { conn: undefined as Conn | undefined };
  try {
    const senv = gitEnv(s.root);
    const sgh = ghStandIn(s.root);
    Object.assign(s.env, senv, { PATH: `${sgh.bin}:${s.env.PATH}` });
    const { repo: srepo, remote: sremote } = makeRepo(s.root, senv);
    await s.start();
    const made = await s.request({ v: 6, id: 1, type: "new_workstream", template: "default", name: "ship-m", repo: srepo });
    expect(made.type).toBe("pane");
    const dir = String(made.dir);
    sub.conn = await Conn.open(s.sock);
    sub.conn.send({ v: 6, id: "sub", type: "subscribe", types: ["shipped"] });
    expect((await sub.conn.nextJson()).type).toBe("subscribed");

    const row = async () => (await s.v6({ type: "dashboard" })).workstreams.find((w) => w.name === "ship-m");
    // No PR yet (the stand-in gh has none to show): the row has no pr, and that answer is kept.
    expect(await row()).toMatchObject({ ahead: 0, pushed: false });
    expect((await row())?.pr).toBeUndefined();
    expect(readFileSync(join(sgh.dir, "calls.log"), "utf8")).toContain("pr view --json number,state,reviewDecision,statusCheckRollup -- ship-m");
    const rollup = [
      { __typename: "CheckRun", name: "test", status: "COMPLETED", conclusion: "SUCCESS" },
      { __typename: "CheckRun", name: "lint", status: "IN_PROGRESS", conclusion: "" },
    ];
    writeFileSync(join(sgh.dir, "pr.json"), JSON.stringify({ number: 7, state: "OPEN", reviewDecision: "", statusCheckRollup: rollup }));

    const refused = await s.request({ v: 6, id: 2, type: "ship", name: "ship-m", push: true });
    expect(refused).toMatchObject({ type: "error", code: "ship_refused" });
    writeFileSync(join(dir, "m.txt"), "m\n");
    const noMessage = await s.request({ v: 6, id: 3, type: "ship", name: "ship-m", push: true });
    expect(noMessage).toMatchObject({ type: "error", code: "ship_refused" });
    expect(git(dir, ["status", "--porcelain"], senv)).toBe("?? m.txt");

    const r = await s.request<AnyReply & { commit: string }>({ v: 6, id: 4, type: "ship", name: "ship-m", message: "Ship m", pr: true, draft: true });
    expect(r).toMatchObject({ type: "shipped", workstream: "ship-m", branch: "ship-m", pushed: true, unpushed: 0, remote: "origin", pr: "https://github.example.invalid/o/app/pull/7" });
    expect(r.summary).toContain("m.txt");
    expect(git(sremote, ["rev-parse", "refs/heads/ship-m"], senv)).toBe(r.commit);
    const [e] = await readUntil(sub.conn, (x) => x.event === "shipped", 20_000);
    // The first event is this ship's: the refusals published nothing.
    expect(e).toMatchObject({ event: "shipped", workstream: "ship-m", branch: "ship-m", commit: r.commit, pushed: true, pr: r.pr });
    expect(readFileSync(join(sgh.dir, "pr-create.argv"), "utf8").split("\x1e")).toContain("--draft");
    // The ship dropped the row's kept answers: it shows the push and the PR with its checks now,
    // well within the minute a PR status is otherwise kept.
    await waitFor("the row to show the PR and its checks", async () => {
      const r = await row();
      return r?.pr === "#7 open, checks pending (1 of 2)" && r.ahead === 0 && r.pushed === true;
    }, 20_000, 250);
    expect(await s.ok(["dashboard"])).toMatch(/ship-m .* pushed {2}#7 open, checks pending \(1 of 2\)$/m);
  } finally {
    sub.conn?.close();
    await s.stop();
  }
}, 90_000);

test("a PR's text: its number, review or state, then an open PR's checks (check runs and status contexts; a failure outranks a pending one)", () => {
  const run = (status: string, conclusion = "") => ({ __typename: "CheckRun", status, conclusion });
  const ctx = (state: string) => ({ __typename: "StatusContext", state });
  expect(prText({ number: 7, state: "OPEN" })).toBe("#7 open");
  expect(prText({ number: 7, state: "OPEN", statusCheckRollup: [] })).toBe("#7 open");
  expect(prText({ number: 7, state: "OPEN", reviewDecision: "APPROVED", statusCheckRollup: [run("COMPLETED", "SUCCESS"), run("COMPLETED", "SKIPPED"), ctx("SUCCESS")] })).toBe("#7 ✓ approved, checks passing");
  expect(prText({ number: 7, state: "OPEN", statusCheckRollup: [run("QUEUED"), run("COMPLETED", "SUCCESS"), ctx("PENDING")] })).toBe("#7 open, checks pending (2 of 3)");
  expect(prText({ number: 7, state: "OPEN", statusCheckRollup: [run("IN_PROGRESS"), run("COMPLETED", "FAILURE"), ctx("ERROR")] })).toBe("#7 open, checks failing (2 of 3)");
  expect(prText({ number: 7, state: "OPEN", statusCheckRollup: [run("COMPLETED", "TIMED_OUT")] })).toBe("#7 open, checks failing (1 of 1)");
  // A merged or closed PR's checks no longer matter; a rollup gh did not send is none.
  expect(prText({ number: 7, state: "MERGED", statusCheckRollup: [run("COMPLETED", "FAILURE")] })).toBe("#7 merged");
  expect(prText({ number: 7, state: "OPEN", statusCheckRollup: "odd" })).toBe("#7 open");
  expect(prText({ state: "OPEN" })).toBeUndefined();
});
