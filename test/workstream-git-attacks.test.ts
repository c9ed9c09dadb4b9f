// Workstreams attacked through git: a PR whose tree links ws's old review notes (.ws/pr.md,
// .ws/pr.json) to ~/.bashrc and /dev/zero; FIFOs and links where ws now keeps them; a branch named
// `--receive-pack=…` shipped; an agent's core.hooksPath and core.fsmonitor, and a GIT_* variable in
// the daemon's environment; a checkpoint restore meeting a file that is ignored now. Each
// reproduction runs against the real program: real daemon, real git with a local bare remote, the
// stand-in gh, real shells in real PTYs.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { chmodSync, existsSync, lstatSync, mkdirSync, readFileSync, readdirSync, readlinkSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { TestServer, waitFor, wsArgv } from "./harness";
import { ghStandIn, git, gitEnv, makeRepo } from "./git-rig";

let s: TestServer;
let env: Record<string, string>;
let repo: string;
let gh: { bin: string; dir: string };
let wtRoot: string;
/** The daemon starts with GIT_TRACE naming this file: a git of ws's that kept it would write it. */
let trace: string;
const BASHRC = "# my own .bashrc\n";

beforeAll(async () => {
  s = new TestServer();
  env = gitEnv(s.root);
  gh = ghStandIn(s.root);
  writeFileSync(join(gh.bin, "ws"), `#!/bin/sh\nexec ${wsArgv().map((a) => `'${a}'`).join(" ")} "$@"\n`, { mode: 0o755 });
  trace = join(s.root, "git-trace");
  Object.assign(s.env, env, { PATH: `${gh.bin}:${process.env.PATH}`, WS_REVIEW_COMMAND: "exec cat", GIT_TRACE: trace });
  ({ repo } = makeRepo(s.root, env, { ".gitignore": "*.log\n" }));
  writeFileSync(join(s.root, ".bashrc"), BASHRC); // HOME is s.root
  wtRoot = join(s.root, "data", "ws", "worktrees", "app");
  await s.start();
}, 60_000);
afterAll(async () => {
  await s.stop();
}, 60_000);

/** PR `n` on the remote: one commit on main with `links` (path -> target) and `files`, published
 * as refs/pull/N/head; gh's answer for it says `body`. */
function publishPr(n: number, links: Record<string, string>, body: string): void {
  git(repo, ["checkout", "--quiet", "--detach"], env);
  for (const [path, target] of Object.entries(links)) {
    mkdirSync(join(repo, path, ".."), { recursive: true });
    symlinkSync(target, join(repo, path));
  }
  git(repo, ["add", "-A"], env);
  git(repo, ["commit", "--quiet", "-m", `PR ${n}`], env);
  git(repo, ["push", "--quiet", "origin", `HEAD:refs/pull/${n}/head`], env);
  git(repo, ["checkout", "--quiet", "main"], env);
  writeFileSync(join(gh.dir, "head-branch"), `pr-${n}-head`);
  writeFileSync(join(gh.dir, "pr.json"), JSON.stringify({ number: n, title: `PR ${n}`, body, url: `https://example.invalid/app/pull/${n}`, headRefName: `pr-${n}-head`, baseRefName: "main", files: [], statusCheckRollup: [] }));
}

const calls = () => (existsSync(join(gh.dir, "calls.log")) ? readFileSync(join(gh.dir, "calls.log"), "utf8") : "");
const notes = (dir: string) => join(git(dir, ["rev-parse", "--absolute-git-dir"], env), "ws");
const tabOf = async (pane: number) => {
  for (const w of await s.list()) for (const t of w.tabs) if (t.panes.includes(pane)) return t;
  return undefined;
};

// ---- ws review's notes: never in the PR's tree, never through a link ---------------------------

test("a PR tracking .ws/pr.md -> ~/.bashrc and .ws/pr.json -> /dev/zero: ws review writes nothing through them (its notes are in the worktree's git directory) and ws pr comments reads the review's own", async () => {
  const dir = join(wtRoot, "review-app-5");
  const payload = `touch ${join(s.root, "BASHRC_RAN")}`;
  publishPr(5, { ".ws/pr.md": relative(join(dir, ".ws"), join(s.root, ".bashrc")), ".ws/pr.json": "/dev/zero" }, payload);
  const out = await s.run(["review", "5"], { cwd: repo });
  expect({ code: out.code, err: out.stderr }).toEqual({ code: 0, err: "" });
  expect(readFileSync(join(s.root, ".bashrc"), "utf8")).toBe(BASHRC);
  // The PR's links are as the PR has them, and ws's notes are where git keeps the worktree's files.
  expect(readlinkSync(join(dir, ".ws", "pr.md"))).toBe(relative(join(dir, ".ws"), join(s.root, ".bashrc")));
  expect(readFileSync(join(notes(dir), "pr.md"), "utf8")).toContain(payload);
  expect(JSON.parse(readFileSync(join(notes(dir), "pr.json"), "utf8")).number).toBe(5);

  // ws pr comments in the review: the review's own pr.json (PR 5), not the tree's link to /dev/zero,
  // nor the main checkout's (which has a /dev/zero link of its own now).
  writeFileSync(join(gh.dir, "threads.json"), JSON.stringify({ data: { repository: { pullRequest: { reviewThreads: { nodes: [{ isResolved: false, path: "a", line: 1, comments: { nodes: [{ author: { login: "rev" }, body: "please" }] } }] } } } } }));
  mkdirSync(join(repo, ".ws"));
  symlinkSync("/dev/zero", join(repo, ".ws", "pr.json"));
  const pane = Number(/pane (\d+)/.exec(out.stdout)![1]);
  const [agent, shell] = (await tabOf(pane))!.panes as [number, number];
  await s.request({ v: 1, type: "report", pane: agent, agent: "claude", event: "SessionStart" });
  await waitFor("the agent to report", async () => (await s.v6({ type: "dashboard" })).agents.some((a) => a.pane === agent));
  writeFileSync(join(gh.dir, "pr.json"), JSON.stringify({ number: 77 })); // gh's guess, if asked
  const comments = await s.run(["pr", "comments", "--pane", String(shell)], { cwd: dir });
  expect({ code: comments.code, err: comments.stderr }).toEqual({ code: 0, err: "" });
  expect(comments.stdout).toContain("of PR #5 to the agent");
  // In the main checkout ws has no notes: gh's guess, and the tree's .ws/pr.json is never opened.
  const main = await s.run(["pr", "comments", "--pane", String(shell)], { cwd: repo });
  expect(main.stdout).toContain("of PR #77 to the agent");
  rmSync(join(repo, ".ws"), { recursive: true });
}, 60_000);

test("a PR tracking .ws as a link to the home directory: ws review leaves it alone", async () => {
  const dir = join(wtRoot, "review-app-6");
  publishPr(6, { ".ws": relative(dir, s.root) }, "body six");
  const before = readdirSync(s.root).sort();
  const out = await s.run(["review", "6", "--no-focus"], { cwd: repo });
  expect({ code: out.code, err: out.stderr }).toEqual({ code: 0, err: "" });
  expect(readdirSync(s.root).sort()).toEqual(before);
  expect(readFileSync(join(s.root, ".bashrc"), "utf8")).toBe(BASHRC);
  expect(readFileSync(join(notes(dir), "pr.md"), "utf8")).toContain("body six");
}, 60_000);

test("ws's notes replaced by a FIFO, a link to /dev/zero, a link to ~/.bashrc or a linked directory: review refuses to write (never waits), pr comments ignores them and asks gh", async () => {
  const dir = join(wtRoot, "review-app-5");
  const ws = notes(dir);
  const pane = (await s.v6({ type: "dashboard" })).workstreams.find((w) => w.name === "review-app-5")!.pane;
  const shell = (await tabOf(pane))!.panes[1]!;
  writeFileSync(join(gh.dir, "pr.json"), JSON.stringify({ number: 5, title: "PR 5", body: "again" }));
  const victim = join(s.root, "victim");
  mkdirSync(victim);
  const cases: [string, () => void, string][] = [
    ["a FIFO", () => Bun.spawnSync(["mkfifo", join(ws, "pr.md")]), "is not a regular file (a FIFO"],
    ["a link to ~/.bashrc", () => symlinkSync(join(s.root, ".bashrc"), join(ws, "pr.md")), "is a symbolic link"],
    ["a link to /dev/zero", () => symlinkSync("/dev/zero", join(ws, "pr.md")), "is a symbolic link"],
    ["a linked directory", () => (rmSync(ws, { recursive: true }), symlinkSync(victim, ws)), "is a symbolic link"],
  ];
  for (const [what, plant, says] of cases) {
    rmSync(join(ws, "pr.md"), { force: true });
    plant();
    const r = await s.run(["review", "5", "--no-focus"], { cwd: repo });
    expect({ what, code: r.code }).toEqual({ what, code: 1 });
    expect(r.stderr).toContain(says);
    expect(readFileSync(join(s.root, ".bashrc"), "utf8")).toBe(BASHRC);
    expect(readdirSync(victim)).toEqual([]);
    if (lstatSync(ws).isSymbolicLink()) rmSync(ws);
    else rmSync(join(ws, "pr.md"), { force: true });
    mkdirSync(ws, { recursive: true });
  }
  // pr.json as a FIFO or a link to /dev/zero: ignored with a word, and gh asked instead.
  writeFileSync(join(gh.dir, "pr.json"), JSON.stringify({ number: 78 }));
  for (const [what, plant] of [["a FIFO", () => Bun.spawnSync(["mkfifo", join(ws, "pr.json")])], ["a link to /dev/zero", () => symlinkSync("/dev/zero", join(ws, "pr.json"))]] as const) {
    rmSync(join(ws, "pr.json"), { force: true });
    plant();
    const r = await s.run(["pr", "comments", "--pane", String(shell)], { cwd: dir });
    expect({ what, code: r.code }).toEqual({ what, code: 0 });
    expect(r.stdout).toContain("of PR #78");
    expect(r.stderr).toMatch(/ignored .*pr\.json/);
  }
  rmSync(join(ws, "pr.json"), { force: true });
  // Once they are gone, ws review writes them again.
  writeFileSync(join(gh.dir, "pr.json"), JSON.stringify({ number: 5, title: "PR 5", body: "again" }));
  expect((await s.run(["review", "5", "--no-focus"], { cwd: repo })).code).toBe(0);
  expect(readFileSync(join(ws, "pr.md"), "utf8")).toContain("again");
}, 60_000);

// ---- a branch named like an option -------------------------------------------------------------

test("a branch named --receive-pack=…: ws ship (here and in the server), ws review and ws new refuse it before git runs; git itself would have run it", async () => {
  const marker = join(s.root, "SHIP");
  const evil = `--receive-pack=touch\${IFS}${marker};git-receive-pack`;
  const r = await s.v6({ type: "new_workstream", template: "default", name: "shipper", repo });
  const dir = r.dir as string;
  git(dir, ["update-ref", `refs/heads/${evil}`, "HEAD"], env);
  git(dir, ["symbolic-ref", "HEAD", `refs/heads/${evil}`], env);
  git(dir, ["config", "push.default", "current"], env);
  writeFileSync(join(dir, "change.txt"), "x\n");
  const head = git(dir, ["rev-parse", "HEAD"], env);

  const cli = await s.run(["ship", "-m", "change", "--push"], { cwd: dir });
  expect(cli.code).toBe(1);
  expect(cli.stderr).toContain('starts with "-"');
  const server = await s.v6({ type: "ship", name: "shipper", message: "change", push: true });
  expect(server.code).toBe("ship_refused");
  const pr = await s.v6({ type: "ship", name: "shipper", message: "change", pr: true });
  expect(pr.code).toBe("ship_refused");
  expect(git(dir, ["rev-parse", "HEAD"], env)).toBe(head); // nothing committed
  const review = await s.run(["review", evil], { cwd: repo });
  expect(review.code).not.toBe(0);
  expect((await s.v6({ type: "new_workstream", template: "default", name: "evil-b", repo, branch: evil })).code).toBe("invalid_params");
  expect(existsSync(marker)).toBe(false);

  // The reproduction is live: the push ws used to run, run by hand, runs the command.
  git(dir, ["push", "--quiet", "-u", "origin", evil], env);
  expect(existsSync(marker)).toBe(true);
  rmSync(marker);
  git(dir, ["checkout", "--quiet", "-B", "shipper"], env);
  git(dir, ["branch", "-D", "--end-of-options", evil], env);
  expect((await s.v6({ type: "workstream_done", name: "shipper", force: true })).type).not.toBe("error");
}, 60_000);

// ---- the repo's hooks never run in ws's git ----------------------------------------------------

test("an agent's core.hooksPath and core.fsmonitor: checkpoint save (by hand and at a turn's start), restore, ship, ws new (--pr through gh too), ws review and ws done run none of them; GIT_* from the daemon's environment is not passed on", async () => {
  publishPr(12, { "twelve.txt": "README.md" }, "body twelve");
  const w = await s.v6({ type: "new_workstream", template: "default", name: "hooked", repo });
  const dir = w.dir as string;
  const ran = join(s.root, "HOOK_RAN");
  const hooks = join(s.root, "agent-hooks");
  mkdirSync(hooks);
  for (const h of ["reference-transaction", "post-checkout", "pre-commit", "commit-msg", "post-commit", "pre-push", "post-index-change", "fsmonitor"]) {
    writeFileSync(join(hooks, h), `#!/bin/sh\necho ${h} >> '${ran}'\n`);
    chmodSync(join(hooks, h), 0o755);
  }
  // What the agent does in its worktree (the config is the repo's, shared by every worktree).
  git(dir, ["config", "core.hooksPath", hooks], env);
  git(dir, ["config", "core.fsmonitor", join(hooks, "fsmonitor")], env);
  writeFileSync(join(dir, "work.txt"), "one\n");

  expect(await s.ok(["checkpoint", "save", "--name", "hooked", "-m", "by hand"])).toContain("checkpoint 1");
  writeFileSync(join(dir, "work.txt"), "two\n");
  await s.request({ v: 1, type: "report", pane: w.pane, agent: "claude", event: "UserPromptSubmit", payload: { prompt: "a turn" } });
  await waitFor("the turn's checkpoint", async () => ((await s.v6({ type: "checkpoint_list", name: "hooked" })).checkpoints as unknown[]).length === 2);
  expect((await s.v6({ type: "checkpoint_restore", name: "hooked", n: 1, force: true })).type).toBe("checkpoint_restored");
  expect((await s.v6({ type: "ship", name: "hooked", message: "ship it", push: true })).type).not.toBe("error");
  const other = await s.v6({ type: "new_workstream", template: "default", name: "hooked-2", repo });
  expect(other.type).toBe("pane");
  expect((await s.v6({ type: "workstream_done", name: "hooked-2", force: true })).type).not.toBe("error");
  const pr = await s.v6({ type: "new_workstream", template: "default", name: "hooked-pr", repo, pr: 12 });
  expect(pr.type).toBe("pane");
  expect(calls()).toContain("pr checkout 12");
  expect((await s.v6({ type: "workstream_done", name: "hooked-pr", force: true })).type).not.toBe("error");
  const review = await s.run(["review", "12", "--no-focus"], { cwd: repo });
  expect({ code: review.code, err: review.stderr }).toEqual({ code: 0, err: "" });
  expect((await s.v6({ type: "workstream_done", name: "review-app-12", force: true })).type).not.toBe("error");
  expect((await s.v6({ type: "workstream_done", name: "hooked", force: true })).type).not.toBe("error");
  expect(existsSync(ran) ? readFileSync(ran, "utf8") : "").toBe("");
  expect(existsSync(trace)).toBe(false);

  // The hooks are live: git run plainly in the repo runs them.
  git(repo, ["update-ref", "refs/hooks-live", "HEAD"], env);
  expect(readFileSync(ran, "utf8")).toContain("reference-transaction");
  git(repo, ["update-ref", "-d", "refs/hooks-live"], env);
  git(repo, ["config", "--unset", "core.hooksPath"], env);
  git(repo, ["config", "--unset", "core.fsmonitor"], env);
}, 90_000);

// ---- a restore never destroys the only copy of a file ------------------------------------------

test("checkpoint restore skips a path ignored now (.env rewritten after it was ignored) and one under an ignored link, says so, and stays undoable", async () => {
  const w = await s.v6({ type: "new_workstream", template: "default", name: "secrets", repo });
  const dir = w.dir as string;
  writeFileSync(join(dir, ".env"), "TOKEN=old\n");
  mkdirSync(join(dir, "data"));
  writeFileSync(join(dir, "data", "x.txt"), "x\n");
  writeFileSync(join(dir, "notes.txt"), "one\n");
  expect(await s.ok(["checkpoint", "save", "--name", "secrets"])).toContain("checkpoint 1");
  // Later: .env and data are ignored (info/exclude: a .gitignore would be restored with the
  // rest); .env holds the new token; data is a link to a directory elsewhere; notes.txt changed.
  const elsewhere = join(s.root, "elsewhere");
  mkdirSync(elsewhere);
  const exclude = join(repo, ".git", "info", "exclude");
  const excluded = existsSync(exclude) ? readFileSync(exclude, "utf8") : "";
  writeFileSync(exclude, `${excluded}.env\ndata\n`);
  writeFileSync(join(dir, ".env"), "TOKEN=new\n");
  rmSync(join(dir, "data"), { recursive: true });
  symlinkSync(elsewhere, join(dir, "data"));
  writeFileSync(join(dir, "notes.txt"), "two\n");

  const r = await s.run(["checkpoint", "restore", "1", "--name", "secrets", "--force"]);
  expect({ code: r.code, err: r.stderr }).toEqual({ code: 0, err: "" });
  expect(r.stdout).toContain("skipped 2 paths");
  expect(r.stdout).toContain("  .env\n");
  expect(r.stdout).toContain("  data/x.txt");
  expect(readFileSync(join(dir, ".env"), "utf8")).toBe("TOKEN=new\n"); // the only copy, kept
  expect(readlinkSync(join(dir, "data"))).toBe(elsewhere);
  expect(readdirSync(elsewhere)).toEqual([]);
  expect(readFileSync(join(dir, "notes.txt"), "utf8")).toBe("one\n"); // the rest is restored
  const json = await s.v6({ type: "checkpoint_restore", name: "secrets", n: 1, force: true });
  expect(json).toMatchObject({ type: "checkpoint_restored", skipped: [".env", "data/x.txt"], skipped_count: 2 });

  // Undo: the state before the first restore is a checkpoint, and putting it back loses nothing.
  const saved = Number(/checkpoint (\d+) \(ws checkpoint restore/.exec(r.stdout)![1]);
  await s.ok(["checkpoint", "restore", String(saved), "--name", "secrets", "--force"]);
  expect(readFileSync(join(dir, "notes.txt"), "utf8")).toBe("two\n");
  expect(readFileSync(join(dir, ".env"), "utf8")).toBe("TOKEN=new\n");
  writeFileSync(exclude, excluded);
  expect((await s.v6({ type: "workstream_done", name: "secrets", force: true })).type).not.toBe("error");
}, 60_000);

// ---- copying into a new worktree follows no link at all -----------------------------------------

test("copy into a worktree through a directory link that stays inside it: refused by name, nothing written, no worktree", async () => {
  // origin's main tracks inlink -> real/ ; the main clone has real/secret.env (ignored) to copy.
  mkdirSync(join(repo, "real"));
  writeFileSync(join(repo, "real", "keep.txt"), "k\n");
  symlinkSync("real", join(repo, "inlink"));
  writeFileSync(join(repo, ".gitignore"), "*.log\nsecret.env\n");
  git(repo, ["add", "real/keep.txt", "inlink", ".gitignore"], env);
  git(repo, ["commit", "--quiet", "-m", "an inside link"], env);
  git(repo, ["push", "--quiet", "origin", "main"], env);
  writeFileSync(join(repo, "real", "secret.env"), "TOKEN=1\n");
  writeFileSync(join(repo, ".worktreeinclude"), "inlink/secret.env\n");
  const r = await s.v6({ type: "new_workstream", template: "default", name: "inside-link", repo });
  expect(r.code).toBe("path_escapes");
  expect(r.message).toContain(`${join(wtRoot, "inside-link", "inlink")} is a symbolic link to real`);
  expect(r.message).toContain("ws writes through no link");
  expect(existsSync(join(wtRoot, "inside-link"))).toBe(false);
  rmSync(join(repo, ".worktreeinclude"));
}, 60_000);
