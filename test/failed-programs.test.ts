// Failed programs don't vanish (and `ws start -- make build`'s): a pane
// whose program fails within its first seconds stays, showing `[exited: status N]`, until a key or
// `ws pane close`; one that succeeds, or fails later, closes as before; `ws start -- CMD` keeps its
// pane whatever CMD's status. Real daemons, real programs in real PTYs.
import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { TestServer, waitFor } from "./harness";
import type { PaneListing } from "../src/model/views";
import type { Replies } from "./replies";

const panesOf = async (s: TestServer): Promise<PaneListing[]> => (JSON.parse(await s.ok(["--json", "pane", "list"])) as Replies["pane_list"]).panes;
const info = (s: TestServer, pane: number) => s.v6({ id: 1, type: "pane_info", pane });

describe("a running server", () => {
  let s: TestServer;
  beforeAll(async () => {
    s = new TestServer();
    await s.start();
  });
  afterAll(async () => {
    await s.stop();
  }, 30_000);

  test("a program that fails at once stays with its status until ws pane close", async () => {
    const pane = Number((await s.ok(["tab", "new", "--", "sh", "-c", "echo oops-at-start; exit 3"])).trim());
    const screen = await s.waitScreen(pane, "[exited: status 3]");
    expect(screen).toContain("oops-at-start");
    // Still there well after its exit was handled: the exit line is drawn after the exit.
    const listed = (await panesOf(s)).find((p) => p.pane === pane);
    expect(listed).toMatchObject({ exited: true, exit_code: 3 });
    expect(await info(s, pane)).toMatchObject({ exited: true, exit_code: 3, label: expect.any(String) });
    expect((await s.run(["pane", "close", String(pane)])).code).toBe(0);
    expect((await panesOf(s)).some((p) => p.pane === pane)).toBe(false);
  });

  test("the README quick start's `ws tab new --name Build -- make watch` without a Makefile stays, showing make's status", async () => {
    const dir = join(s.root, "no-makefile");
    mkdirSync(dir, { recursive: true });
    expect(existsSync(join(dir, "Makefile"))).toBe(false);
    const pane = Number((await s.ok(["tab", "new", "--name", "Build", "--", "make", "watch"], { cwd: dir })).trim());
    const screen = await s.waitScreen(pane, "[exited: status 2]");
    expect(screen).toMatch(/No rule to make target|no makefile/i);
    const tabs = (JSON.parse(await s.ok(["--json", "workspace", "list"])) as Replies["workspace_list"]).workspaces.flatMap((w) => w.tabs);
    expect(tabs.some((t) => t.name === "Build" && t.panes.includes(pane))).toBe(true);
    await s.ok(["pane", "close", String(pane)]);
  });

  test("a program killed by a signal at once stays too; one that succeeds at once closes", async () => {
    const killed = Number((await s.ok(["tab", "new", "--", "sh", "-c", "kill -SEGV $$"])).trim());
    await s.waitScreen(killed, "[exited: signal SIGSEGV]");
    const ok = Number((await s.ok(["tab", "new", "--", "sh", "-c", "echo fine; exit 0"])).trim());
    await waitFor("the succeeding pane to close", async () => !(await panesOf(s)).some((p) => p.pane === ok));
    expect(await info(s, ok)).toMatchObject({ v: 6, type: "pane_info", pane: ok, exited: true, exit_code: 0, signal: null });
    expect((await panesOf(s)).some((p) => p.pane === killed)).toBe(true);
    await s.ok(["pane", "close", String(killed)]);
  });

  test("ws pane respawn runs a held pane's program again in it", async () => {
    const flag = join(s.root, "respawn-ok");
    const pane = Number((await s.ok(["tab", "new", "--", "sh", "-c", `[ -e ${flag} ] && { echo now-running; exec cat; }; exit 5`])).trim());
    await s.waitScreen(pane, "[exited: status 5]");
    await Bun.write(flag, "");
    await s.ok(["pane", "respawn", String(pane)]);
    await s.waitScreen(pane, "now-running");
    expect(await info(s, pane)).toMatchObject({ exited: false });
    await s.ok(["pane", "close", String(pane)]);
  });
});

describe("ws start -- CMD", () => {
  const servers: TestServer[] = [];
  afterEach(async () => {
    for (const s of servers.splice(0)) await s.stop();
  }, 30_000);

  for (const [what, script, status] of [
    ["fails", "echo building; exit 2", "status 2"],
    ["succeeds", "echo building; exit 0", "status 0"],
  ] as const) {
    test(`the server stays up when CMD ${what}: the pane is kept with its status`, async () => {
      const s = new TestServer();
      servers.push(s);
      const r = await s.run(["start", "--", "sh", "-c", script]);
      expect(r.code).toBe(0);
      const pane = (await panesOf(s))[0]!.pane;
      await s.waitScreen(pane, `[exited: ${status}]`);
      // Well after the exit: the server still answers and the pane is there.
      expect(await info(s, pane)).toMatchObject({ exited: true });
      expect(existsSync(s.sock)).toBe(true);
      expect((await s.run(["tab", "new"])).code).toBe(0);
    });
  }
});
