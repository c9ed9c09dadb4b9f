// The regex pool on its own, with real helper processes: literal patterns never start one, a
// runaway pattern costs its check the budget, fails with regex_timeout and its helper is gone at
// once, checks with a record of finishing in time go ahead of untried ones, and helpers and the
// queue stay within their bounds.
import { afterAll, expect, test } from "bun:test";
import { RegexPool } from "../src/patterns/regex-pool";
import { userPattern } from "../src/patterns/user-pattern";
import { WsError } from "../src/protocol/errors";
import { processAlive, waitFor, wsArgv } from "./harness";
import { readFileSync } from "node:fs";

const EVIL = userPattern("(a+)+$", false);
const EVIL_TEXT = "a".repeat(48) + "b";
const pools: RegexPool[] = [];
const pool = (limits: ConstructorParameters<typeof RegexPool>[0] = {}) => {
  const p = new RegexPool(limits);
  pools.push(p);
  return p;
};
// A pool's helpers go when this process exits, or when idle for a while: the tests' go now.
afterAll(async () => {
  const pids = pools.flatMap((p) => p.pids);
  for (const pid of pids) if (processAlive(pid)) process.kill(pid, "SIGKILL");
  await waitFor("the helpers to be gone", () => pids.every((pid) => !processAlive(pid)));
});

test("a literal pattern is matched on the calling thread: no helper starts", async () => {
  const p = pool();
  const pat = userPattern("BUILD OK", true);
  expect(pat.literal).toBe(true);
  expect(await p.match(pat, () => "compiling\nlinking\nbuild ok in 3s")).toEqual({ match: "build ok", groups: [], line: 3 });
  expect(await p.match(pat, () => "nothing")).toBeNull();
  expect(p.pids).toEqual([]);
});

test("a regex is matched in a helper, with its groups and line", async () => {
  const p = pool();
  const pat = userPattern("BUILD (OK|FAILED) in (\\d+)s", false);
  expect(pat.literal).toBe(false);
  expect(await p.match(pat, () => "a\nb\nBUILD FAILED in 12s\n")).toEqual({ match: "BUILD FAILED in 12s", groups: ["FAILED", "12"], line: 3 });
  expect(p.pids.length).toBe(1);
  // Nothing to match (the caller gave up): resolved without running.
  expect(await p.match(pat, () => undefined)).toBeNull();
});

test("a runaway pattern fails with regex_timeout after its budget, and the pool goes on", async () => {
  const p = pool({ budgetMs: 200 });
  // The helper started first: on a loaded machine a start alone can take seconds, and the bound is
  // on the budget, not on starting a process.
  expect(await p.match(userPattern("a(b)$", false), () => "ab")).toEqual({ match: "ab", groups: ["b"], line: 1 });
  const t0 = performance.now();
  const err = await p.match(EVIL, () => EVIL_TEXT).catch((e) => e);
  const took = performance.now() - t0;
  expect(err).toBeInstanceOf(WsError);
  expect(err.code).toBe("regex_timeout");
  expect(err.message).toContain("200 ms");
  expect(took).toBeGreaterThanOrEqual(195);
  expect(took).toBeLessThan(2000);
  // The next check gets a fresh helper.
  expect(await p.match(userPattern("a(b)$", false), () => EVIL_TEXT)).toEqual({ match: "ab", groups: ["b"], line: 1 });
});

test("a check the regex engine cannot be interrupted in (quadratic over 2 MB) is killed: its helper is gone at once", async () => {
  const p = pool({ budgetMs: 200 });
  const text = "x".repeat(2_000_000);
  const check = p.match(userPattern("[\\s\\S]*END", false), () => text).catch((e) => e.code);
  const pid = await waitFor("the helper to start", () => p.pids[0]);
  expect(await check).toBe("regex_timeout");
  await waitFor(`helper ${pid} to be gone`, () => !processAlive(pid) && !p.pids.includes(pid), 1000, 5);
});

test("proven checks go ahead of untried ones; helpers, killed ones included, stay within the limit", async () => {
  const p = pool({ helpers: 1, budgetMs: 100 });
  const order: string[] = [];
  let maxHelpers = 0;
  const note = (what: string) => {
    order.push(what);
    maxHelpers = Math.max(maxHelpers, p.pids.length);
  };
  const bad = [1, 2, 3].map((i) => p.match(EVIL, () => EVIL_TEXT).then(() => note(`bad ${i} matched`), (e) => note(`bad ${i} ${e.code}`)));
  const good = p.match(userPattern("(b)$", false), () => EVIL_TEXT, true).then((m) => note(`good ${m?.groups[0]}`));
  await Promise.all([...bad, good]);
  // All four waited for the helper to start; the proven one was taken first, though it came last.
  expect(order).toEqual(["good b", "bad 1 regex_timeout", "bad 2 regex_timeout", "bad 3 regex_timeout"]);
  expect(maxHelpers).toBe(1);
}, 20_000);

test("the queue is bounded: past it a check fails with busy", async () => {
  const p = pool({ helpers: 1, budgetMs: 100, queued: 2 });
  const checks = [1, 2, 3].map(() => p.match(EVIL, () => EVIL_TEXT).catch((e) => e.code));
  // The first is taken by the helper once it is ready; until then all three wait in the queue.
  expect(await checks[2]).toBe("busy");
  expect(await Promise.all(checks.slice(0, 2))).toEqual(["regex_timeout", "regex_timeout"]);
}, 20_000);

test("a helper whose daemon died while it ran a runaway regex exits by itself", async () => {
  // The helper's parent is a shell standing in for the daemon; SIGKILL it mid-check.
  const helper = [...wsArgv(), "__regex-worker"].map((a) => `'${a}'`).join(" ");
  const daemon = Bun.spawn(["sh", "-c", `${helper} $$; :`], { stdin: "pipe", stdout: "pipe", stderr: "inherit" });
  const reader = daemon.stdout.getReader();
  expect(new TextDecoder().decode((await reader.read()).value)).toBe('{"ready":true}\n');
  const pid = Number(readFileSync(`/proc/${daemon.pid}/task/${daemon.pid}/children`, "utf8").trim());
  expect(processAlive(pid)).toBe(true);
  try {
    daemon.stdin.write(JSON.stringify({ id: 1, source: "[\\s\\S]*END", flags: "", text: "x".repeat(2_000_000) }) + "\n");
    // Flushed: the helper has read the request (2 MB, far over a pipe's buffer) and is matching.
    await daemon.stdin.flush();
    daemon.kill("SIGKILL");
    await waitFor(`orphaned helper ${pid} to exit`, () => !processAlive(pid), 3000, 20);
  } finally {
    if (processAlive(pid)) process.kill(pid, "SIGKILL");
  }
});

test("a helper that dies while the text is written to it fails that check, and nothing else", async () => {
  // A stand-in helper: says it is ready, reads a little, exits. The write of 2 MB then breaks.
  const p = pool({ argv: ["sh", "-c", `echo '{"ready":true}'; head -c 1000 >/dev/null`] });
  const err = await p.match(EVIL, () => "x".repeat(2_000_000)).catch((e) => e);
  expect(err).toBeInstanceOf(WsError);
  expect(err.code).toBe("internal");
  expect(err.message).toContain("pattern matcher failed");
  await waitFor("the dead helper to be reaped", () => p.pids.length === 0);
});

test("a helper that cannot start fails the waiting checks with internal", async () => {
  const p = pool({ argv: ["/nonexistent/ws-helper"] });
  const err = await p.match(EVIL, () => "aaa").catch((e) => e);
  expect(err).toBeInstanceOf(WsError);
  expect(err.code).toBe("internal");
  expect(p.pids).toEqual([]);
});
