// The server's log (src/log.ts, docs/architecture.md "Logging"): one line per message with its
// time and level, only up to WS_LOG_LEVEL, and rotated past WS_LOG_MAX_BYTES: the current file and
// the one older generation stay within the cap however much the server logs, and the newest lines
// are in the current file. A real daemon, started by `ws start` as a person starts it; its log
// is filled by test faults (src/server/test-faults.ts) that log an error with its stack each.
import { expect, test } from "bun:test";
import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { FAULT_TITLE } from "../src/server/test-faults";
import { LOG_MAX_BYTES } from "../src/log";
import { TestServer, waitFor } from "./harness";

/** The cap here, small enough that a few dozen logged errors pass it several times. */
const CAP = 8 * 1024;

test("the log rotates at its cap: two files within the cap, the newest lines in the current one", async () => {
  const s = await new TestServer({ env: { WS_TEST_FAULTS: "1", WS_LOG_MAX_BYTES: String(CAP) } }).start();
  try {
    const log = join(s.env.XDG_STATE_HOME!, "ws", "default.log");
    const older = `${log}.1`;
    const lines = (f: string) => readFileSync(f, "utf8").split("\n").filter(Boolean);
    expect(lines(log).find((l) => l.includes(" listening on "))).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z \[info\] ws \S+ \(\S+\) listening on /);
    let logged = 0;
    for (let round = 0; round < 60; round++) {
      // Each sets off a bus listener that throws: the bus logs the error with its stack (~1 KiB).
      expect(await s.v6({ type: "notify", title: FAULT_TITLE, body: "listener" })).toMatchObject({ type: "notified" });
      logged++;
      // Within the cap whenever it is looked at.
      expect(statSync(log).size).toBeLessThanOrEqual(CAP);
    }
    await waitFor("a rotation", () => existsSync(older));
    expect(statSync(older).size).toBeLessThanOrEqual(CAP);
    expect(statSync(older).size).toBeGreaterThan(CAP / 2);
    // The last error is in the current file, whole: its line, then its stack.
    const now = readFileSync(log, "utf8");
    expect(now).toMatch(/\[error\] event listener failed on notification: [^]*test fault: a bus listener threw[^]*\n\s+at /);
    // Every line of both files is a whole one: a message line, or a stack line under one.
    for (const l of [...lines(older), ...lines(log)]) expect(l).toMatch(/^(\d{4}-\d\d-\d\dT[\d:.]+Z \[(error|warn|info|debug)\] |\s|[A-Za-z]*Error|\S)/);
    expect(logged).toBe(60);
  } finally {
    await s.stop();
  }
}, 60_000);

test("WS_LOG_LEVEL leaves out the lines above it; the default cap is the documented 8 MiB", async () => {
  expect(LOG_MAX_BYTES).toBe(8 * 1024 * 1024);
  const s = await new TestServer({ env: { WS_TEST_FAULTS: "1", WS_LOG_LEVEL: "error" } }).start();
  try {
    const log = join(s.env.XDG_STATE_HOME!, "ws", "default.log");
    expect(await s.v6({ type: "notify", title: FAULT_TITLE, body: "listener" })).toMatchObject({ type: "notified" });
    await waitFor("the error in the log", () => readFileSync(log, "utf8").includes("[error] event listener failed"));
    expect(readFileSync(log, "utf8")).not.toContain("[info]");
  } finally {
    await s.stop();
  }
}, 60_000);
