// `ws start` on a server that already runs starts nothing and says so (exit 0: a script may start
// it to be sure), where it said nothing at all.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { TestServer } from "./harness";

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
