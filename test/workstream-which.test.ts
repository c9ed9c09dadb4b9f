// One rule for "which workstream" (features/workstreams/which.ts): ws checkpoint, done, fan, ship
// and open take the name given, else $WS_WORKSTREAM, else the directory they run in (walking up to
// a worktree ws made), else $WS_PANE_ID's tab. Real daemon, real git, real worktrees.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { TestServer, waitFor } from "./harness";
import { git, gitServer } from "./git-rig";

let s: TestServer;
let env: Record<string, string>;
let repo: string;
let wtRoot: string;

beforeAll(async () => {
  ({ s, env, repo, wtRoot } = gitServer());
  await s.start();
  // A tab besides the workstreams', so ws done never closes the last one.
  await s.ok(["new", "default", "which-a"], { cwd: repo });
  await s.ok(["new", "default", "which-b"], { cwd: repo });
}, 60_000);
afterAll(async () => {
  await s.stop();
}, 60_000);

test("ws checkpoint finds the workstream from the directory, walking up from a subdirectory", async () => {
  const sub = join(wtRoot, "which-a", "deep", "er");
  mkdirSync(sub, { recursive: true });
  writeFileSync(join(sub, "f.txt"), "x\n");
  const saved = await s.run(["--json", "checkpoint", "save", "-m", "from the directory"], { cwd: sub });
  expect(saved.stderr).toBe("");
  expect(JSON.parse(saved.stdout).saved).toBe(true);
  const list = JSON.parse(await s.ok(["--json", "checkpoint", "list"], { cwd: sub }));
  expect(list.workstream).toBe("which-a");
  expect(list.checkpoints.map((c: { text: string }) => c.text)).toContain("from the directory");
  // $WS_WORKSTREAM comes before the directory; a name given comes before both.
  expect(JSON.parse(await s.ok(["--json", "checkpoint", "list"], { cwd: sub, env: { WS_WORKSTREAM: "which-b" } })).workstream).toBe("which-b");
  expect(JSON.parse(await s.ok(["--json", "checkpoint", "list", "--name", "which-b"], { cwd: sub })).workstream).toBe("which-b");
  // Outside any worktree, with nothing set: it asks.
  const none = await s.run(["checkpoint", "list"], { cwd: repo });
  expect(none.code).not.toBe(0);
  expect(none.stderr).toContain("which workstream?");
}, 30_000);

test("ws ship takes $WS_WORKSTREAM's worktree even when run elsewhere", async () => {
  const dir = join(wtRoot, "which-b");
  writeFileSync(join(dir, "shipped.txt"), "y\n");
  const r = JSON.parse(await s.ok(["--json", "ship", "-m", "ship it"], { cwd: repo, env: { WS_WORKSTREAM: "which-b" } }));
  expect(r.branch).toBe("which-b");
  expect(git(dir, ["log", "-1", "--format=%s"], env)).toBe("ship it");
  expect(git(repo, ["log", "-1", "--format=%s", "main"], env)).toBe("first");
  const bad = await s.run(["ship", "-m", "x"], { cwd: repo, env: { WS_WORKSTREAM: "no-such" } });
  expect(bad.code).toBe(1);
  expect(bad.stderr).toContain('no workstream "no-such"');
}, 30_000);

test("ws diff: a workstream's committed, uncommitted and untracked work against its base", async () => {
  const dir = join(wtRoot, "which-b");
  writeFileSync(join(dir, "README.md"), "# app\nchanged, not committed\n");
  writeFileSync(join(dir, "untracked.txt"), "never added\n");
  const out = await s.ok(["diff", "which-b"], { cwd: repo });
  expect(out).toContain("+++ b/shipped.txt"); // committed by ws ship
  expect(out).toContain("+changed, not committed");
  expect(out).toContain("+++ b/untracked.txt");
  expect(out).toContain("+never added");
  // From the worktree, no name needed; --json counts as ws fan status does; the index is untouched.
  const json = JSON.parse(await s.ok(["--json", "diff"], { cwd: dir }));
  expect([...json.paths].sort()).toEqual(["README.md", "shipped.txt", "untracked.txt"]);
  expect(json.files).toBe(3);
  expect(git(dir, ["status", "--porcelain"], env).split("\n").sort()).toEqual(["?? untracked.txt", "M README.md"]);
}, 30_000);

test("ws open shows the file in the Neovim of the workstream whose worktree this runs in", async () => {
  const dir = join(wtRoot, "which-a");
  writeFileSync(join(dir, "open-me.txt"), "opened here\n");
  const pane = Number((await s.ok(["open", "open-me.txt:1"], { cwd: dir })).trim().replace(/^pane /, ""));
  const row = ((await s.call({ type: "dashboard" })).workstreams as { name: string; pane: number }[]).find((w) => w.name === "which-a")!;
  expect((await s.call({ type: "pane_info", pane })).tab).toBe((await s.call({ type: "pane_info", pane: row.pane })).tab);
  await s.waitScreen(pane, "opened here");
}, 30_000);

test("ws done finishes the workstream the directory is in", async () => {
  const dir = join(wtRoot, "which-a");
  const r = await s.run(["done", "--force"], { cwd: join(dir, "deep") });
  expect(r.stderr).toBe("");
  expect(r.code).toBe(0);
  await waitFor("the worktree to go", () => !existsSync(dir));
  const names = ((await s.call({ type: "dashboard" })).workstreams as { name: string }[]).map((w) => w.name);
  expect(names).not.toContain("which-a");
}, 30_000);
