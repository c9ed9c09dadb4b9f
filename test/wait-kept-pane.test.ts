// A wait on a pane whose program has exited ends: a CI job that keeps a `make` pane and waits for
// "BUILD OK" learns that the build failed instead of hanging. The program may
// exit before the wait is sent, while it is pending, or the pane may already be closed.
import { expect, test } from "bun:test";
import { useServer, waitFor } from "./harness";

const s = useServer();

const keptPane = async (script: string) => Number((await s.ok(["tab", "new", "--keep", "--cwd", "/tmp", "--", "sh", "-c", script])).trim());
const exited = (pane: number) => waitFor(`pane ${pane} to exit`, async () => (await s.v6({ type: "pane_info", pane })).exit_code !== undefined && (await s.v6({ type: "pane_info", pane })));

test("output: a kept pane that exited before the wait answers pane_exited with its status", async () => {
  const pane = await keptPane("echo hi; exit 1");
  await exited(pane);
  const r = await s.v6({ type: "wait_for", condition: "output", pane, pattern: "NEVER", timeout: 0 });
  expect(r).toMatchObject({ type: "error", code: "pane_exited", hint: { exit_code: 1 } });
  expect(r.message).toContain("status 1");
  // What it did print still matches.
  expect(await s.v6({ type: "wait_for", condition: "output", pane, pattern: "^hi$", timeout: 0 })).toMatchObject({ type: "wait_result", match: "hi" });
  // The CLI: no hang, a failure status and the reason on stderr.
  const cli = await s.run(["wait", "output", String(pane), "NEVER"]);
  expect(cli.code).not.toBe(0);
  expect(cli.stderr).toContain("exited (status 1)");
});

test("output: a program that exits while the wait is pending ends the wait", async () => {
  const pane = await keptPane("read x; echo 'BUILD FAILED'; exit 2");
  const waiting = s.v6({ type: "wait_for", condition: "output", pane, pattern: "BUILD OK", timeout: 0 });
  await s.ok(["pane", "send", String(pane), "--enter"]);
  expect(await waiting).toMatchObject({ type: "error", code: "pane_exited", hint: { exit_code: 2 } });
});

test("output: the final screen still matches when the program exits right after printing", async () => {
  const pane = await keptPane("read x; echo 'BUILD OK'; exit 0");
  const waiting = s.v6({ type: "wait_for", condition: "output", pane, pattern: "BUILD (OK|FAILED)", timeout: 0 });
  await s.ok(["pane", "send", String(pane), "--enter"]);
  expect(await waiting).toMatchObject({ type: "wait_result", match: "BUILD OK" });
});

test("command_finished: a kept pane whose program exited answers at once, before and during the wait", async () => {
  const before = await keptPane("exit 3");
  await exited(before);
  expect(await s.v6({ type: "wait_for", condition: "command_finished", pane: before, timeout: 0 })).toMatchObject({ code: "pane_exited", hint: { exit_code: 3 } });
  const during = await keptPane("read x; exit 4");
  const waiting = s.v6({ type: "wait_for", condition: "command_finished", pane: during, timeout: 0 });
  await s.ok(["pane", "send", String(during), "--enter"]);
  expect(await waiting).toMatchObject({ code: "pane_exited", hint: { exit_code: 4 } });
});

test("a pane closed after its program exited answers from the record of recent exits", async () => {
  const pane = await keptPane("exit 7");
  await exited(pane);
  await s.ok(["pane", "close", String(pane)]);
  await waitFor("the pane to be gone", async () => !(await s.call({ type: "pane_list" })).panes.some((p) => p.pane === pane));
  for (const condition of ["output", "command_finished"]) {
    const r = await s.v6({ type: "wait_for", condition, pane, pattern: "x", timeout: 0 });
    expect(r).toMatchObject({ type: "error", code: "pane_exited", hint: { exit_code: 7 } });
  }
  expect(await s.v6({ type: "wait_for", condition: "exit", pane, timeout: 0 })).toMatchObject({ type: "wait_result", exit_code: 7 });
});
