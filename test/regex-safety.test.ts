// A client's regex must not stall the daemon. Twenty waits with the catastrophic pattern (a+)+$ on
// a pane showing "aaaa…ab" (each check would backtrack for hours) run while another client works:
// that client's requests answer at once, a sane wait still matches, and every bad wait ends with
// regex_timeout. Then the pool is whole again: another bad wait fails the same way, a good one matches.
import { expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { processAlive, TestServer, useServer, waitFor } from "./harness";
import type { AnyReply } from "./replies";

const s = useServer();

const EVIL = "(a+)+$";
const BAD_WAITS = 20;
/** Far below what a stall costs (each bad check alone would run for hours), far above a normal answer. */
const ANSWER_WITHIN_MS = 1000;

/** A request on its own connection that may take longer than the harness's 10 s. */
async function slowRequest(msg: Record<string, unknown>): Promise<AnyReply> {
  return JSON.parse(await s.rawLine(JSON.stringify(msg) + "\n", 80_000));
}

async function timed<T>(f: () => Promise<T>): Promise<[T, number]> {
  const t0 = performance.now();
  const r = await f();
  return [r, performance.now() - t0];
}

test(`${BAD_WAITS} waits for ${EVIL} on "aaaa…ab" stall no one but themselves`, async () => {
  const evil = Number((await s.ok(["tab", "new", "--", "sh", "-c", `echo ${"a".repeat(48)}b; exec cat`])).trim());
  await s.waitScreen(evil, "ab");
  const other = Number((await s.ok(["tab", "new", "--", "cat"])).trim());

  // A sane regex wait on the other pane, then the bad ones.
  let goodAt = 0;
  const good = slowRequest({ v: 6, id: 2, type: "wait_for", condition: "output", pane: other, pattern: "ready (\\d+)", timeout: 120_000 }).then((r) => {
    goodAt = performance.now();
    return r;
  });
  const began = performance.now();
  const bad = Array.from({ length: BAD_WAITS }, () =>
    timed(() => slowRequest({ v: 6, id: 1, type: "wait_for", condition: "output", pane: evil, pattern: EVIL, timeout: 120_000 })),
  );

  // Another client's requests, while the bad checks run.
  const latencies: number[] = [];
  let answered = 0;
  let readyAt = 0;
  const badDone = Promise.all(bad);
  let allBad = false;
  void badDone.then(() => (allBad = true));
  for (let i = 0; !allBad || i < 5; i++) {
    const [list, tList] = await timed(() => s.request({ v: 2, type: "workspace_list" }));
    expect(list.type).toBe("workspaces");
    const [sent, tSend] = await timed(() => s.v6({ type: "pane_send", pane: other, text: `ping ${i}`, enter: true }));
    expect(sent.type).toBe("ok");
    const [, tRead] = await timed(() => waitFor(`ping ${i} on pane ${other}`, async () => (await s.screen(other)).includes(`ping ${i}`), ANSWER_WITHIN_MS, 5));
    latencies.push(tList, tSend, tRead);
    answered++;
    if (i === 3) {
      readyAt = performance.now();
      await s.v6({ type: "pane_send", pane: other, text: "ready 42", enter: true });
    }
  }
  const results = await badDone;
  const allBadMs = performance.now() - began;
  const g = await good;
  const goodMs = goodAt - readyAt;
  const sorted = latencies.sort((a, b) => a - b);
  const max = sorted[sorted.length - 1]!;
  const p = (q: number) => sorted[Math.floor(q * (sorted.length - 1))]!.toFixed(1);
  console.log(
    `other client: ${answered} rounds of list/send/read, answers p50 ${p(0.5)} ms, p99 ${p(0.99)} ms, max ${max.toFixed(1)} ms; ` +
      `the sane wait answered ${(goodMs / 1000).toFixed(2)} s after its pane printed the match; ${BAD_WAITS} bad waits all ended after ${(allBadMs / 1000).toFixed(1)} s`,
  );
  expect(max).toBeLessThan(ANSWER_WITHIN_MS);

  for (const [r] of results) {
    expect(r.type).toBe("error");
    expect(r.code).toBe("regex_timeout");
    expect(r.message).toContain("250 ms");
  }
  expect(g.type).toBe("wait_result");
  expect(g.groups).toEqual(["42"]);
}, 90_000);

test("afterwards the pool works: a bad wait fails again, good ones match, the daemon is alive", async () => {
  const evil = Number((await s.ok(["tab", "new", "--", "sh", "-c", `echo ${"a".repeat(48)}b; exec cat`])).trim());
  await s.waitScreen(evil, "ab");
  const r = await slowRequest({ v: 6, id: 1, type: "wait_for", condition: "output", pane: evil, pattern: EVIL, timeout: 60_000 });
  expect(r.code).toBe("regex_timeout");
  const ok = await s.v6({ id: 1, type: "wait_for", condition: "output", pane: evil, pattern: "a{48}(b)", timeout: 10_000 });
  expect(ok.type).toBe("wait_result");
  expect(ok.groups).toEqual(["b"]);
  // The literal fast path (no helper) gives the same answer shape.
  const lit = await s.v6({ id: 1, type: "wait_for", condition: "output", pane: evil, pattern: "ab", timeout: 10_000 });
  expect(lit).toMatchObject({ type: "wait_result", match: "ab", groups: [], line: 1 });
});

test("a pattern over the length limit or with bad syntax is refused up front with invalid_params", async () => {
  const pane = Number((await s.ok(["tab", "new", "--", "cat"])).trim());
  const long = await s.v6({ id: 1, type: "wait_for", condition: "output", pane, pattern: "x".repeat(4097), timeout: 1000 });
  expect(long).toMatchObject({ type: "error", code: "invalid_params", hint: { param: "pattern" } });
  expect(long.message).toContain("at most 4096");
  const bad = await s.v6({ id: 1, type: "wait_for", condition: "output", pane, pattern: "(a+", timeout: 1000 });
  expect(bad).toMatchObject({ type: "error", code: "invalid_params", hint: { param: "pattern" } });
});

test("the daemon's regex helpers end with it", async () => {
  const own = await new TestServer().start();
  try {
    const pane = Number((await own.ok(["tab", "new", "--", "sh", "-c", "echo ready 7; exec cat"])).trim());
    const r = await own.v6({ id: 1, type: "wait_for", condition: "output", pane, pattern: "ready (\\d)", timeout: 10_000 });
    expect(r.groups).toEqual(["7"]);
    const daemon = own.daemonPid()!;
    const helpers = readdirSync(`/proc/${daemon}/task`)
      .flatMap((t) => readFileSync(`/proc/${daemon}/task/${t}/children`, "utf8").trim().split(/\s+/))
      .filter((pid) => pid && readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("__regex-worker"))
      .map(Number);
    expect(helpers.length).toBe(1);
    await own.ok(["kill-server"]);
    await waitFor(`regex helper ${helpers[0]} to end with the daemon`, () => !processAlive(helpers[0]!), 5000);
  } finally {
    await own.stop();
  }
});
