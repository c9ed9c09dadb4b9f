// Ids that stay: pane, tab and workspace ids survive `ws restart` and a restore
// after SIGKILL, and no id is given out twice, not even that of a pane closed before the restart.
// Real daemons, real shells, the real save file.
import { afterEach, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { TestServer, processAlive, waitFor } from "./harness";
import { decode } from "../src/features/persistence/format";

const servers: TestServer[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.stop();
}, 60_000);

const savePath = (s: TestServer) => join(s.env.XDG_STATE_HOME!, "ws", "default.session");

/** Every workspace, tab and pane id, as the v6 snapshot gives them. */
async function ids(s: TestServer): Promise<{ name: string; id: number; tabs: { id: number; panes: number[]; focused: number }[] }[]> {
  const snap = await s.v6({ id: 1, type: "session_snapshot" });
  expect(snap.type).toBe("snapshot");
  return snap.workspaces.map((w) => ({ name: w.name, id: w.id, tabs: w.tabs.map((t) => ({ id: t.id, panes: t.panes, focused: t.focused })) }));
}

const paneOf = async (s: TestServer, args: string[]): Promise<number> => Number((await s.ok(args)).trim());

/** The pane's own idea of its id ($WS_PANE_ID), typed into its shell. */
async function ownId(s: TestServer, pane: number, tag: string): Promise<string> {
  await s.request({ v: 2, type: "pane_send", pane, text: `echo ${tag}=$WS_PANE_ID`, enter: true });
  const text = await s.waitScreen(pane, new RegExp(`${tag}=\\d+`), 15_000);
  return text.match(new RegExp(`${tag}=(\\d+)`))![1]!;
}

test("pane, tab and workspace ids survive ws restart and a SIGKILL restore; closed ids are never given again", async () => {
  const s = new TestServer();
  servers.push(s);
  await s.start();
  // Panes 2-6 beside pane 1, a tab (pane 7), a workspace (pane 8) with a split (9) and a tab (10).
  for (let i = 0; i < 5; i++) await s.request({ v: 1, type: "split", pane: 1, right: i % 2 === 0, cwd: "/tmp", command: [], focus: false });
  expect(await paneOf(s, ["tab", "new"])).toBe(7);
  expect((await s.run(["workspace", "new", "second"])).code).toBe(0);
  const second = (await ids(s)).find((w) => w.name === "second")!;
  expect(second.tabs[0]!.panes).toEqual([8]);
  await s.request({ v: 1, type: "split", pane: 8, right: true, cwd: "/tmp", command: [], focus: false });
  expect(await paneOf(s, ["tab", "new", "--workspace", "second"])).toBe(10);
  // Close most of them: what stays has ids with gaps (1, 8, 9, and pane 10's tab).
  for (const p of [2, 3, 4, 5, 6, 7]) expect((await s.run(["pane", "close", String(p)])).code).toBe(0);
  const pane11 = await paneOf(s, ["tab", "new"]);
  expect(pane11).toBeGreaterThan(10);
  expect((await s.run(["pane", "close", String(pane11)])).code).toBe(0);
  const before = await ids(s);
  const livePanes = before.flatMap((w) => w.tabs.flatMap((t) => t.panes)).sort((a, b) => a - b);
  expect(livePanes.slice(0, 3)).toEqual([1, 8, 9]);
  const topPane = pane11;
  const topTab = Math.max(...before.flatMap((w) => w.tabs.map((t) => t.id)), 0);

  // ws restart: a new server process, the same ids, and each program sees its own.
  const pid = s.daemonPid()!;
  expect((await s.run(["restart"])).code).toBe(0);
  expect(s.daemonPid()).not.toBe(pid);
  expect(await ids(s)).toEqual(before);
  expect(await ownId(s, 9, "nine")).toBe("9");
  // New panes and tabs start above every id given out before, closed ones included.
  expect((await s.run(["workspace", "new", "third"])).code).toBe(0);
  expect((await ids(s)).find((w) => w.name === "third")!.id).toBe(3);
  const fresh = await paneOf(s, ["tab", "new"]);
  expect(fresh).toBe(topPane + 2);
  const withFresh = await ids(s);
  const freshTab = withFresh.flatMap((w) => w.tabs).find((t) => t.panes.includes(fresh))!;
  expect(freshTab.id).toBeGreaterThan(topTab);
  // Close the fresh pane: its id is one the next server must not give out either.
  expect((await s.run(["pane", "close", String(fresh)])).code).toBe(0);
  const beforeKill = await ids(s);
  await waitFor(
    "the background save to hold the closed pane's counter",
    () => {
      const body = decode(readFileSync(savePath(s))).body;
      return (body.next_ids?.pane ?? 0) > fresh && !body.workspaces.some((w) => w.tabs.some((t) => t.panes.some((p) => p.id === fresh)));
    },
    15_000,
  );

  // SIGKILL: the background save is restored with the same ids.
  const pid2 = s.daemonPid()!;
  process.kill(pid2, "SIGKILL");
  await waitFor("the daemon to die", () => !processAlive(pid2));
  const start = await s.run(["start"]);
  expect(start.code).toBe(0);
  expect(await ids(s)).toEqual(beforeKill);
  expect(await ownId(s, 8, "eight")).toBe("8");
  // The closed pane `fresh` was the highest id given out: the next is above it.
  expect(Math.max(...beforeKill.flatMap((w) => w.tabs.flatMap((t) => t.panes)))).toBeLessThan(fresh);
  const after = await paneOf(s, ["tab", "new"]);
  expect(after).toBe(fresh + 1);
}, 120_000);

test("a restore into a running server gives a part whose id is taken a new id", async () => {
  const s = new TestServer();
  servers.push(s);
  await s.start();
  await s.ok(["session", "save"]);
  const r = JSON.parse(await s.ok(["--json", "session", "restore"]));
  // Pane 1 is running: the restored copy of it is not pane 1.
  const restoredTo = r.panes["1"];
  expect(restoredTo).toBeGreaterThan(1);
  const all = await ids(s);
  const panes = all.flatMap((w) => w.tabs.flatMap((t) => t.panes));
  expect(new Set(panes).size).toBe(panes.length);
  const tabs = all.flatMap((w) => w.tabs.map((t) => t.id));
  expect(new Set(tabs).size).toBe(tabs.length);
  expect(panes).toContain(1);
  expect(panes).toContain(restoredTo);
}, 60_000);
