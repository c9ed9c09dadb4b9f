// `ws wait output --new`: a wait that means "from now". A plain wait matches the pane's whole text,
// so the command line just typed (which holds the pattern) matches at once; --new sees only what
// the pane writes after the wait starts.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { TestServer, waitFor } from "./harness";

let s: TestServer;
beforeAll(async () => {
  s = await new TestServer().start();
});
afterAll(() => s.stop());

async function shellPane(): Promise<number> {
  const pane = Number((await s.ok(["tab", "new"])).trim());
  await s.waitScreen(pane, /[$#] ?$/m); // a prompt
  return pane;
}

test("pane send 1 'sleep 3; echo DONE' --enter; wait output 1 DONE --new returns when DONE prints, not at the command line", async () => {
  const pane = await shellPane();
  await s.ok(["pane", "send", String(pane), "sleep 3; echo DONE", "--enter"]);
  const r = await s.run(["wait", "output", String(pane), "DONE", "--new", "--timeout", "20000"]);
  expect(r).toEqual({ code: 0, stdout: "DONE\n", stderr: "" });
  // It returned once the command had printed DONE on a line of its own.
  expect((await s.ok(["pane", "read", String(pane)])).split("\n")).toContain("DONE");
}, 30_000);

test("a wait_for with new is still waiting after the pane showed the command line, and answers with the output", async () => {
  const pane = await shellPane();
  await s.ok(["pane", "send", String(pane), "until [ -e ~/g1 ]; do sleep 0.05; done; echo DONE", "--enter"]);
  await s.ok(["wait", "idle", String(pane), "300", "--timeout", "10000"]);
  let answered = false;
  const wait = s.v6({ type: "wait_for", condition: "output", pane, pattern: "DONE", new: true, timeout: 20000 }).finally(() => (answered = true));
  // A whole ws process runs after the request was sent: the wait has had its first look by then.
  await s.ok(["wait", "idle", String(pane), "300", "--timeout", "10000"]);
  expect(answered).toBe(false);
  writeFileSync(join(s.root, "g1"), "");
  expect(await wait).toMatchObject({ type: "wait_result", match: "DONE" });
  expect((await s.ok(["pane", "read", String(pane)])).split("\n")).toContain("DONE");
}, 30_000);

test("without --new the same wait matches the command line at once (which text a plain wait sees)", async () => {
  const pane = await shellPane();
  const gate = join(s.root, "g2");
  await s.ok(["pane", "send", String(pane), "until [ -e ~/g2 ]; do sleep 0.05; done; echo FINISHED", "--enter"]);
  await waitFor("the command line on screen", async () => (await s.ok(["pane", "read", String(pane)])).includes("FINISHED"));
  expect((await s.run(["wait", "output", String(pane), "FINISHED", "--timeout", "10000"])).code).toBe(0);
  writeFileSync(gate, "");
});

test("--new ignores text already on screen, and a v6 wait_for with new times out on it", async () => {
  const pane = await shellPane();
  await s.ok(["pane", "send", String(pane), "echo ALREADY-$((40+2))", "--enter"]);
  await s.ok(["wait", "output", String(pane), "^ALREADY-42", "--timeout", "10000"]);
  const r = await s.v6({ type: "wait_for", condition: "output", pane, pattern: "ALREADY-42", new: true, timeout: 300 });
  expect(r).toMatchObject({ type: "error", code: "timeout" });
  const later = s.v6({ type: "wait_for", condition: "output", pane, pattern: "^AGAIN-42", new: true, timeout: 10000 });
  await s.ok(["wait", "idle", String(pane), "200", "--timeout", "10000"]);
  await s.ok(["pane", "send", String(pane), "echo AGAIN-$((40+2))", "--enter"]);
  expect(await later).toMatchObject({ type: "wait_result", match: "AGAIN-42" });
});

test("ws pane send … --enter --wait-output PATTERN: only the output after the text counts, not its own line", async () => {
  const pane = await shellPane();
  // The command line holds GOT- itself: were its echo counted, the match would be "GOT-" on it.
  const sent = s.run(["--json", "pane", "send", String(pane), 'read -r x; echo "GOT-$x"', "--enter", "--wait-output", "GOT-\\w*", "--timeout", "20000"]);
  await waitFor("the command line on screen", async () => (await s.ok(["pane", "read", String(pane)])).includes('echo "GOT-$x"'));
  await s.ok(["pane", "send", String(pane), "typedlater", "--enter"]);
  const r = await sent;
  expect(r.code).toBe(0);
  expect(JSON.parse(r.stdout)).toMatchObject({ v: 6, type: "ok", condition: "output", match: "GOT-typedlater" });
  // Without --json it prints the match, as ws wait output does; a long command line wrapped over
  // several rows is still its own line, and a wait that runs out exits 124.
  const long = `echo ${"x".repeat(150)} && echo END-$((20+22))`;
  expect(await s.run(["pane", "send", String(pane), long, "--enter", "--wait-output", "END-\\d+", "--timeout", "20000"])).toEqual({ code: 0, stdout: "END-42\n", stderr: "" });
  expect((await s.run(["pane", "send", String(pane), "true", "--enter", "--wait-output", "never-printed", "--timeout", "300"])).code).toBe(124);
}, 60_000);
