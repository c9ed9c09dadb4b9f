// A wait for a program's last words: the program prints and exits at once, so its pane closes
// right after the output is parsed. What was parsed before the pane closed must still match.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { TestServer, wsArgv } from "./harness";

let s: TestServer;
beforeAll(async () => {
  s = await new TestServer().start();
  // A pane that stays, so closing the test's tabs never empties (and so ends) the server.
  await s.ok(["tab", "new", "--", "cat"]);
});
afterAll(() => s.stop());

test("p=$(ws tab new -- sh -c 'sleep 1; echo BUILD OK'); ws wait output $p 'BUILD OK' succeeds 10 times out of 10", async () => {
  const ws = wsArgv().map((a) => `'${a}'`).join(" ");
  const script = `ws() { ${ws} "$@"; }\np=$(ws tab new -- sh -c 'sleep 1; echo BUILD OK'); ws wait output $p 'BUILD OK'`;
  // One after another, as a script would: each needs its wait to start within the program's 1 s.
  const runs = [];
  for (let i = 0; i < 10; i++) {
    const proc = Bun.spawn(["bash", "-c", script], { env: s.env, cwd: s.root, stdout: "pipe", stderr: "pipe" });
    const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
    runs.push({ code, stdout, stderr });
  }
  for (const r of runs) expect(r).toEqual({ code: 0, stdout: "BUILD OK\n", stderr: "" });
}, 60_000);

test("the same with a pattern that is matched in a regex helper process", async () => {
  const ws = wsArgv().map((a) => `'${a}'`).join(" ");
  const script = `ws() { ${ws} "$@"; }\np=$(ws tab new -- sh -c 'sleep 1; echo BUILD OK'); ws wait output $p 'BUILD (OK|FAILED)'`;
  for (let i = 0; i < 3; i++) {
    const proc = Bun.spawn(["bash", "-c", script], { env: s.env, cwd: s.root, stdout: "pipe", stderr: "pipe" });
    const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
    expect({ code, stdout, stderr }).toEqual({ code: 0, stdout: "BUILD OK\n", stderr: "" });
  }
}, 30_000);

test("a wait still fails with pane_exited when the closed pane never printed a match", async () => {
  const pane = Number((await s.ok(["tab", "new", "--", "sh", "-c", "sleep 0.5; echo BUILD FAILED"])).trim());
  const r = await s.v6({ id: 1, type: "wait_for", condition: "output", pane, pattern: "BUILD OK", timeout: 10000 });
  expect(r.type).toBe("error");
  expect(r.code).toBe("pane_exited");
});
