// Workstreams outlive the server: each is a record in ws's state dir, so after kill -9 or
// kill-server a new server lists it (stranded when its tab is gone), ws done finishes it and the
// name is free again. Real daemon, real git, real worktrees, a real SIGKILL.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { processAlive, TestServer, waitFor } from "./harness";
import { gitServer } from "./git-rig";

let s: TestServer;
let repo: string;
let wtRoot: string;
let records: string;

interface Row {
  name: string;
  state: string;
  dir: string;
  branch: string;
  worktree: boolean;
}
const list = async (): Promise<Row[]> => JSON.parse(await s.ok(["--json", "workstream", "list"])).workstreams;

beforeAll(async () => {
  ({ s, repo, wtRoot } = gitServer());
  records = join(s.root, "state", "ws", "workstreams");
  await s.start();
}, 60_000);
afterAll(async () => {
  await s.stop();
}, 60_000);

test("kill -9 with two workstreams open: a new server lists both, ws done finishes one, ws new takes its name again", async () => {
  await s.ok(["new", "default", "rec-a"], { cwd: repo });
  await s.ok(["new", "default", "rec-b"], { cwd: repo });
  expect((await list()).map((w) => [w.name, w.state])).toEqual([
    ["rec-a", "open"],
    ["rec-b", "open"],
  ]);
  const rec = JSON.parse(readFileSync(join(records, "rec-a.json"), "utf8"));
  expect(rec).toMatchObject({ name: "rec-a", repo, dir: join(wtRoot, "rec-a"), branch: "rec-a" });

  const pid = s.daemonPid()!;
  process.kill(pid, "SIGKILL");
  await waitFor("the daemon to die", () => !processAlive(pid));
  await s.start();
  const after = await list();
  expect(after.map((w) => w.name)).toEqual(["rec-a", "rec-b"]);
  for (const w of after) expect(w.worktree).toBe(true);

  // A name held by a workstream is refused until ws done finishes it.
  const taken = await s.run(["new", "default", "rec-a"], { cwd: repo });
  expect(taken.code).toBe(1);
  expect(taken.stderr).toContain('there is a workstream "rec-a" already');
  await s.ok(["done", "rec-a"]);
  expect(existsSync(join(wtRoot, "rec-a"))).toBe(false);
  expect(existsSync(join(records, "rec-a.json"))).toBe(false);
  expect((await list()).map((w) => w.name)).toEqual(["rec-b"]);
  await s.ok(["new", "default", "rec-a", "--branch", "rec-a"], { cwd: repo });
  expect((await list()).map((w) => w.name)).toEqual(["rec-a", "rec-b"]);
}, 60_000);

test("kill-server warns of open workstreams; the next server lists them stranded and ws done finishes one", async () => {
  // rec-b has its tab again only if the save before the kill -9 held it; either way it is listed.
  const open = (await list()).filter((w) => w.state === "open").map((w) => w.name);
  expect(open).toContain("rec-a");
  const r = await s.run(["kill-server"]);
  expect(r.code).toBe(0);
  expect(r.stderr).toContain(`${open.length} workstream${open.length === 1 ? " is" : "s are"} open (${open.join(", ")})`);
  expect(r.stderr).toContain("ws workstream list");
  await s.start();
  const rows = await list();
  expect(rows.map((w) => [w.name, w.state])).toEqual([
    ["rec-a", "stranded"],
    ["rec-b", "stranded"],
  ]);
  expect(await s.ok(["workstream", "list"])).toContain("ws done NAME finishes it");
  await s.ok(["done", "rec-b"]);
  expect(existsSync(join(wtRoot, "rec-b"))).toBe(false);
  expect((await list()).map((w) => w.name)).toEqual(["rec-a"]);
  // Nothing open now: kill-server says nothing of workstreams.
  const quiet = await s.run(["kill-server"]);
  expect(quiet.stderr).not.toContain("workstream");
  await s.start();
}, 60_000);
