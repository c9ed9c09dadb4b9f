// Checkpoints per turn: a stand-in agent in a workstream fires UserPromptSubmit and Stop through
// the real `ws report`, and the daemon records the worktree in the workstream's shadow repository
// (ws's state dir, borrowing the repository's objects); the person's repository gets no ref, no
// reflog entry and no object. List, diff and restore (untracked files, deletions; the index, HEAD
// and the stash untouched), a restore of a restore, pruning by the template's policy, checkpoints
// of an older ws moved out of the repository, and ws done removing the shadow. Real daemon, real
// shells, real git with a bare remote.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, readlinkSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Conn, readUntil, ROOT, TestServer, waitFor, wsArgv } from "./harness";
import type { AnyReply, Replies } from "./replies";
import { git, gitEnv, makeRepo } from "./git-rig";
import { listCheckpoints, type Place, pruneCheckpoints, shadowPath } from "../src/features/workstreams/checkpoints";

const AGENT = join(ROOT, "test/fixtures/stand-in-agent.sh");
let s: TestServer;
let env: Record<string, string>;
let repo: string;

beforeAll(async () => {
  s = new TestServer();
  env = gitEnv(s.root);
  const wrapper = join(s.root, "ws-wrapper");
  writeFileSync(wrapper, `#!/bin/sh\nexec ${wsArgv().map((a) => `'${a}'`).join(" ")} "$@"\n`, { mode: 0o755 });
  Object.assign(s.env, env, { STANDIN_WS: wrapper, STANDIN_LOG: join(s.root, "prompts") });
  ({ repo } = makeRepo(s.root, env, { ".gitignore": "*.log\n", "sub/keep.txt": "keep\n", "src/a.txt": "a1\n" }));
  const templates = join(s.root, "config", "ws", "templates");
  mkdirSync(templates, { recursive: true });
  const layout = `[layout]\ntype = "pane"\ncommand = ["bash", ${JSON.stringify(AGENT)}, "SessionStart"]\n`;
  writeFileSync(join(templates, "agent.toml"), layout);
  writeFileSync(join(templates, "agent-keep2.toml"), `[checkpoints]\nkeep = 2\n\n${layout}`);
  await s.start();
}, 60_000);
afterAll(async () => {
  await s.stop();
}, 60_000);

/** A workstream whose pane is the stand-in agent, once it reports idle. */
async function workstream(name: string, template = "agent"): Promise<{ dir: string; pane: number }> {
  const r = await s.v6({ type: "new_workstream", template, name, repo });
  expect(r.type).toBe("pane");
  await waitFor("the agent to start", async () => (await s.v6({ type: "dashboard" })).agents.some((a) => a.pane === r.pane && a.status === "idle"), 20_000);
  return { dir: r.dir, pane: r.pane };
}
const list = async (name: string) => (await s.v6({ type: "checkpoint_list", name })).checkpoints as { n: number; text: string; files: number; commit: string; turn?: number; after?: boolean }[];
const fire = (pane: number, event: string) => s.v6({ type: "pane_send", pane, text: event, enter: true });
const status = async (pane: number) => (await s.v6({ type: "dashboard" })).agents.find((a) => a.pane === pane)?.status;
/** What must never change: HEAD, the branch, the index (with its staged content) and the stash. */
const untouched = (dir: string) => ({
  head: git(dir, ["rev-parse", "HEAD"], env),
  branch: git(dir, ["symbolic-ref", "HEAD"], env),
  index: git(dir, ["ls-files", "-s"], env),
  staged: git(dir, ["diff", "--cached", "--name-status"], env),
  stash: git(dir, ["stash", "list", "--format=%H %s"], env),
});
/** Where the daemon keeps a workstream's checkpoints (its state dir). */
const at = (ws: string, dir = repo): Place => ({ root: join(s.root, "state", "ws", "checkpoints"), dir, ws });
/** git in a workstream's shadow repository. */
const shadowGit = async (ws: string, args: string[], dir = repo) => git(dir, [`--git-dir=${(await shadowPath(at(ws, dir))).gitDir}`, ...args], env);
const treeOf = async (ws: string, rev: string) => (await shadowGit(ws, ["ls-tree", "-r", "--name-only", rev])).split("\n").sort();
/** What the person's git shows: every ref, every commit any ref reaches, and the object store. */
const personsView = (dir: string) => ({
  refs: git(dir, ["for-each-ref", "--format=%(refname) %(objectname)"], env),
  log: git(dir, ["log", "--all", "--oneline"], env),
  reflog: git(dir, ["reflog", "--all", "--format=%H %gs"], env),
  objects: git(dir, ["count-objects", "-v"], env),
});

test("a turn's start checkpoints the worktree (untracked too, ignored not) and changes nothing else; an unchanged tree records nothing", async () => {
  const { dir, pane } = await workstream("cp-a");
  const sub = await Conn.open(s.sock);
  try {
    sub.send({ v: 6, id: "sub", type: "subscribe", types: ["checkpoint_saved"] });
    expect((await sub.nextJson()).type).toBe("subscribed");
    // A stash, a staged file, a modified file, an untracked one and an ignored one.
    writeFileSync(join(dir, "stashed.txt"), "s\n");
    git(dir, ["stash", "push", "--include-untracked", "-m", "kept"], env);
    writeFileSync(join(dir, "staged.txt"), "staged\n");
    git(dir, ["add", "staged.txt"], env);
    writeFileSync(join(dir, "src/a.txt"), "a2\n");
    writeFileSync(join(dir, "new.txt"), "new\n");
    writeFileSync(join(dir, "debug.log"), "ignored\n");
    const before = untouched(dir);
    const seen = personsView(repo);

    await fire(pane, "UserPromptSubmit");
    const saved = (await readUntil<AnyReply & { commit: string }>(sub, (e) => e.event === "checkpoint_saved"))[0]!;
    expect(saved).toMatchObject({ event: "checkpoint_saved", workstream: "cp-a", n: 1, files: 3, text: "fix the failing test" });
    const [one] = await list("cp-a");
    expect(one).toMatchObject({ n: 1, text: "fix the failing test", files: 3, commit: saved.commit });
    const ref = "refs/checkpoints/1";
    expect(await shadowGit("cp-a", ["rev-parse", ref])).toBe(saved.commit);
    expect(await treeOf("cp-a", ref)).toEqual([".gitignore", "README.md", "new.txt", "src/a.txt", "staged.txt", "sub/keep.txt"]);
    expect(await shadowGit("cp-a", ["show", `${ref}:src/a.txt`])).toBe("a2");
    // No parent (the shadow's history is its own); HEAD is named in a trailer.
    expect(await shadowGit("cp-a", ["log", "--format=%P|%(trailers:key=Ws-Head,valueonly)", ref])).toBe(`|${before.head}`);
    expect(untouched(dir)).toEqual(before);
    // Nothing of it in the person's repository: no ref, no reflog entry, no object; what is new
    // (new.txt, the changed a.txt, the tree) is in the shadow alone.
    expect(personsView(repo)).toEqual(seen);
    const newBlob = await shadowGit("cp-a", ["rev-parse", `${ref}:new.txt`]);
    expect(Bun.spawnSync(["git", "cat-file", "-e", newBlob], { cwd: repo, env: { ...process.env, ...env } }).exitCode).not.toBe(0);
    expect(await shadowGit("cp-a", ["cat-file", "-t", newBlob])).toBe("blob");
    expect(existsSync(join(dir, "debug.log"))).toBe(true);
    expect(git(dir, ["status", "--porcelain"], env).split("\n").map((l) => l.trim()).sort()).toEqual(["?? new.txt", "A  staged.txt", "M src/a.txt"]);

    // The same tree again: nothing recorded (a save queues behind the hook's).
    await fire(pane, "Stop");
    await fire(pane, "UserPromptSubmit");
    await s.waitScreen(pane, /fired UserPromptSubmit[^]*fired Stop[^]*fired UserPromptSubmit/);
    expect(await s.v6({ type: "checkpoint_save", name: "cp-a" })).toMatchObject({ type: "checkpoint", saved: false });
    expect((await list("cp-a")).map((c) => c.n)).toEqual([1]);
  } finally {
    sub.close();
  }
}, 60_000);

test("a turn's end checkpoints too: the list reads \"after turn N: <its prompt>: K files\"", async () => {
  const { dir, pane } = await workstream("cp-turns");
  for (const k of [1, 2]) {
    // The report sets the status and queues the checkpoint; a list waits for the checkpoint.
    await fire(pane, "UserPromptSubmit");
    await waitFor(`turn ${k} to start`, async () => (await status(pane)) === "working");
    await list("cp-turns");
    writeFileSync(join(dir, `turn-${k}.txt`), `${k}\n`);
    writeFileSync(join(dir, `more-${k}.txt`), `${k}\n`);
    await fire(pane, "Stop");
    await waitFor(`turn ${k} to end`, async () => (await status(pane)) === "done");
    await list("cp-turns");
  }
  const ends = (await list("cp-turns")).filter((c) => c.after);
  expect(ends.map((c) => [c.turn, c.text, c.files])).toEqual([
    [1, "after turn 1: fix the failing test", 2],
    [2, "after turn 2: fix the failing test", 2],
  ]);
  const shown = await s.ok(["checkpoint", "list", "--name", "cp-turns"]);
  expect(shown).toContain("after turn 2: fix the failing test: 2 files");
  await s.ok(["done", "cp-turns", "--force"]);
}, 60_000);

test("ten turns leave nothing in the person's git (git log --all, refs, reflogs, objects); the list reads each turn; a restore brings turn 3's files back, untracked ones too", async () => {
  const { dir, pane } = await workstream("cp-ten");
  const seen = personsView(repo);
  const before = untouched(dir);
  for (let k = 1; k <= 10; k++) {
    await fire(pane, "UserPromptSubmit");
    await waitFor(`turn ${k} to start`, async () => (await status(pane)) === "working");
    await list("cp-ten"); // queued behind the turn's start checkpoint
    writeFileSync(join(dir, `turn-${k}.txt`), `${k}\n`); // untracked
    writeFileSync(join(dir, "src/a.txt"), `a after turn ${k}\n`); // tracked, modified
    await fire(pane, "Stop");
    await waitFor(`turn ${k} to end`, async () => (await status(pane)) === "done");
  }
  const ends = (await list("cp-ten")).filter((c) => c.after);
  expect(ends.map((c) => c.turn)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  const shown = await s.ok(["checkpoint", "list", "--name", "cp-ten"]);
  expect(shown).toContain("after turn 1: fix the failing test: 2 files");
  expect(shown).toContain("after turn 10: fix the failing test: 2 files");
  expect(personsView(repo)).toEqual(seen);
  expect(git(repo, ["log", "--all", "--oneline"], env)).not.toMatch(/fix the failing test|after turn|checkpoint/);
  expect(untouched(dir)).toEqual(before);

  const three = ends.find((c) => c.turn === 3)!;
  const r = await s.v6({ type: "checkpoint_restore", name: "cp-ten", n: three.n });
  expect(r).toMatchObject({ type: "checkpoint_restored", n: three.n, removed: 7 });
  expect(readFileSync(join(dir, "src/a.txt"), "utf8")).toBe("a after turn 3\n");
  expect([1, 2, 3].map((k) => readFileSync(join(dir, `turn-${k}.txt`), "utf8"))).toEqual(["1\n", "2\n", "3\n"]);
  expect(existsSync(join(dir, "turn-4.txt"))).toBe(false);
  expect(untouched(dir)).toEqual(before);
  expect(personsView(repo)).toEqual(seen);
  await s.ok(["done", "cp-ten", "--force"]);
}, 120_000);

test("checkpoints an older ws kept as refs in the repository move into the shadow: listed and restorable after the repository's gc, its refs gone", async () => {
  const { restoreFiles, saveCheckpointTree } = await import("../src/features/workstreams/checkpoints");
  const dir = join(s.root, "legacy");
  git(s.root, ["clone", "--quiet", repo, dir], env);
  // What the older ws did: a commit (parent HEAD) of the worktree through a temporary index, on
  // refs/ws/checkpoints/<workstream>/<n>.
  const oldCheckpoint = (n: number, text: string) => {
    const e = { ...env, GIT_INDEX_FILE: join(s.root, `legacy-index-${n}`) };
    git(dir, ["read-tree", "HEAD"], e);
    git(dir, ["add", "-A"], e);
    const tree = git(dir, ["write-tree"], e);
    const commit = git(dir, ["commit-tree", tree, "-p", "HEAD", "-m", `${text}\n\nWs-Files-Changed: 2\nWs-Turn: ${n}\n`], e);
    git(dir, ["update-ref", `refs/ws/checkpoints/old%20ws/${n}`, commit], env);
  };
  writeFileSync(join(dir, "only-here.txt"), "no commit of the branch holds this\n");
  writeFileSync(join(dir, "README.md"), "# changed\n");
  oldCheckpoint(1, "the first old prompt");
  writeFileSync(join(dir, "README.md"), "# changed again\n");
  oldCheckpoint(2, "the second old prompt");
  const onlyBlob = git(dir, ["rev-parse", "refs/ws/checkpoints/old%20ws/1:only-here.txt"], env);
  rmSync(join(dir, "only-here.txt"));
  git(dir, ["checkout", "--", "README.md"], env);

  const place = at("old ws", dir);
  expect((await listCheckpoints(place)).map((c) => [c.n, c.text, c.turn, c.files])).toEqual([
    [1, "the first old prompt", 1, 2],
    [2, "the second old prompt", 2, 2],
  ]);
  expect(git(dir, ["for-each-ref", "refs/ws/"], env)).toBe("");
  // The repository forgets what only the old refs held; the shadow has its own copy.
  git(dir, ["reflog", "expire", "--expire=now", "--all"], env);
  git(dir, ["gc", "--quiet", "--prune=now"], env);
  expect(Bun.spawnSync(["git", "cat-file", "-e", onlyBlob], { cwd: dir, env: { ...process.env, ...env } }).exitCode).not.toBe(0);
  const now = await saveCheckpointTree(place, "before restore to checkpoint 1");
  expect(now.checkpoint?.n).toBe(3);
  await restoreFiles(place, 1, now.tree);
  expect(readFileSync(join(dir, "only-here.txt"), "utf8")).toBe("no commit of the branch holds this\n");
  expect(readFileSync(join(dir, "README.md"), "utf8")).toBe("# changed\n");
}, 30_000);

test("list, diff and restore with untracked files and deletions; a restore of a restore; index, HEAD and stash untouched", async () => {
  const dir = join(s.root, "data", "ws", "worktrees", "app", "cp-a");
  const pane = (await s.v6({ type: "dashboard" })).workstreams.find((w) => w.name === "cp-a")!.pane;
  // Turn 1's work: a tracked file deleted, a new untracked one, a change.
  rmSync(join(dir, "sub/keep.txt"));
  mkdirSync(join(dir, "more"), { recursive: true });
  writeFileSync(join(dir, "more/b.txt"), "b\n");
  writeFileSync(join(dir, "src/a.txt"), "a3\n");
  const before = untouched(dir);
  const cli = await s.run(["checkpoint", "save", "--name", "cp-a", "-m", "second\nmore text"]);
  expect(cli).toMatchObject({ code: 0, stdout: "checkpoint 2 (3 files changed)\n" });
  expect(await treeOf("cp-a", "refs/checkpoints/2")).not.toContain("sub/keep.txt");

  const listed = await s.run(["checkpoint", "list", "--name", "cp-a"]);
  expect(listed.code).toBe(0);
  expect(listed.stdout).toMatch(/^ {3}1 {2}\d{4}-\d\d-\d\d \d\d:\d\d:\d\d {5}3 files {2}fix the failing test\n {3}2 .* {5}3 files {2}second\n$/);
  const json: Replies["checkpoint_list"] = JSON.parse((await s.run(["--json", "checkpoint", "list", "--name", "cp-a"])).stdout);
  expect(json.checkpoints.map((c) => [c.n, c.text])).toEqual([[1, "fix the failing test"], [2, "second"]]);

  const d12 = await s.ok(["checkpoint", "diff", "1", "2", "--name", "cp-a"]);
  expect(d12).toContain("deleted file mode 100644\n");
  expect(d12).toContain("--- a/sub/keep.txt");
  expect(d12).toContain("+++ b/more/b.txt");
  expect(d12).toContain("-a2\n+a3");
  // Against the worktree now (from a pane in the workstream: no name needed).
  writeFileSync(join(dir, "src/a.txt"), "a4\n");
  const d2 = await s.ok(["checkpoint", "diff", "2"], { env: { WS_PANE_ID: String(pane) } });
  expect(d2).toContain("-a3\n+a4");
  expect(d2).not.toContain("keep.txt");
  expect((await s.v6({ type: "checkpoint_diff", name: "cp-a", from: 9 })).code).toBe("checkpoint_not_found");

  // The agent mid-turn: refused unless forced.
  await fire(pane, "UserPromptSubmit");
  await waitFor("the agent to work", async () => (await status(pane)) === "working");
  await waitFor("the turn's checkpoint", async () => (await list("cp-a")).length === 3);
  const refused = await s.run(["checkpoint", "restore", "1", "--name", "cp-a"]);
  expect(refused.code).toBe(1);
  expect(refused.stderr).toContain("is working");
  expect((await s.v6({ type: "checkpoint_restore", name: "cp-a", n: 1 })).code).toBe("agent_working");
  await fire(pane, "Stop");
  await waitFor("the agent to be done", async () => (await status(pane)) === "done");
  await list("cp-a"); // after the turn's end checkpoint (the same tree: nothing recorded)

  writeFileSync(join(dir, "more/c.txt"), "c\n"); // after checkpoint 3: only the restore's own checkpoint holds it
  const r = await s.v6({ type: "checkpoint_restore", name: "cp-a", n: 1 });
  expect(r).toMatchObject({ type: "checkpoint_restored", n: 1, saved: 4 });
  expect(readFileSync(join(dir, "sub/keep.txt"), "utf8")).toBe("keep\n");
  expect(readFileSync(join(dir, "src/a.txt"), "utf8")).toBe("a2\n");
  expect(existsSync(join(dir, "more"))).toBe(false); // its files gone, and the directory with them
  expect(readFileSync(join(dir, "new.txt"), "utf8")).toBe("new\n");
  expect(existsSync(join(dir, "debug.log"))).toBe(true); // ignored: not ws's to touch
  expect(untouched(dir)).toEqual(before);
  expect(await s.ok(["checkpoint", "diff", "1", "--name", "cp-a"])).toBe(""); // the worktree is checkpoint 1

  // Undo the restore: back to what checkpoint 4 saved.
  const undo = await s.ok(["checkpoint", "restore", "4", "--name", "cp-a"]);
  expect(undo).toContain("restored checkpoint 4");
  expect(readFileSync(join(dir, "more/c.txt"), "utf8")).toBe("c\n");
  expect(readFileSync(join(dir, "src/a.txt"), "utf8")).toBe("a4\n");
  expect(existsSync(join(dir, "sub/keep.txt"))).toBe(false);
  expect(untouched(dir)).toEqual(before);
  expect((await list("cp-a")).map((c) => c.n)).toEqual([1, 2, 3, 4, 5]);
}, 60_000);

test("the template's keep prunes old checkpoints; age prunes all but the newest; ws done removes the shadow", async () => {
  const { dir } = await workstream("cp-b", "agent-keep2");
  for (const i of [1, 2, 3, 4]) {
    writeFileSync(join(dir, "f.txt"), `${i}\n`);
    expect(await s.v6({ type: "checkpoint_save", name: "cp-b", message: `save ${i}` })).toMatchObject({ saved: true, n: i });
  }
  expect((await list("cp-b")).map((c) => [c.n, c.text])).toEqual([[3, "save 3"], [4, "save 4"]]);
  expect((await shadowGit("cp-b", ["for-each-ref", "--format=%(refname)"])).split("\n")).toEqual(["refs/checkpoints/3", "refs/checkpoints/4"]);
  // A month on, with a 14-day age: only the newest stays.
  expect(await pruneCheckpoints(at("cp-b", dir), { keep: 50, max_age_days: 14 }, Date.now() + 30 * 86400_000)).toEqual([3]);
  expect((await listCheckpoints(at("cp-b", dir))).map((c) => c.n)).toEqual([4]);

  const shadows = [(await shadowPath(at("cp-b"))).gitDir, (await shadowPath(at("cp-a"))).gitDir];
  expect(shadows.every((d) => existsSync(d))).toBe(true);
  await s.ok(["done", "cp-b", "--force"]);
  await s.ok(["done", "cp-a", "--force"]);
  expect(shadows.some((d) => existsSync(d))).toBe(false);
  expect(git(repo, ["for-each-ref", "refs/ws/"], env)).toBe("");
}, 60_000);

test("the template's keep still holds after ws restart: the save keeps the workstream's policy", async () => {
  const { dir } = await workstream("cp-r", "agent-keep2");
  for (const i of [1, 2]) {
    writeFileSync(join(dir, "f.txt"), `${i}\n`);
    expect(await s.v6({ type: "checkpoint_save", name: "cp-r", message: `save ${i}` })).toMatchObject({ saved: true, n: i });
  }
  const pid = s.daemonPid();
  expect((await s.run(["restart"])).code).toBe(0);
  expect(s.daemonPid()).not.toBe(pid);
  // The template now says otherwise: the workstream keeps the policy it was made with.
  const templates = join(s.root, "config", "ws", "templates");
  writeFileSync(join(templates, "agent-keep2.toml"), readFileSync(join(templates, "agent.toml"), "utf8"));
  for (const i of [3, 4, 5]) {
    writeFileSync(join(dir, "f.txt"), `${i}\n`);
    expect(await s.v6({ type: "checkpoint_save", name: "cp-r", message: `save ${i}` })).toMatchObject({ saved: true, n: i });
  }
  expect((await list("cp-r")).map((c) => [c.n, c.text])).toEqual([[4, "save 4"], [5, "save 5"]]);
  expect((await shadowGit("cp-r", ["for-each-ref", "--format=%(refname)"])).split("\n")).toEqual(["refs/checkpoints/4", "refs/checkpoints/5"]);
  await s.ok(["done", "cp-r", "--force"]);
  expect(existsSync((await shadowPath(at("cp-r"))).gitDir)).toBe(false);
}, 90_000);

test("bad templates' [checkpoints] are refused naming the line", async () => {
  const templates = join(s.root, "config", "ws", "templates");
  writeFileSync(join(templates, "bad.toml"), `[checkpoints]\nkeep = 0\n`);
  const r = await s.v6({ type: "new_workstream", template: "bad", name: "cp-bad", repo });
  expect(r).toMatchObject({ type: "error", code: "template_invalid" });
  expect(r.message).toContain("bad.toml:2: checkpoints.keep must be a whole number");
}, 30_000);

test("any workstream name (a space, a colon, .lock) gets its own shadow, and the repository no ref", async () => {
  const { saveCheckpoint } = await import("../src/features/workstreams/checkpoints");
  const scratch = join(s.root, "scratch");
  git(s.root, ["clone", "--quiet", repo, scratch], env);
  writeFileSync(join(scratch, "x.txt"), "x\n");
  for (const name of ["my task: v2.lock", "my task: v2"]) {
    expect(await saveCheckpoint(at(name, scratch), `for ${name}`)).toMatchObject({ n: 1 });
    expect((await listCheckpoints(at(name, scratch))).map((c) => c.text)).toEqual([`for ${name}`]);
  }
  expect((await shadowPath(at("my task: v2.lock", scratch))).gitDir).not.toBe((await shadowPath(at("my task: v2", scratch))).gitDir);
  expect(git(scratch, ["for-each-ref", "refs/ws/"], env)).toBe("");
}, 30_000);

test("restore swaps a file and a directory of the same name, both ways, and a symlink stays a symlink", async () => {
  const { saveCheckpointTree, restoreFiles } = await import("../src/features/workstreams/checkpoints");
  const dir = join(s.root, "swap");
  git(s.root, ["clone", "--quiet", repo, dir], env);
  writeFileSync(join(dir, "x"), "a file\n");
  symlinkSync("README.md", join(dir, "link"));
  expect((await saveCheckpointTree(at("swap", dir), "x is a file")).checkpoint?.n).toBe(1);
  rmSync(join(dir, "x"));
  rmSync(join(dir, "link"));
  mkdirSync(join(dir, "x/y"), { recursive: true });
  writeFileSync(join(dir, "x/y/z.txt"), "deep\n");
  writeFileSync(join(dir, "link"), "now a file\n");
  const two = await saveCheckpointTree(at("swap", dir), "x is a directory");
  expect(two.checkpoint?.n).toBe(2);

  await restoreFiles(at("swap", dir), 1, two.tree);
  expect(readFileSync(join(dir, "x"), "utf8")).toBe("a file\n");
  expect(readlinkSync(join(dir, "link"))).toBe("README.md");
  const back = await saveCheckpointTree(at("swap", dir), "after");
  expect(back.checkpoint?.n).toBe(3); // differs from the last (2), so recorded: it is checkpoint 1's tree
  expect(back.tree).toBe(await shadowGit("swap", ["rev-parse", "refs/checkpoints/1^{tree}"], dir));

  await restoreFiles(at("swap", dir), 2, back.tree);
  expect(readFileSync(join(dir, "x/y/z.txt"), "utf8")).toBe("deep\n");
  expect(readFileSync(join(dir, "link"), "utf8")).toBe("now a file\n");
}, 30_000);

test("ws review note queues the note for the workstream's agent as its next prompt", async () => {
  const { dir, pane } = await workstream("cp-note");
  const log = join(s.root, `prompts.${pane}`);
  // Found from the worktree's directory; the agent is idle, so the queue types it at once.
  const r = await s.run(["review", "note", "rename the helper"], { cwd: dir });
  expect(r.stderr).toBe("");
  expect(r.code).toBe(0);
  await waitFor("the note to reach the agent", () => existsSync(log) && readFileSync(log, "utf8").includes("rename the helper\n"));
  // Mid-turn, it waits in the queue for the agent's next wait for input.
  await fire(pane, "UserPromptSubmit");
  await waitFor("the agent to work", async () => (await status(pane)) === "working");
  const queued = await s.run(["review", "note", "and add a test", "--name", "cp-note"]);
  expect(queued.stdout).toContain("queued for the agent of cp-note");
  expect(readFileSync(log, "utf8")).not.toContain("and add a test");
  await fire(pane, "Stop");
  await waitFor("the queued note to be typed", () => readFileSync(log, "utf8").includes("and add a test\n"), 20_000);
  await s.ok(["done", "cp-note", "--force"]);
}, 60_000);
