// search over the real socket and `ws search`: history beyond the screen, wrapped lines joined,
// case, max, panes, regexes, and a catastrophic regex that ends in regex_timeout while the daemon
// keeps answering.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { TestServer } from "./harness";
import type { V6Reply } from "./replies";

let s: TestServer;
let a: number;
let b: number;
const search = (f: Record<string, unknown>) => s.v6({ id: 1, type: "search", ...f });

beforeAll(async () => {
  s = await new TestServer().start();
  const start = async (script: string, last: string) => {
    const pane = Number((await s.ok(["tab", "new", "--", "sh", "-c", `${script}; exec cat`])).trim());
    await s.waitScreen(pane, last);
    return pane;
  };
  a = await start(`echo 'FINDME alpha'; seq 1 500; echo 'findme beta'; printf 'WRAPSTART%0300dWRAPEND\\n' 0; echo a-done`, "a-done");
  b = await start("echo 'FINDME gamma'; echo b-done", "b-done");
});
afterAll(() => s.stop());

const brief = (r: V6Reply<"search">) => r.matches.map((m) => `${m.pane}:${m.line}:${m.text}`);

test("finds text in history beyond the screen, ignoring case by default; line reads back with pane_read", async () => {
  expect(await s.screen(a)).not.toContain("FINDME alpha"); // scrolled off the screen
  const r = await search({ pattern: "findme" });
  expect(r).toMatchObject({ type: "search_result", truncated: false });
  expect(brief(r)).toEqual([`${a}:1:FINDME alpha`, `${a}:502:findme beta`, `${b}:1:FINDME gamma`]);
  const beta = r.matches[1];
  expect(beta!.row).toBeGreaterThanOrEqual(501);
  const read = await s.v6({ id: 2, type: "pane_read", pane: a, source: "recent-unwrapped", start: beta!.line, end: beta!.line });
  expect(read.text).toBe("findme beta");
});

test("a wrapped line is one line; case, max and panes narrow the search", async () => {
  const wrapped = await search({ pattern: "WRAPEND" });
  expect(wrapped.matches).toHaveLength(1);
  expect(wrapped.matches[0]!.text).toBe(`WRAPSTART${"0".repeat(300)}WRAPEND`);
  expect(brief(await search({ pattern: "FINDME", case: true }))).toEqual([`${a}:1:FINDME alpha`, `${b}:1:FINDME gamma`]);
  const two = await search({ pattern: "findme", max: 2 });
  expect(two).toMatchObject({ truncated: true });
  expect(two.matches).toHaveLength(2);
  // Exactly max matches: nothing was left out.
  expect(await search({ pattern: "findme", max: 3 })).toMatchObject({ truncated: false });
  expect(brief(await search({ pattern: "findme", panes: [b] }))).toEqual([`${b}:1:FINDME gamma`]);
  expect((await search({ pattern: "findme", panes: [b, 9999] })).code).toBe("pane_not_found");
  expect((await search({ pattern: "x", max: 10_001 })).code).toBe("invalid_params");
  expect((await search({ pattern: "x", panes: ["1"] })).code).toBe("invalid_params");
});

test("regexes match per line (^ and $ at its ends); a bad one is refused", async () => {
  expect(brief(await search({ pattern: "^findme (beta|gamma)$", regex: true }))).toEqual([`${a}:502:findme beta`, `${b}:1:FINDME gamma`]);
  expect(brief(await search({ pattern: "^4\\d\\d$", regex: true, max: 1, panes: [a] }))).toEqual([`${a}:401:400`]);
  // Without regex the same text is a plain string.
  expect((await search({ pattern: "^findme" })).matches).toEqual([]);
  expect((await search({ pattern: "(", regex: true })).code).toBe("invalid_params");
});

test("a catastrophic regex ends with regex_timeout; the daemon answers meanwhile and after", async () => {
  const evil = Number((await s.ok(["tab", "new", "--", "sh", "-c", `printf '%s\\n' ${"a".repeat(40)}b evil-done; exec cat`])).trim());
  await s.waitScreen(evil, "evil-done");
  const started = Date.now();
  const pending = search({ pattern: "^(a+)+$", regex: true, panes: [evil] });
  const t0 = Date.now();
  expect((await s.v6({ id: 3, type: "pane_info", pane: a })).type).toBe("pane_info");
  expect(Date.now() - t0).toBeLessThan(1000);
  const r = await pending;
  expect(r.code).toBe("regex_timeout");
  expect(Date.now() - started).toBeLessThan(5000);
  expect(brief(await search({ pattern: "evil-done", panes: [evil] }))).toEqual([`${evil}:2:evil-done`]);
});

test("ws search prints PANE:LINE: TEXT; flags map to fields", async () => {
  expect(await s.ok(["search", "findme", "--panes", `${a},${b}`])).toBe(`${a}:1: FINDME alpha\n${a}:502: findme beta\n${b}:1: FINDME gamma\n`);
  expect(await s.ok(["search", "FINDME", "--case", "--max", "1"])).toBe(`${a}:1: FINDME alpha\n`);
  expect(await s.ok(["search", "gamma$", "--regex"])).toBe(`${b}:1: FINDME gamma\n`);
  const json = JSON.parse(await s.ok(["--json", "search", "beta"]));
  expect(json.matches[0]).toMatchObject({ pane: a, line: 502, text: "findme beta" });
  expect((await s.run(["search", "x", "--panes", "one"])).code).toBe(2);
  const missing = await s.run(["search", "x", "--panes", "9999"]);
  expect(missing.code).toBe(1);
  expect(missing.stderr).toContain("9999");
});
