// The scripting CLI as a user runs it.
import { expect, test } from "bun:test";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { useServer, waitFor } from "./harness";
import type { Replies } from "./replies";

const s = useServer();

test("workspace new / list / focus / close", async () => {
  await s.ok(["workspace", "new", "Games"]);
  const r = await s.run(["workspace", "new", "games"]);
  expect(r.code).toBe(1);
  expect(r.stderr).toContain('workspace "Games" exists');
  await s.ok(["workspace", "new", "games", "--exists-ok"]);
  const list = await s.ok(["workspace", "list"]);
  expect(list).toContain("* main");
  expect(list).toContain("  Games");
  const json: Replies["workspace_list"] = JSON.parse(await s.ok(["--json", "workspace", "list"]));
  expect(json.workspaces.map((w) => w.name)).toEqual(["main", "Games"]);
  await s.ok(["workspace", "focus", "Games"]);
  expect((await s.list()).find((w) => w.current)!.name).toBe("Games");
  await s.ok(["workspace", "focus", "main"]);
});

test("tab new prints the pane, tab list shows it, tab close removes it", async () => {
  const pane = (await s.ok(["tab", "new", "--workspace", "Games", "--name", "Build", "--cwd", "/tmp", "--", "sh", "-c", "echo built-$((2+2)); exec cat"])).trim();
  expect(pane).toMatch(/^\d+$/);
  await s.waitScreen(Number(pane), "built-4");
  expect(await s.ok(["tab", "list", "--workspace", "Games"])).toContain(`Build  panes ${pane}`);
  await s.ok(["tab", "close", "Build", "--workspace", "Games"]);
  expect(await s.ok(["tab", "list", "--workspace", "Games"])).not.toContain("Build");
});

test("split, pane send, pane read with --lines and --scrollback, pane close", async () => {
  const pane = Number((await s.ok(["split", "1", "--below", "--size", "5", "--cwd", "/tmp", "--", "sh", "-c", "while read l; do echo \"echo:$l\"; done"])).trim());
  await s.ok(["pane", "send", String(pane), "first", "--enter"]);
  await s.ok(["pane", "send", String(pane), "second", "--enter"]);
  await waitFor("both lines", async () => (await s.ok(["pane", "read", String(pane)])).includes("echo:second"));
  const last = await s.ok(["pane", "read", String(pane), "--lines", "1"]);
  expect(last.trim()).toBe("echo:second");
  for (let i = 0; i < 10; i++) await s.ok(["pane", "send", String(pane), `line${i}`, "--enter"]);
  await waitFor("line9", async () => (await s.ok(["pane", "read", String(pane)])).includes("echo:line9"));
  const visible = await s.ok(["pane", "read", String(pane)]);
  expect(visible).not.toContain("echo:first"); // a 5-row pane has scrolled it away
  expect(await s.ok(["pane", "read", String(pane), "--scrollback"])).toContain("echo:first");
  await s.ok(["pane", "close", String(pane)]);
  const r = await s.run(["pane", "read", String(pane)]);
  expect(r.code).toBe(1);
  expect(r.stderr).toContain(`no pane ${pane}`);
});

test("PANE defaults to $WS_PANE_ID", async () => {
  await s.ok(["pane", "send", "", "--enter"], { env: { WS_PANE_ID: "1" } }).catch(() => {});
  const out = await s.ok(["pane", "read"], { env: { WS_PANE_ID: "1" } });
  expect(typeof out).toBe("string");
  const r = await s.run(["pane", "read"]);
  expect(r.code).toBe(2);
  expect(r.stderr).toContain("which pane?");
});

test("errors exit non-zero with the server's message; --json prints the error reply", async () => {
  const r = await s.run(["workspace", "close", "Gmaes"]);
  expect(r.code).toBe(1);
  expect(r.stderr.trim()).toBe('ws: no workspace "Gmaes" (have: main, Games) (did you mean "Games"?)'); // one line, no stack
  const j = await s.run(["--json", "workspace", "close", "Gmaes"]);
  expect(JSON.parse(j.stdout)).toMatchObject({ type: "error", message: 'no workspace "Gmaes" (have: main, Games)' });
});

test("--help works for every command", async () => {
  for (const args of [["--help"], ["workspace", "--help"], ["workspace", "new", "--help"], ["tab", "new", "--help"], ["split", "--help"], ["pane", "read", "--help"], ["doctor", "--help"], ["kill-server", "--help"]]) {
    const r = await s.run(args);
    expect(r.code).toBe(0);
    expect(r.stdout.toLowerCase()).toContain("usage");
  }
});

test("no server: a clear message and non-zero exit", async () => {
  const r = await s.run(["-L", "nobody-here", "workspace", "list"]);
  expect(r.code).toBe(1);
  expect(r.stderr).toContain("no ws server on");
  expect(r.stderr).toContain("ws start");
});

test("an old server's version error becomes advice", async () => {
  // A stand-in for an older ws: it answers every line the way a v1..=3 server does.
  const dir = join(s.root, "old");
  mkdirSync(dir, { mode: 0o700 });
  const path = join(dir, "old.sock");
  const old = Bun.listen({
    unix: path,
    socket: {
      data(sock, bytes) {
        const m = JSON.parse(Buffer.from(bytes).toString().trim());
        sock.write(m.v > 3 ? `error: protocol version ${m.v} not supported (this ws speaks 1..=3)\n` : "ok\n");
        sock.end();
      },
    },
  });
  try {
    const r = await s.run(["workspace", "focus", "main"], { env: { WS_SOCKET: path } });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("protocol version 5 not supported");
    expect(r.stderr).toContain("ws kill-server");
    // Plain `ok` from an old server counts as success.
    expect((await s.run(["workspace", "new", "X"], { env: { WS_SOCKET: path } })).code).toBe(0);
  } finally {
    old.stop(true);
  }
});
