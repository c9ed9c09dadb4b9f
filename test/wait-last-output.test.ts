// A wait for a program's last words: the program prints and exits at once, so its pane closes
// right after the output is parsed. What was parsed before the pane closed must still match, and
// so must a wait that arrives only after the pane has closed (a loaded machine starts `ws wait`
// late): the daemon remembers the last words of the last few panes that closed as they exited.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { TestServer, waitFor, wsArgv } from "./harness";

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
  // Two such scripts side by side (the server keeps the last words of 4 closed panes).
  const runs: { code: number; stdout: string; stderr: string }[] = [];
  const script5 = async () => {
    for (let i = 0; i < 5; i++) {
      const proc = Bun.spawn(["bash", "-c", script], { env: s.env, cwd: s.root, stdout: "pipe", stderr: "pipe" });
      const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
      runs.push({ code, stdout, stderr });
    }
  };
  await Promise.all([script5(), script5()]);
  expect(runs.length).toBe(10);
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

/** A pane running `script` that closes as it exits; resolves once it is gone. */
async function closedPane(script: string): Promise<number> {
  const pane = Number((await s.ok(["tab", "new", "--", "sh", "-c", script])).trim());
  await waitFor(`pane ${pane} to close`, async () => !(await s.call({ type: "pane_list" })).panes.some((p) => p.pane === pane));
  return pane;
}

test("a wait sent after the pane closed matches its last words; one they don't match fails with pane_exited", async () => {
  const pane = await closedPane("echo LAST-WORDS-$((6*7))"); // status 0: a quick failure would be held open
  expect(await s.v6({ type: "wait_for", condition: "output", pane, pattern: "LAST-WORDS-42", timeout: 0 })).toMatchObject({ type: "wait_result", pane, match: "LAST-WORDS-42" });
  expect(await s.v6({ type: "wait_for", condition: "output", pane, pattern: "^LAST", source: "visible", timeout: 0 })).toMatchObject({ type: "wait_result", pane });
  expect(await s.v6({ type: "wait_for", condition: "output", pane, pattern: "BUILD OK", timeout: 0 })).toMatchObject({ type: "error", code: "pane_exited" });
  // The exit is remembered as before.
  expect(await s.v6({ type: "wait_for", condition: "exit", pane, timeout: 0 })).toMatchObject({ type: "wait_result", exit_code: 0 });
});

test("only the last few closed panes' words are kept: an older one's wait fails with pane_exited", async () => {
  const first = await closedPane("echo WORDS-first");
  for (let i = 0; i < 4; i++) await closedPane(`echo WORDS-later-${i}`);
  expect(await s.v6({ type: "wait_for", condition: "output", pane: first, pattern: "WORDS", timeout: 0 })).toMatchObject({ type: "error", code: "pane_exited" });
});
