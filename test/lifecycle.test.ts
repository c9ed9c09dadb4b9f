// Starting and stopping: every pane's process group ends and the socket goes.
import { afterEach, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { TestServer, processAlive as alive, waitFor, wsArgv } from "./harness";
import type { Replies } from "./replies";

const servers: TestServer[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.stop();
});

/** Start a pane running a process group with a grandchild, and learn both pids. */
async function groupInPane(s: TestServer): Promise<number[]> {
  const r = await s.request<Replies["split"]>({ v: 1, type: "split", pane: 1, cwd: "/tmp", command: ["sh", "-c", "sleep 1000 & echo pids:$$:$!; wait"], focus: false });
  const text = await s.waitScreen(r.pane, /pids:\d+:\d+/);
  const [, a, b] = text.match(/pids:(\d+):(\d+)/)!;
  return [Number(a), Number(b)];
}

for (const how of ["SIGTERM", "SIGINT", "shutdown"] as const) {
  test(`${how} ends every pane's process group and removes the socket`, async () => {
    const s = new TestServer();
    servers.push(s);
    await s.start();
    const pids = await groupInPane(s);
    const pid = s.daemonPid()!;
    if (how === "shutdown") expect(await s.rawLine('{"v":1,"type":"shutdown"}\n')).toBe("ok");
    else process.kill(pid, how);
    await waitFor("the daemon to exit", () => !alive(pid));
    await waitFor("the pane processes to end", () => pids.every((p) => !alive(p)));
    expect(existsSync(s.sock)).toBe(false);
  });
}

test("when the last pane exits the server quits", async () => {
  const s = new TestServer();
  servers.push(s);
  await s.start();
  const pid = s.daemonPid()!;
  await s.request({ v: 2, type: "pane_send", pane: 1, text: "exit", enter: true });
  await waitFor("the daemon to exit", () => !alive(pid));
  expect(existsSync(s.sock)).toBe(false);
});

test("ws server runs in the foreground with logs on stderr", async () => {
  const s = new TestServer();
  servers.push(s);
  const proc = Bun.spawn([...wsArgv(), "server"], { env: s.env, stdout: "pipe", stderr: "pipe" });
  await waitFor("the socket", async () => (await s.list().catch(() => undefined))?.length === 1);
  await s.ok(["kill-server"]);
  expect(await proc.exited).toBe(0);
  const err = await new Response(proc.stderr).text();
  expect(err).toContain(`listening on ${s.sock}`);
});

test("ws start returns once the socket answers", async () => {
  const s = new TestServer();
  servers.push(s);
  await s.ok(["start"]);
  // No waiting: the very next request must be answered.
  expect((await s.list())[0]!.name).toBe("main");
  // Starting again is harmless.
  await s.ok(["start"]);
  expect(await s.list()).toHaveLength(1);
});
