// The regex pool on its own, with real worker threads: literal patterns never start one, a runaway
// pattern costs its check the budget and then fails with regex_timeout, checks with a record of
// finishing in time go ahead of untried ones, and threads and the queue stay within their bounds.
import { expect, test } from "bun:test";
import { RegexPool } from "../src/server/regex-pool";
import { userPattern } from "../src/server/user-pattern";
import { WsError } from "../src/protocol/errors";

const EVIL = userPattern("(a+)+$", false);
const EVIL_TEXT = "a".repeat(48) + "b";
const pool = (limits: ConstructorParameters<typeof RegexPool>[0] = {}) => new RegexPool(limits);

test("a literal pattern is matched on the calling thread: no worker starts", async () => {
  const p = pool();
  const pat = userPattern("BUILD OK", true);
  expect(pat.literal).toBe(true);
  expect(await p.match(pat, () => "compiling\nlinking\nbuild ok in 3s")).toEqual({ match: "build ok", groups: [], line: 3 });
  expect(await p.match(pat, () => "nothing")).toBeNull();
  expect(p.threads).toBe(0);
});

test("a regex is matched in a worker, with its groups and line", async () => {
  const p = pool();
  const pat = userPattern("BUILD (OK|FAILED) in (\\d+)s", false);
  expect(pat.literal).toBe(false);
  expect(await p.match(pat, () => "a\nb\nBUILD FAILED in 12s\n")).toEqual({ match: "BUILD FAILED in 12s", groups: ["FAILED", "12"], line: 3 });
  expect(p.threads).toBe(1);
  // Nothing to match (the caller gave up): resolved without running.
  expect(await p.match(pat, () => undefined)).toBeNull();
});

test("a runaway pattern fails with regex_timeout after its budget, and the pool goes on", async () => {
  const p = pool({ budgetMs: 200 });
  const t0 = performance.now();
  const err = await p.match(EVIL, () => EVIL_TEXT).catch((e) => e);
  const took = performance.now() - t0;
  expect(err).toBeInstanceOf(WsError);
  expect(err.code).toBe("regex_timeout");
  expect(err.message).toContain("200 ms");
  expect(took).toBeGreaterThanOrEqual(195);
  expect(took).toBeLessThan(2000);
  // The next check gets a fresh worker.
  expect(await p.match(userPattern("a(b)$", false), () => EVIL_TEXT)).toEqual({ match: "ab", groups: ["b"], line: 1 });
});

test("proven checks go ahead of untried ones; threads, dying ones included, stay within the limit", async () => {
  const p = pool({ threads: 1, budgetMs: 100 });
  const order: string[] = [];
  let maxThreads = 0;
  const note = (what: string) => {
    order.push(what);
    maxThreads = Math.max(maxThreads, p.threads);
  };
  const bad = [1, 2, 3].map((i) => p.match(EVIL, () => EVIL_TEXT).then(() => note(`bad ${i} matched`), (e) => note(`bad ${i} ${e.code}`)));
  const good = p.match(userPattern("(b)$", false), () => EVIL_TEXT, true).then((m) => note(`good ${m?.groups[0]}`));
  await Promise.all([...bad, good]);
  // All four waited for the worker to start; the proven one was taken first, though it came last.
  expect(order).toEqual(["good b", "bad 1 regex_timeout", "bad 2 regex_timeout", "bad 3 regex_timeout"]);
  expect(maxThreads).toBe(1);
}, 20_000);

test("the queue is bounded: past it a check fails with busy", async () => {
  const p = pool({ threads: 1, budgetMs: 100, queued: 2 });
  const checks = [1, 2, 3].map(() => p.match(EVIL, () => EVIL_TEXT).catch((e) => e.code));
  // The first is taken by the worker once it is ready; until then all three wait in the queue.
  expect(await checks[2]).toBe("busy");
  expect(await Promise.all(checks.slice(0, 2))).toEqual(["regex_timeout", "regex_timeout"]);
}, 20_000);
