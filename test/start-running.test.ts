// `ws start` on a server that already runs starts nothing and says so (exit 0: a script may start
// it to be sure), where it said nothing at all; after a crash it says what it restored and what runs
// again; `--fresh` starts without restoring; bare `ws` with no terminal starts nothing.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { TestServer, processAlive, waitFor } from "./harness";

let s: TestServer;
beforeAll(async () => {
  s = await new TestServer().start();
});
afterAll(() => s.stop());

test("ws start on a running server says so; --json says started: false", async () => {
  const pid = s.daemonPid();
  const r = await s.run(["start"]);
  expect(r).toEqual({ code: 0, stdout: "", stderr: `ws: a ws server already runs on ${s.sock}; nothing started\n` });
  expect(JSON.parse((await s.run(["--json", "start"])).stdout)).toMatchObject({ type: "ok", started: false });
  expect(s.daemonPid()).toBe(pid);
}, 60_000);

test("ws start after a crash says what it restored and which panes run again; --fresh restores nothing", async () => {
  const c = await new TestServer({ name: "crashed" }).start();
  try {
    const build = Number((await c.ok(["tab", "new", "--name", "build", "--cwd", "/tmp", "--", "sh", "-c", "echo building; exec cat"])).trim());
    await c.waitScreen(build, "building");
    await c.ok(["session", "save"]);
    const pid = c.daemonPid()!;
    process.kill(pid, "SIGKILL");
    await waitFor("the server to die", () => !processAlive(pid));
    const r = await c.run(["start"]);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/^ws: restored 1 of 1 workspaces, 2 tabs, 2 panes from .*crashed\.session/);
    expect(r.stderr).toMatch(/ws: {3}pane \d+ \(main \/ build\) runs again: sh -c echo building; exec cat\n/);
    // Running already: --fresh is refused, nothing changes.
    expect(await c.run(["start", "--fresh"])).toMatchObject({ code: 1, stderr: expect.stringContaining("--fresh starts a new one only when none runs") });
    await c.ok(["kill-server", "--keep"]);
    const fresh = JSON.parse(await c.ok(["--json", "start", "--fresh"]));
    expect(fresh).toMatchObject({ v: 6, type: "ok", started: true, restored: null, runs_again: [] });
    expect((await c.v6({ type: "workspace_list" })).workspaces.flatMap((w) => w.tabs.map((t) => t.name))).not.toContain("build");
  } finally {
    await c.stop();
  }
}, 120_000);

test("bare ws with no terminal refuses before it starts a server", async () => {
  const bare = await s.run(["-L", "never-started"]);
  expect(bare.code).toBe(1);
  expect(bare.stderr).toContain("needs a terminal to attach");
  expect(bare.stderr).toContain("nothing was started");
  expect(existsSync(`${s.socketDir}/never-started.sock`)).toBe(false);
  expect((await s.run(["-L", "never-started", "pane", "list"])).code).toBe(1);
});
