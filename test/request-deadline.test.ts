// A request that outlives its deadline leaves nothing behind: the deadline is the handler's signal,
// and a request that changes the model either finishes before it replies or undoes what it did, so
// a client that retries after `timeout` gets one change, not two. The server's deadline is short
// here (WS_REQUEST_TIMEOUT_MS) and each paced step slowed past it by a test fault
// (src/server/test-faults.ts, only under WS_TEST_FAULTS=1), as a stalled server would.
import { expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { type Conn, processAlive, readUntil, useServer, waitFor } from "./harness";
import { FAULT_TITLE } from "../src/server/test-faults";

const DEADLINE_MS = 1500;
const s = useServer({ env: { WS_TEST_FAULTS: "1", WS_REQUEST_TIMEOUT_MS: String(DEADLINE_MS) } });

async function slowSteps(ms: number): Promise<void> {
  expect(await s.v6({ type: "notify", title: FAULT_TITLE, body: `slow-steps:${ms}` })).toMatchObject({ type: "notified" });
}
/** A client that keeps its connection open after `timeout` (one that hangs up also stops the
 * request, through its connection's signal); the server closes it after 2 s idle. */
let conn: Conn | undefined;
async function ask(msg: Record<string, unknown>) {
  if (!conn || conn.closed) conn = await s.connect();
  conn.send({ v: 6, ...msg });
  return conn.nextJson(15_000);
}
/** Resolves when `n` slowed steps have ended (the fault tells each as a notification). */
async function stepsDone(n: number): Promise<() => Promise<void>> {
  const sub = await s.connect();
  sub.send({ v: 6, id: "sub", type: "subscribe", types: ["notification"] });
  expect(await sub.nextJson()).toMatchObject({ type: "subscribed" });
  return async () => {
    for (let i = 0; i < n; i++) await readUntil(sub, (e) => e.event === "notification" && e.body === "step-done", 15_000);
    sub.close();
  };
}
const tabNames = async () => (await s.list()).flatMap((w) => w.tabs.map((t) => t.name));
const paneCount = async () => ((await s.v6({ type: "pane_list" })).panes as unknown[]).length;

test("a tab_new that timed out made no tab; its retry makes exactly one", async () => {
  const panes = await paneCount();
  await slowSteps(DEADLINE_MS + 1000);
  const slowStepOver = await stepsDone(1);
  const first = await ask({ type: "tab_new", name: "once", cwd: s.root, command: ["sleep", "100"] });
  expect(first).toMatchObject({ type: "error", code: "timeout" });
  expect(String(first.message)).toContain("nothing was done");
  // Once the step it was in is over, it still made nothing.
  await slowStepOver();
  expect(await tabNames()).not.toContain("once");
  expect(await paneCount()).toBe(panes);
  // The client retries, the server no longer slow.
  await slowSteps(0);
  const retry = await ask({ type: "tab_new", name: "once", cwd: s.root, command: ["sleep", "100"] });
  expect(retry).toMatchObject({ type: "pane" });
  expect((await tabNames()).filter((n) => n === "once")).toHaveLength(1);
  expect(await paneCount()).toBe(panes + 1);
}, 30_000);

test("a layout_apply past its deadline stops the panes it had started, and its retry builds the tab once", async () => {
  const panes = await paneCount();
  const pidFile = (i: number) => join(s.root, `leaf-${i}.pid`);
  const leaf = (i: number) => ({ type: "pane", cwd: s.root, command: ["sh", "-c", `echo $$ > ${pidFile(i)}; exec sleep 100`] });
  const root = { type: "split", direction: "right", ratio: 0.5, first: leaf(1), second: { type: "split", direction: "down", ratio: 0.5, first: leaf(2), second: leaf(3) } };
  // Each pane's step takes 0.9 s: the first starts, the deadline passes during the second's.
  await slowSteps(900);
  const slowStepsOver = await stepsDone(2);
  const r = await ask({ type: "layout_apply", name: "built", root });
  expect(r).toMatchObject({ type: "error", code: "timeout" });
  await slowStepsOver();
  await slowSteps(0);
  expect(await tabNames()).not.toContain("built");
  expect(await paneCount()).toBe(panes);
  // The pane that had started is stopped, its program with it.
  await waitFor("the first leaf's pid", () => existsSync(pidFile(1)));
  const pid = Number(readFileSync(pidFile(1), "utf8"));
  await waitFor("the started leaf's program to end", () => !processAlive(pid));
  expect(existsSync(pidFile(3))).toBe(false);
  const retry = await ask({ type: "layout_apply", name: "built", root });
  expect(retry).toMatchObject({ type: "layout" });
  expect((await tabNames()).filter((n) => n === "built")).toHaveLength(1);
  expect(await paneCount()).toBe(panes + 3);
}, 30_000);

test("without a slow step the deadline changes nothing: tab_new answers at once", async () => {
  const r = await s.v6({ type: "tab_new", name: "quick", cwd: s.root, command: ["sleep", "100"] });
  expect(r).toMatchObject({ type: "pane" });
  expect((await tabNames()).filter((n) => n === "quick")).toHaveLength(1);
  conn?.close();
}, 30_000);
