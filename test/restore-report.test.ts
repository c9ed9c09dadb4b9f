// A restore says what it left out where the person sees it, keeps the original save until they
// discard it, reports true counts, and `ws start` waits for a restore that is making progress.
// Hand-made saves, the real daemon, real panes.
import { afterEach, expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { TestServer, waitFor } from "./harness";
import { decode, encode, type SaveBody } from "../src/features/persistence/format";
import type { Layout } from "../src/model/layout";
import type { WorkspaceInfo } from "../src/model/views";

const servers: TestServer[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.stop();
}, 120_000);

const meta = { ws: "test", server: "default" };

/** A tab of `n` panes side by side (a chain of splits), each running `cat`. */
function tab(n: number, scrollback = "", first = 1) {
  const ids = Array.from({ length: n }, (_, i) => first + i);
  const chain = (i: number): Layout =>
    i === ids.length - 1 ? { kind: "pane", pane: ids[i]! } : { kind: "split", dir: i % 2 ? "below" : "right", ratio: 0.5, a: { kind: "pane", pane: ids[i]! }, b: chain(i + 1) };
  return { layout: chain(0), focused: ids[0]!, panes: ids.map((id) => ({ id, command: ["cat"], argv: ["cat"], cwd: "/tmp", env: {}, scrollback })) };
}

function withSave(body: unknown, env: Record<string, string> = {}): { s: TestServer; dir: string; file: string } {
  const s = new TestServer({ env });
  servers.push(s);
  const dir = join(s.env.XDG_STATE_HOME!, "ws");
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const file = join(dir, "default.session");
  writeFileSync(file, encode(body as SaveBody, meta), { mode: 0o600 });
  return { s, dir, file };
}

const serverLog = (s: TestServer) => readFileSync(join(s.env.XDG_STATE_HOME!, "ws", "default.log"), "utf8");
const paneIds = (wss: WorkspaceInfo[]): number[] => wss.flatMap((w) => w.tabs.flatMap((t) => t.panes));

test("saved scrollback is replayed as text: an OSC title in it renames nothing and shows visibly", async () => {
  const body = { size: { cols: 100, rows: 30 }, current: 0, workspaces: [{ name: "main", active: 0, tabs: [tab(1, "before\x1b]0;evil\x07after\nsecond \x1b[2J\x9b2Jline")] }] };
  const { s } = withSave(body);
  const started = await s.run(["start"]);
  expect(started.code).toBe(0);
  const [pane] = paneIds(await s.list());
  // The text arrives (the marker follows it), with its control characters shown, not run.
  const text = await waitFor("the restored history and its marker", async () => {
    const r = await s.v6({ type: "pane_read", pane: pane!, source: "recent" });
    if (r.type === "error") throw new Error(r.message);
    return r.text.includes("── restored") ? r.text : undefined;
  });
  expect(text).toContain("before^[]0;evil^Gafter");
  expect(text).toContain("second ^[[2J<U+009B>2Jline");
  const wss = await s.list();
  expect(JSON.stringify(wss)).not.toContain("evil");
  const info = await s.v6({ type: "pane_info", pane });
  expect(info.title ?? "").not.toContain("evil");
}, 60_000);

test("a restore past the pane limit: what was left out is on ws start's stderr, counts are true, the original save is kept until discarded", async () => {
  // 12 workspaces of 6 panes under a 40-pane limit (the audit's 12 x 60 under 512, scaled down):
  // the first 6 fit, the other 6 can't.
  const body = { size: { cols: 200, rows: 60 }, current: 0, workspaces: Array.from({ length: 12 }, (_, i) => ({ name: `w${i + 1}`, active: 0, tabs: [tab(6)] })) };
  const { s, dir, file } = withSave(body, { WS_MAX_PANES: "40" });
  const started = await s.run(["start"]);
  expect(started.code).toBe(0);
  for (let i = 7; i <= 12; i++) expect(started.stderr).toContain(`workspace "w${i}" left out: ws runs at most 40 panes at once`);
  expect(started.stderr).toMatch(/restored in part \(6 of 12 workspaces, 6 parts left out\); the original save is kept at \S+\.partial-\S+ \(ws session discard --unreadable deletes it\)/);
  expect(serverLog(s)).toMatch(/restored 6 of 12 workspaces, 6 tabs, 36 panes/);
  const wss = await s.list();
  expect(wss.map((w) => w.name)).toEqual(["w1", "w2", "w3", "w4", "w5", "w6"]);
  expect(paneIds(wss).length).toBe(36);

  const kept = readdirSync(dir).filter((n) => /^default\.session\.partial-[^.]+$/.test(n));
  expect(kept.length).toBe(1);
  const keptPath = join(dir, kept[0]!);
  expect(readFileSync(`${keptPath}.reason`, "utf8")).toContain('workspace "w12" left out');
  // The next save writes what runs; the original stays beside it, whole.
  await s.ok(["session", "save"]);
  expect(decode(readFileSync(file)).body.workspaces.length).toBe(6);
  expect(decode(readFileSync(keptPath)).body.workspaces.length).toBe(12);
  const doctor = await s.run(["doctor"]);
  expect(doctor.stdout).toContain(`was restored in part`);
  expect(doctor.stdout).toContain(keptPath);
  await s.ok(["session", "discard", "--unreadable"]);
  expect(existsSync(keptPath)).toBe(false);
  expect(existsSync(`${keptPath}.reason`)).toBe(false);
  expect(existsSync(file)).toBe(true);
}, 120_000);

test("ws session restore into a running server reports true counts and what it left out", async () => {
  const body = { size: { cols: 200, rows: 60 }, current: 0, workspaces: Array.from({ length: 4 }, (_, i) => ({ name: `r${i + 1}`, active: 0, tabs: [tab(3, "", 3 * i + 1)] })) };
  const s = new TestServer({ env: { WS_MAX_PANES: "8" } });
  servers.push(s);
  const file = join(s.env.XDG_STATE_HOME!, "ws", "default.session");
  // A server running one silent pane (no output: no periodic save), whose first save has landed;
  // then the save to restore takes its place. 1 + 2 x 3 panes fit in 8.
  await s.ok(["start", "--", "cat"]);
  await waitFor("the first save", () => existsSync(file));
  writeFileSync(file, encode(body, meta), { mode: 0o600 });
  const r = await s.run(["session", "restore"]);
  expect(r.code).toBe(0);
  expect(r.stdout).toMatch(/restored 2 of 4 workspaces, 2 tabs, 6 panes/);
  expect(r.stderr).toContain('workspace "r3" left out: ws runs at most 8 panes at once');
  expect(r.stderr).toContain('workspace "r4" left out');
  expect(r.stderr).toMatch(/the original save is kept at \S+\.partial-/);
  const json = await s.v6({ type: "session_restore" });
  expect(json).toMatchObject({ type: "session_restored", workspaces: 0, saved: 4, tabs: 0 });
  expect(json.skipped.length).toBe(4);
  expect((await s.list()).length).toBe(3);
}, 120_000);

test("600 one-pane workspaces: ws start waits for the restore, which restores what the pane limit allows and says so", async () => {
  const body = { size: { cols: 80, rows: 24 }, current: 0, workspaces: Array.from({ length: 600 }, (_, i) => ({ name: `one${i + 1}`, active: 0, tabs: [tab(1)] })) };
  const { s } = withSave(body);
  const t0 = Date.now();
  const started = await s.run(["start"]);
  const ms = Date.now() - t0;
  console.log(`ws start with 600 one-pane workspaces: ${ms} ms`);
  expect(started.stderr).not.toContain("did not start");
  expect(started.code).toBe(0);
  expect(started.stderr).toMatch(/restored in part \(512 of 600 workspaces, 88 parts left out\)/);
  expect(started.stderr).toContain("78 more parts left out");
  expect(serverLog(s)).toMatch(/restored 512 of 600 workspaces, 512 tabs, 512 panes/);
  expect((await s.list()).length).toBe(512);
}, 300_000);

test("one workspace of 300 panes: ws start waits while the restore starts them, pane by pane", async () => {
  // 6 tabs of 50 panes; ws start gives a server that shows no progress 5 s here (10 s normally).
  const body = { size: { cols: 400, rows: 200 }, current: 0, workspaces: [{ name: "big", active: 0, tabs: Array.from({ length: 6 }, (_, t) => tab(50, "", t * 50 + 1)) }] };
  const { s } = withSave(body, { WS_START_WAIT_MS: "5000" });
  const started = await s.run(["start"]);
  expect(started.stderr).not.toContain("did not start");
  expect(started.code).toBe(0);
  const log = serverLog(s);
  console.log(log.match(/restored .* in \d+ ms/)?.[0]);
  expect(log).toMatch(/restored 1 of 1 workspaces, 6 tabs, 300 panes/);
  expect(paneIds(await s.list()).length).toBe(300);
}, 300_000);
