// Sessions that survive: shutdown_keep / kill-server --keep, restore on the next start,
// background saves that survive SIGKILL, unreadable saves moved aside, ws session …, ws restart.
// Real daemons, real shells in real PTYs, the real save file.
import { afterEach, expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { TestServer, processAlive, waitFor, wsArgv } from "./harness";
import type { Replies } from "./replies";
import type { WorkspaceInfo } from "../src/model/views";
import { decode, FORMAT_VERSION, type SaveBody } from "../src/features/persistence/format";
import { panesOf, type Layout } from "../src/model/layout";

const servers: TestServer[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.stop();
}, 60_000);

function server(): TestServer {
  const s = new TestServer();
  servers.push(s);
  return s;
}

const savePath = (s: TestServer) => join(s.env.XDG_STATE_HOME!, "ws", "default.session");
const readSave = (s: TestServer) => decode(readFileSync(savePath(s)));

/** workspace_list with pane ids replaced by how many panes a tab has. */
function listShape(wss: WorkspaceInfo[]): unknown {
  return wss.map((w) => ({ ...w, tabs: w.tabs.map((t) => ({ ...t, panes: t.panes.length })) }));
}

/** A layout with pane ids replaced by their position in the tab. */
function layoutShape(l: Layout, order: number[]): unknown {
  return l.kind === "pane" ? { pane: order.indexOf(l.pane) } : { dir: l.dir, ratio: l.ratio, a: layoutShape(l.a, order), b: layoutShape(l.b, order) };
}

/** Everything a save says about layout and focus, pane ids replaced by positions. */
function saveShape(body: SaveBody): unknown {
  return {
    size: body.size,
    current: body.current,
    workspaces: body.workspaces.map((w) => ({
      name: w.name,
      active: w.active,
      tabs: w.tabs.map((t) => {
        const order = panesOf(t.layout);
        return {
          name: t.name,
          project: t.project,
          layout: layoutShape(t.layout, order),
          focused: order.indexOf(t.focused),
          zoomed: t.zoomed === undefined ? undefined : order.indexOf(t.zoomed),
          panes: t.panes.map((p) => ({ rect: p.rect, command: p.command, cwd: p.cwd, env: p.env })),
        };
      }),
    })),
  };
}

/** A command that prints its pane id and terminal size, then waits. */
const sizeProbe = (tag: string) => ["sh", "-c", `echo "i=$WS_PANE_ID;s=$(stty size);"; exec cat # ${tag}`];

/** A restored pane's text after its restored marker, rows joined (narrow panes wrap), once it matches. */
async function afterMarker(s: TestServer, pane: number, want: RegExp): Promise<string> {
  return waitFor(`pane ${pane} to show ${want} after the restored marker`, async () => {
    const text = (await s.screen(pane, true)).replace(/\n/g, "");
    const i = text.lastIndexOf("── restored (saved");
    if (i < 0) return undefined;
    const rest = text.slice(text.indexOf(") ──", i) + 4);
    return want.test(rest) ? rest : undefined;
  });
}

test("three workspaces with splits of different sizes come back after kill-server --keep", async () => {
  const s = server();
  await s.start();
  const dir = join(s.root, "proj dir");
  mkdirSync(dir);
  // main: pane 1 (a shell) | a 20-column probe, and below the probe a 5-row probe.
  const p1 = await s.request<Replies["split"]>({ v: 1, type: "split", pane: 1, right: true, cwd: "/tmp", command: sizeProbe("m1"), focus: false, size: 20 });
  const p2 = await s.request<Replies["split"]>({ v: 1, type: "split", pane: p1.pane, right: false, cwd: "/tmp", command: sizeProbe("m2"), focus: false, size: 5 });
  // alpha: two tabs, one with a name and a project, split 3 ways.
  expect((await s.request({ v: 2, type: "workspace_new", name: "alpha" })).type).toBe("ok");
  await s.ok(["project", "new", "button-a11y"]);
  const a1 = await s.request<Replies["tab_new"]>({ v: 2, type: "tab_new", workspace: "alpha", name: "Build", project: "button-a11y", cwd: dir, command: [] });
  const a2 = await s.request<Replies["split"]>({ v: 1, type: "split", pane: a1.pane, right: false, cwd: dir, command: sizeProbe("a2"), focus: false, size: 7 });
  const a3 = await s.request<Replies["split"]>({ v: 1, type: "split", pane: a2.pane, right: true, cwd: dir, command: [], focus: false, size: 30 });
  // beta: a shell with a 12-column split.
  expect((await s.request({ v: 2, type: "workspace_new", name: "beta" })).type).toBe("ok");
  const beta = (await s.list()).find((w) => w.name === "beta")!.tabs[0]!.panes[0];
  await s.request<Replies["split"]>({ v: 1, type: "split", pane: beta, right: true, cwd: "/", command: sizeProbe("b1"), focus: false, size: 12 });
  for (const p of [a1.pane, a2.pane, a3.pane, p1.pane, p2.pane]) expect(typeof p).toBe("number");

  // A shell that moved to another directory and printed something.
  await s.request({ v: 2, type: "pane_send", pane: a3.pane, text: `cd /usr && echo scroll-mark-$((40+2))`, enter: true });
  await s.waitScreen(a3.pane, "scroll-mark-42");
  // Focus: alpha's second tab (Build) active with pane a2 focused in it; beta on screen.
  expect((await s.request({ v: 5, type: "pane_focus", pane: a2.pane })).type).not.toBe("error");
  expect((await s.request({ v: 5, type: "workspace_focus", name: "beta" })).type).not.toBe("error");

  const listBefore = await s.list();
  expect(listBefore.map((w) => w.name)).toEqual(["main", "alpha", "beta"]);
  await s.ok(["session", "save"]);
  const before = readSave(s).body;
  expect((await s.run(["kill-server", "--keep"])).code).toBe(0);
  await waitFor("the server to be gone", () => !existsSync(s.sock), 20_000);
  const kept = readSave(s).body;
  expect(saveShape(kept)).toEqual(saveShape(before));
  expect(statSync(savePath(s)).mode & 0o777).toBe(0o600);

  const start = await s.run(["start"]);
  expect(start.code).toBe(0);
  expect(start.stderr).not.toContain("warning");
  const listAfter = await s.list();
  expect(listShape(listAfter)).toEqual(listShape(listBefore));
  await s.ok(["session", "save"]);
  const after = readSave(s).body;
  expect(saveShape(after)).toEqual(saveShape(before));

  // Each restarted command runs with its new id and at its cell's size.
  const newIds = after.workspaces.flatMap((w) => w.tabs.flatMap((t) => t.panes));
  const probes = newIds.filter((p) => p.command[0] === "sh");
  expect(probes.length).toBe(4);
  for (const p of probes) {
    const text = await afterMarker(s, p.id, /i=\d+;s=\d+ \d+;/);
    expect(text).toContain(`i=${p.id};s=${p.rect!.rows} ${p.rect!.cols};`);
  }
  // The shell pane: old scrollback above the marker, a fresh shell in the directory it had moved to.
  const shell = after.workspaces[1]!.tabs[1]!.panes[2]!;
  expect(shell.command).toEqual([]);
  expect(shell.cwd).toBe("/usr");
  const full = await s.screen(shell.id, true);
  expect(full).toContain("scroll-mark-42");
  expect(full.indexOf("scroll-mark-42")).toBeLessThan(full.indexOf("── restored (saved"));
  await s.request({ v: 2, type: "pane_send", pane: shell.id, text: "echo here=$(pwd) id=$WS_PANE_ID ws=$WS_WORKSPACE", enter: true });
  await afterMarker(s, shell.id, new RegExp(`here=/usr id=${shell.id} ws=alpha`));
  expect(full.match(/── restored/g)?.length).toBe(1);
}, 60_000);

test("a change survives SIGKILL of the daemon a few seconds later", async () => {
  const s = server();
  await s.start();
  await s.request({ v: 2, type: "workspace_new", name: "crashy" });
  const pane = (await s.list()).find((w) => w.name === "crashy")!.tabs[0]!.panes[0];
  const changedAt = Date.now();
  await s.request<Replies["split"]>({ v: 1, type: "split", pane, right: false, cwd: "/tmp", command: [], focus: false, size: 6 });
  // The background save must land within a few seconds of the change.
  await waitFor("the background save to hold the split", () => {
    try {
      const ws = readSave(s).body.workspaces.find((w) => w.name === "crashy");
      return ws && panesOf(ws.tabs[0]!.layout).length === 2;
    } catch {
      return false;
    }
  }, 4000);
  const savedWithin = Date.now() - changedAt;
  expect(savedWithin).toBeLessThan(4000);
  const pid = s.daemonPid()!;
  process.kill(pid, "SIGKILL");
  await waitFor("the daemon to die", () => !processAlive(pid));
  expect(existsSync(savePath(s))).toBe(true);
  // A write the crash cut short leaves a temp file; the next server clears it.
  const tmp = savePath(s) + ".tmp-4000000";
  writeFileSync(tmp, "half a save");

  const start = await s.run(["start"]);
  expect(start.code).toBe(0);
  expect(start.stderr).not.toContain("warning");
  await waitFor("the dead writer's temp file to go", () => !existsSync(tmp));
  const crashy = (await s.list()).find((w) => w.name === "crashy");
  expect(crashy!.tabs[0]!.panes.length).toBe(2);
  const body = readSave(s).body; // restoring saves again soon; wait for it if not yet
  expect(body.workspaces.map((w) => w.name)).toEqual(["main", "crashy"]);
}, 60_000);

for (const kind of ["truncated", "corrupt", "garbage", "future-version"] as const) {
  test(`a ${kind} save starts a clean server with a warning and is left aside`, async () => {
    const s = server();
    await s.start();
    await s.request({ v: 2, type: "workspace_new", name: "lost" });
    expect((await s.run(["kill-server", "--keep"])).code).toBe(0);
    const good = readFileSync(savePath(s));
    let bad: Buffer;
    if (kind === "truncated") bad = good.subarray(0, Math.floor(good.length * 0.6));
    else if (kind === "corrupt") {
      bad = Buffer.from(good);
      const i = bad.indexOf('"lost"');
      bad[i + 1] = "X".charCodeAt(0); // same length, still JSON: only the checksum can tell
    } else if (kind === "garbage") bad = Buffer.from("\x00\x01 this is not a ws session\n{{{");
    else {
      const nl = good.indexOf(10);
      const header = JSON.parse(good.subarray(0, nl).toString());
      header.version = FORMAT_VERSION + 1;
      bad = Buffer.concat([Buffer.from(JSON.stringify(header)), good.subarray(nl)]);
    }
    writeFileSync(savePath(s), bad, { mode: 0o600 });

    const start = await s.run(["start"]);
    expect(start.code).toBe(0);
    expect(start.stderr).toContain("warning");
    expect(start.stderr).toContain("could not be loaded");
    expect(start.stderr).toContain("started clean");
    if (kind === "future-version") expect(start.stderr).toContain("newer ws");
    if (kind === "truncated") expect(start.stderr).toContain("cut short");
    if (kind === "corrupt") expect(start.stderr).toContain("checksum");
    const wss = await s.list();
    expect(listShape(wss)).toEqual([{ name: "main", current: true, tabs: [{ name: "bash", panes: 1, active: true }] }]);
    const dir = join(s.env.XDG_STATE_HOME!, "ws");
    const aside = readdirSync(dir).filter((n) => /^default\.session\.unreadable-[^.]+$/.test(n));
    expect(aside.length).toBe(1);
    expect(readFileSync(join(dir, aside[0]!)).equals(bad)).toBe(true);
    expect(readFileSync(join(dir, aside[0]! + ".reason"), "utf8")).toMatch(kind === "future-version" ? /^newer:/ : kind === "truncated" ? /^truncated:/ : /^corrupt:/);
    const doctor = await s.run(["doctor"]);
    expect(doctor.code).toBe(1);
    expect(doctor.stdout).toMatch(/warn .*could not be loaded.*session discard --unreadable/);
    // Cleaning up: the aside file goes, doctor is content about saves again.
    expect((await s.run(["session", "discard", "--unreadable"])).code).toBe(0);
    expect(readdirSync(dir).filter((n) => n.includes("unreadable"))).toEqual([]);
    expect((await s.run(["doctor"])).stdout).not.toContain("could not be loaded");
  }, 60_000);
}

test("kill-server without --keep ends the session: the next start is clean", async () => {
  const s = server();
  await s.start();
  await s.request({ v: 2, type: "workspace_new", name: "gone" });
  await waitFor("a background save", () => existsSync(savePath(s)), 4000);
  expect((await s.run(["kill-server"])).code).toBe(0);
  expect(existsSync(savePath(s))).toBe(false);
  await s.start();
  expect((await s.list()).map((w) => w.name)).toEqual(["main"]);
}, 60_000);

test("a restore whose panes all exit at once keeps the save for another try", async () => {
  const s = server();
  await s.start();
  const flag = join(s.root, "broken");
  const r = await s.request<Replies["tab_new"]>({ v: 2, type: "tab_new", workspace: "main", cwd: "/tmp", command: ["sh", "-c", `[ -e ${flag} ] && { sleep 0.5; exit 0; }; exec cat`] });
  expect((await s.request({ v: 2, type: "pane_close", pane: 1 })).type).toBe("ok");
  expect((await s.list())[0]!.tabs.map((t) => t.panes)).toEqual([[r.pane]]);
  expect((await s.run(["kill-server", "--keep"])).code).toBe(0);
  await waitFor("the server to be gone", () => !existsSync(s.sock), 20_000);
  writeFileSync(flag, "");
  await s.run(["start"]);
  await waitFor("the server to quit when its only pane exits", () => !existsSync(s.sock), 20_000);
  expect(existsSync(savePath(s))).toBe(true);
  rmSync(flag);
  await s.start();
  expect(listShape(await s.list())).toEqual([{ name: "main", current: true, tabs: [{ name: "sh", panes: 1, active: true }] }]);
}, 60_000);

test("SIGTERM keeps the session, as a reboot or logout should", async () => {
  const s = server();
  await s.start();
  await s.request({ v: 2, type: "workspace_new", name: "reboot" });
  const pid = s.daemonPid()!;
  process.kill(pid, "SIGTERM");
  await waitFor("the daemon to exit", () => !processAlive(pid));
  await s.start();
  expect((await s.list()).map((w) => w.name)).toEqual(["main", "reboot"]);
}, 60_000);

test("ws session save, discard and restore; ws restart keeps the layout", async () => {
  const s = server();
  await s.start();
  await s.request({ v: 2, type: "workspace_new", name: "kept" });
  const r = JSON.parse(await s.ok(["--json", "session", "save"]));
  expect(r).toMatchObject({ type: "session_saved", path: savePath(s), workspaces: 2, tabs: 2, panes: 2 });
  expect((await s.run(["session", "info"])).stdout).toContain("2 workspaces, 2 tabs, 2 panes");

  // restore into the running server: the saved tabs join their workspaces by name.
  const restored = await s.run(["--json", "session", "restore"]);
  expect(restored.code).toBe(0);
  expect(JSON.parse(restored.stdout)).toMatchObject({ type: "session_restored", workspaces: 2, tabs: 2 });
  expect(listShape(await s.list())).toEqual([
    { name: "main", current: true, tabs: [{ name: "bash", panes: 1, active: true }, { name: "bash", panes: 1, active: false }] },
    { name: "kept", current: false, tabs: [{ name: "bash", panes: 1, active: true }, { name: "bash", panes: 1, active: false }] },
  ]);

  // restart: a new server process with the same layout.
  const pid = s.daemonPid()!;
  const restart = await s.run(["restart"]);
  expect(restart.code).toBe(0);
  expect(s.daemonPid()).not.toBe(pid);
  expect(listShape(await s.list())).toEqual([
    { name: "main", current: true, tabs: [{ name: "bash", panes: 1, active: true }, { name: "bash", panes: 1, active: false }] },
    { name: "kept", current: false, tabs: [{ name: "bash", panes: 1, active: true }, { name: "bash", panes: 1, active: false }] },
  ]);

  // discard: the file goes; with no server, the next start is clean.
  expect((await s.run(["session", "discard"])).code).toBe(0);
  expect(existsSync(savePath(s))).toBe(false);
  const pid2 = s.daemonPid()!;
  process.kill(pid2, "SIGKILL");
  await waitFor("the daemon to die", () => !processAlive(pid2));
  await s.start();
  expect((await s.list()).map((w) => w.name)).toEqual(["main"]);
}, 60_000);

test("ws restart typed in one of the server's own panes is refused (quitting is the person's); from outside it comes back with the layout", async () => {
  const s = server();
  await s.start();
  await s.request({ v: 2, type: "workspace_new", name: "inside" });
  const pid = s.daemonPid()!;
  await s.request({ v: 2, type: "pane_send", pane: 1, text: `${wsArgv().map((a) => `'${a}'`).join(" ")} restart; echo "rc=$?"`, enter: true });
  await s.waitScreen(1, /is the person's[\s\S]*rc=1/, 30_000);
  expect(s.daemonPid()).toBe(pid);
  expect(processAlive(pid)).toBe(true);
  await s.ok(["restart"]);
  await waitFor("a new server", () => {
    const now = s.daemonPid();
    return now !== undefined && now !== pid && processAlive(now);
  }, 30_000);
  await waitFor("the new server to answer with the layout", async () => (await s.list()).map((w) => w.name).join() === "main,inside", 20_000);
  expect(processAlive(pid)).toBe(false);
}, 60_000);

test("restarting right after a restore keeps every pane's whole old scrollback", async () => {
  const s = server();
  await s.start();
  const panes = [1];
  for (let i = 0; i < 2; i++) panes.push((await s.request<Replies["tab_new"]>({ v: 2, type: "tab_new", cwd: "/tmp", command: [] })).pane);
  for (const p of panes) await s.request({ v: 2, type: "pane_send", pane: p, text: "seq -f 'old line %g' 1 1500", enter: true });
  for (const p of panes) await s.waitScreen(p, /^old line 1500$/m, 30_000);
  for (let round = 0; round < 2; round++) {
    expect((await s.run(["kill-server", "--keep"])).code).toBe(0);
    await waitFor("the server to be gone", () => !existsSync(s.sock), 20_000);
    await s.start(); // and at once again: the old scrollback may still be parsing
  }
  await s.ok(["session", "save"]);
  const saved = readSave(s).body.workspaces[0]!.tabs.map((t) => t.panes[0]!.scrollback);
  expect(saved.length).toBe(3);
  for (const text of saved) {
    expect(text).toMatch(/^old line 1$/m);
    expect(text).toMatch(/^old line 1500$/m);
    expect(text.match(/── restored \(saved/g)?.length).toBe(2);
  }
}, 120_000);
