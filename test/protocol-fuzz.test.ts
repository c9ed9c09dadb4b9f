// Control-protocol fuzz, driven by the registry: every request message, each field replaced by
// values of the wrong type and extreme values (null, containers, -1, 2^53, 1e308, NUL / ESC / C1 /
// bidi / lone surrogates, 100 KB strings, deep nesting, huge layout trees), at v6 and at the older
// versions a message exists in. Against the real daemon: it stays up, every reply is one line of
// JSON (or the legacy plain `ok` / `error: …`) whose error code is a known one and never
// `internal`, and a request answered with an error leaves no trace — the whole model (with its
// event seq) and the daemon's child processes are as they were. No line holds the server for
// seconds, another client is answered throughout, and memory comes back. FUZZ_SEED=n replays a
// run; FUZZ_LINES=n sets the random part's size.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { readdirSync, readFileSync, statSync, writeFileSync, chmodSync, openSync, readSync, closeSync } from "node:fs";
import { join } from "node:path";
import { type Conn, TestServer, processAlive, rssKb, waitFor } from "./harness";
import type { AnyReply, Replies } from "./replies";

type Snapshot = Replies["session_snapshot"];
import { MESSAGES } from "../src/messages";
import type { MessageEntry } from "../src/messages/types";
import type { FieldSpec } from "../src/protocol/schema";
import { ERROR_CODES } from "../src/protocol/errors";
import { MAX_LAYOUT_DEPTH, MAX_PANES_PER_REQUEST } from "../src/model/limits";
import { REGEX_WORKER_ARG } from "../src/patterns/regex-worker";

const SEED = Number(process.env.FUZZ_SEED ?? Date.now() % 2 ** 31);
const RANDOM_LINES = Number(process.env.FUZZ_LINES ?? 2000);

/** Messages that end or take over the connection or the server; they have their own tests. */
const EXCLUDED = new Set(["shutdown", "shutdown_keep", "attach", "subscribe"]);
const FUZZED = MESSAGES.filter((m) => !EXCLUDED.has(m.type));

let s: TestServer;
let pid: number;
let quiet: string;
let log: string;

// ---- a seeded generator (mulberry32): a failure prints the seed, FUZZ_SEED replays it ----
let rngState = SEED >>> 0;
function rand(): number {
  rngState = (rngState + 0x6d2b79f5) >>> 0;
  let t = rngState;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
const rnd = (n: number) => Math.floor(rand() * n);
const pick = <T>(xs: readonly T[]): T => xs[rnd(xs.length)]!;

// ---- values, as raw JSON text (so deep nesting, 1e309 and -0 go on the wire as written) ----
const j = (v: unknown) => JSON.stringify(v);
const deep = (open: string, close: string, n: number, inner = "1") => open.repeat(n) + inner + close.repeat(n);
const BIG = 100 * 1024;

/** Wrong for nearly every field, or at the edge of a range. */
const EXTREMES: string[] = [
  "null", "true", "false", "[]", "{}", '[1,"a",null]', '{"a":1}', '{"__proto__":{"x":1}}', '{"constructor":{"prototype":1}}',
  "-1", "0", "1", "-0", "0.5", "2147483647", "-2147483648", "4294967296", "9007199254740991", "9007199254740992", "-9007199254740993",
  "1e308", "-1e308", "1e309", "5e-324", "65535", "65536", "86400001",
  j(""), j(" "), j("NaN"), j("Infinity"), j("-1"), j("0x10"), j("1e308"), j("null"), j("true"),
  j("a\u0000b"), j("\u0000"), j("\u001b[31mred\u001b[0m"), j("\u001b]0;title\u0007"), j("\u009b31m"), j("\u0085next"), j("evil\u202etxt"),
  j("\u200b"), j("\ud800"), j("x\udfffy"), j("\ud83d\ude00"), j("line\nbreak"), j("tab\there"), j("\r"), j("名前"),
  j("/"), j("/nonexistent/dir/xyz"), j("../../../etc/passwd"), j("/etc/passwd"), j("main"), j("MAIN"), j("Keep"),
  j("x".repeat(BIG)), j("é".repeat(BIG / 2)), j("\u0000".repeat(1000)),
  j(["nonexistent-program-xyz-0"]), j(["/etc/passwd"]), j(["/"]), j([""]), j(["a\u0000b"]), j(["x".repeat(BIG)]), j(Array(5000).fill("a")),
  j([["a"]]), j([["a", "b", "c"]]), j([[1, 2]]), j([["a", "b"]]),
  deep("[", "]", 20), deep("[", "]", 5000), deep("[", "]", 100000), deep('{"a":', "}", 20), deep('{"a":', "}", 50000),
  j(Array.from({ length: 20000 }, (_, i) => i)),
];

/** A layout tree leaf running `command` (default: the quiet program). */
const leaf = (command: unknown = [quiet], extra: Record<string, unknown> = {}) => ({ type: "pane", command, cwd: "/tmp", ...extra });
const split = (first: unknown, second: unknown, ratio: unknown = 0.5, direction: unknown = "right") => ({ type: "split", direction, ratio, first, second });
/** A balanced tree of n leaves, one of which may be `odd`. */
function balanced(n: number, odd?: unknown): unknown {
  if (n <= 1) return odd ?? leaf();
  const h = n >> 1;
  return split(balanced(h, odd), balanced(n - h));
}
function chain(depth: number, last: unknown = leaf()): unknown {
  let t = last;
  for (let i = 0; i < depth; i++) t = split(leaf(), t);
  return t;
}

/** Trees for layout_apply's `root`: wrong, too deep, too wide, or with one bad leaf among good ones. */
let trees: string[] | undefined;
function treeExtremes(): string[] {
  return (trees ??= [
    j(chain(MAX_LAYOUT_DEPTH + 5)),
    j(chain(2000)),
    j(balanced(MAX_PANES_PER_REQUEST + 1)),
    j(balanced(2000)),
    j(balanced(4, leaf(["nonexistent-program-xyz-1"]))),
    j(balanced(4, leaf([quiet], { cwd: "/nonexistent/dir" }))),
    j(balanced(3, leaf(["/etc/passwd"]))),
    j(balanced(3, leaf([""]))),
    j(balanced(2, leaf([quiet], { label: "a\u0000b" }))),
    j(split(leaf(), leaf(), "0.5")),
    j(split(leaf(), leaf(), 0)),
    j(split(leaf(), leaf(), 1)),
    j(split(leaf(), leaf(), -1e308)),
    j(split(leaf(), leaf(), 0.5, "sideways")),
    j(split(leaf(), null)),
    j(split(leaf(), [])),
    j({ type: "pane", command: "sh" }),
    j({ type: "pane", junk: 1 }),
    j({ type: "nope" }),
    deep('{"type":"split","direction":"down","ratio":0.5,"second":{"type":"pane"},"first":', "}", 20000, '{"type":"pane"}'),
  ]);
}

// ---- the model around the fuzz: a workspace of quiet panes to aim at ----
interface Baseline {
  /** Pane ids that belong to the baseline; everything else is closed after a request succeeds. */
  panes: Set<number>;
  /** Quiet panes in "Keep" for fields that name a pane. */
  targets: number[];
  keepTab: number;
}
let base: Baseline;

/** Values that make a field valid, so a request reaches its handler with one field wrong. */
function validValue(m: MessageEntry, name: string, spec: FieldSpec): string | undefined {
  if (spec.accepted) return spec.type === "string[]" ? j([pick(spec.accepted)]) : j(pick(spec.accepted));
  switch (spec.type) {
    case "integer":
      if (name === "pane" || name === "with") return j(pick(base.targets));
      if (name === "tab") return j(base.keepTab);
      if (name === "timeout") return "20";
      if (name === "idle_ms") return "10";
      if (name === "after_seq") return "0";
      return "1";
    case "number":
      return "1";
    case "boolean":
      return "false";
    case "string":
      if (name === "workspace") return j("Keep");
      if (name === "cwd" || name === "dir" || name === "location") return j("/tmp");
      if (spec.name) return j(`f${rnd(1e6)}`);
      if (m.type === "run_command") return j("no-such-command");
      return j("x");
    case "string[]":
      return j([quiet]);
    case "integer[]":
      return j([pick(base.targets)]);
    case "pairs":
      return j([["a", "b"]]);
    case "object":
      return j(leaf());
    case "any":
      return "{}";
  }
}

/** A wrong or extreme value for a field: the general list, the tree list for layout trees. */
function extremeValue(spec: FieldSpec): string {
  if (spec.type === "object" && rand() < 0.6) return pick(treeExtremes());
  return pick(EXTREMES);
}

/** obj[key] = value, also for `__proto__` (an assignment would set the prototype instead). */
function setOwn(obj: Record<string, string>, key: string, value: string): void {
  Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
}

/** One line for `m` at version `v` with the fields in `wrong` set to the given raw values. */
function lineFor(m: MessageEntry, v: number, id: number, wrong: Record<string, string>): string {
  const parts: string[] = [`"v":${v}`];
  if (v >= 6) parts.push(`"id":${id}`);
  parts.push(`"type":${j(m.type)}`);
  // A Map, so that a field named `__proto__` is a field like any other.
  const fields = new Map<string, string>();
  for (const [name, spec] of Object.entries(m.fields)) {
    // Optional fields are often left out, as clients do.
    if (!spec.required && !Object.hasOwn(wrong, name) && rand() < 0.4) continue;
    const value = validValue(m, name, spec);
    if (value !== undefined) fields.set(name, value);
  }
  for (const [k, raw] of Object.entries(wrong)) fields.set(k, raw);
  // A wait never blocks the fuzz: every message the registry marks long-running (wait_for, run,
  // ask, pane_send's wait_output, …) gets a tiny valid timeout.
  if (m.longRunning && Object.hasOwn(m.fields, "timeout")) {
    // (Left out or null, it is the default: long; 0 is no limit.)
    const raw = fields.get("timeout");
    const t = Number(raw);
    if (raw === undefined || raw === "null" || (Number.isSafeInteger(t) && (t > 50 || t === 0))) fields.set("timeout", "20");
  }
  for (const [k, raw] of fields) parts.push(`${j(k)}:${raw}`);
  return `{${parts.join(",")}}`;
}

/** The versions to send `m` at: v6, sometimes one of the older ones it exists in (or one it does not). */
function versionFor(m: MessageEntry): number {
  if (rand() < 0.75) return 6;
  return m.since <= 5 && rand() < 0.85 ? m.since + rnd(6 - m.since) : 1 + rnd(5);
}

// ---- one connection, one line at a time (lines are answered in order) ----
class LineClient {
  private conn: Conn | undefined;
  private lastReply = 0;

  /** Send one line; its reply line. Anything left over from an earlier reply is an error. */
  async send(line: string, timeoutMs = 15000): Promise<string> {
    // The server closes a connection idle for 2 s: start a fresh one well before that.
    if (this.conn && !this.conn.closed && Date.now() - this.lastReply > 1000) this.close();
    if (!this.conn || this.conn.closed) this.conn = await s.connect();
    const c = this.conn;
    if (c.unread().length) throw new Error(`a reply had more than one line: ${JSON.stringify(c.unread().slice(0, 300))}`);
    c.write(line + "\n");
    try {
      return await c.nextRaw(timeoutMs);
    } catch (e) {
      this.close(); // a late reply must not be taken for the next line's
      throw e;
    } finally {
      this.lastReply = Date.now();
    }
  }

  /** The reply, parsed: AnyReply unless the caller names the type it reads. */
  async json<T = AnyReply>(msg: Record<string, unknown>): Promise<T> {
    return JSON.parse(await this.send(j(msg)));
  }

  close(): void {
    this.conn?.close();
    this.conn = undefined;
  }
}
let client: LineClient;

// ---- what "no trace" compares ----
/** The whole model as the protocol shows it, event seq included. */
async function model(): Promise<string> {
  const snap = await client.json({ v: 6, type: "session_snapshot" });
  if (snap.type !== "snapshot") throw new Error(`session_snapshot: ${j(snap)}`);
  return j(snap);
}

/** The daemon's child processes (its panes' programs), without the regex helpers that come and go. */
function children(): string {
  const pids: number[] = [];
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    let text = "";
    try {
      text = readFileSync(`/proc/${pid}/task/${task}/children`, "utf8");
    } catch {
      continue;
    }
    for (const p of text.split(/\s+/).filter(Boolean).map(Number)) {
      let cmd = "";
      try {
        cmd = readFileSync(`/proc/${p}/cmdline`, "utf8");
      } catch {}
      if (!cmd.includes(REGEX_WORKER_ARG)) pids.push(p);
    }
  }
  return pids.sort((a, b) => a - b).join(" ");
}

/** What the daemon wrote to its log since `from` (its stderr: failures of non-request messages land there). */
function logSince(from: number): string {
  const size = statSync(log).size;
  if (size <= from) return "";
  const fd = openSync(log, "r");
  try {
    const buf = Buffer.alloc(Math.min(size - from, 1 << 20));
    readSync(fd, buf, 0, buf.length, from);
    return buf.toString("utf8");
  } finally {
    closeSync(fd);
  }
}

/** Close every pane the fuzz's successful requests made; keep enough targets to aim at. */
async function backToBaseline(): Promise<void> {
  const snap: Snapshot = JSON.parse(await model());
  const alive = new Set<number>(snap.panes.map((p) => p.pane));
  for (const p of alive) if (!base.panes.has(p)) await client.json({ v: 6, type: "pane_close", pane: p });
  for (const p of [...base.panes]) if (!alive.has(p)) base.panes.delete(p);
  base.targets = base.targets.filter((p) => alive.has(p));
  const keep = snap.workspaces.find((w) => w.name === "Keep");
  if (!keep || base.targets.length < 2) await makeTargets();
  else await labelsSettled(); // a respawned pane's label follows its new program a moment later
}

/** A "Keep" workspace with three quiet panes in one tab. */
async function makeTargets(): Promise<void> {
  const r = await client.json({ v: 6, type: "workspace_new", name: "Keep", exists_ok: true });
  if (r.type === "error") throw new Error(`workspace_new Keep: ${j(r)}`);
  const snap: Snapshot = JSON.parse(await model());
  const keep = snap.workspaces.find((w) => w.name === "Keep");
  const tab = keep!.tabs[0]!;
  base.keepTab = tab.id;
  const first = tab.panes[0]!;
  for (let i = tab.panes.length; i < 3; i++) {
    const sp = await client.json({ v: 6, type: "split", pane: first, cwd: "/tmp", command: [quiet], focus: false });
    if (sp.type !== "pane") throw new Error(`split: ${j(sp)}`);
  }
  const after: Snapshot = JSON.parse(await model());
  base.panes = new Set(after.panes.map((p) => p.pane));
  base.targets = after.workspaces.find((w) => w.name === "Keep")!.tabs[0]!.panes;
  await waitQuiet();
}

/** Every pane's program has reached its quiet state (echo off, reading into /dev/null), and its
 * label has followed it (labels follow the foreground program a moment later). */
async function waitQuiet(): Promise<void> {
  await waitFor("every pane to run its quiet cat", () => {
    const kids = children().split(" ").filter(Boolean);
    return kids.length > 0 && kids.every((p) => readFileSync(`/proc/${p}/cmdline`, "utf8").startsWith("cat\0"));
  });
  await labelsSettled();
}

/** Each pane's label is what its foreground program makes it (unless a fuzzed pane_rename named it). */
async function labelsSettled(): Promise<void> {
  await waitFor("every pane's label to follow its program", async () => {
    const r: Replies["pane_list"] = await client.json({ v: 6, type: "pane_list" });
    return r.panes.every((p) => p.name !== null || p.exited || p.label === String(p.command[0] ?? "").split("/").pop());
  });
}

// ---- checking one exchange ----
interface Stats {
  lines: number;
  errors: number;
  noTraceChecks: number;
  codes: Record<string, number>;
  /** Non-requests answered `ok` whose action then failed (seen in the daemon's log). */
  actionsFailed: number;
  /** The line answered slowest: the server does nothing else meanwhile. */
  slowest: { ms: number; line: string };
}
const stats: Stats = { lines: 0, errors: 0, noTraceChecks: 0, codes: {}, actionsFailed: 0, slowest: { ms: 0, line: "" } };
/** No line may hold the server this long (a 100 KB name once cost 10+ s of edit distances). */
const SLOWEST_MS = 5000;

function show(line: string): string {
  return line.length > 400 ? `${line.slice(0, 400)}… (${line.length} chars)` : line;
}

/** Whether the reply says the request failed; throws if the reply is malformed or an internal error. */
function judgeReply(v: number | undefined, line: string, reply: string): boolean {
  const where = `seed ${SEED} (FUZZ_SEED=${SEED} replays), line: ${show(line)}\nreply: ${show(reply)}`;
  if (v === undefined) {
    // A line without a usable `v`: any error, in either style.
    if (!reply.startsWith("error: ") && JSON.parse(reply).type !== "error") throw new Error(`a line without a usable v was not refused — ${where}`);
    return true;
  }
  if (v < 6 && reply === "ok") return false;
  if (v < 6 && reply.startsWith("error: ")) {
    if (/internal/i.test(reply)) throw new Error(`internal error — ${where}`);
    stats.codes["(plain)"] = (stats.codes["(plain)"] ?? 0) + 1;
    return true;
  }
  let r: AnyReply;
  try {
    r = JSON.parse(reply);
  } catch {
    throw new Error(`reply is not JSON — ${where}`);
  }
  if (typeof r !== "object" || r === null || typeof r.type !== "string") throw new Error(`reply has no type — ${where}`);
  if (r.v !== (v >= 6 ? 6 : 5)) throw new Error(`reply at the wrong version — ${where}`);
  if (r.type !== "error") return false;
  if (typeof r.message !== "string" || !r.message) throw new Error(`error without a message — ${where}`);
  if (v >= 6) {
    const code = String(r.code);
    if (!(code in ERROR_CODES)) throw new Error(`unknown error code ${code} — ${where}`);
    if (code === "internal") throw new Error(`internal error — ${where}`);
    stats.codes[code] = (stats.codes[code] ?? 0) + 1;
  } else {
    if (/internal/i.test(r.message)) throw new Error(`internal error — ${where}`);
    stats.codes["(v5 json)"] = (stats.codes["(v5 json)"] ?? 0) + 1;
  }
  return true;
}

let current: { model: string } | undefined;
/** The fuzz line being answered, for reports of a slow answer to another client. */
let inFlight = "";

/** The pids of the model's panes: the daemon's children must be exactly these. */
function panePids(modelJson: string): string {
  return (JSON.parse(modelJson).panes as { pid: number }[]).map((p) => p.pid).sort((a, b) => a - b).join(" ");
}

/** The daemon's children come to match the model's panes (a closed pane's program takes a moment to go). */
async function childrenMatch(modelJson: string, what: string): Promise<void> {
  const want = panePids(modelJson);
  let got = "";
  await waitFor(`the daemon's children (${what}) to be its panes' programs ${want}`, () => (got = children()) === want, 5000).catch((e) => {
    throw new Error(`${(e as Error).message}; children: ${got}`);
  });
}

/** Send one fuzz line and check the daemon's answer and, for a failure, that nothing changed. */
async function exchange(m: MessageEntry, v: number | undefined, line: string): Promise<void> {
  // Within the 1 MiB line limit (over it the connection is closed, as bad-input.test.ts checks).
  if (Buffer.byteLength(line) > 1024 * 1024) return;
  if (!current) {
    current = { model: await model() };
    await childrenMatch(current.model, "before a request");
  }
  const logFrom = statSync(log).size;
  let reply: string;
  inFlight = line;
  const sentAt = performance.now();
  try {
    reply = await client.send(line);
  } catch (e) {
    throw new Error(`${(e as Error).message} — seed ${SEED}, line: ${show(line)}`);
  }
  stats.lines++;
  const took = performance.now() - sentAt;
  if (took > stats.slowest.ms) stats.slowest = { ms: took, line: show(line).slice(0, 200) };
  let failed = judgeReply(v, line, reply);
  const afterModel = await model(); // also a barrier: a non-request's action has run by now
  const logged = logSince(logFrom);
  if (/handler failed|internal error|connection failed/i.test(logged)) throw new Error(`the daemon logged a failure — seed ${SEED}, line: ${show(line)}\nlog: ${show(logged)}`);
  // A non-request is answered `ok` before it acts; its failure shows only in the log.
  if (!m.request && !failed && logged.includes(`${m.type} failed:`)) {
    failed = true;
    stats.actionsFailed++;
  }
  if (failed) {
    stats.errors++;
    stats.noTraceChecks++;
    const before = current;
    // A long-running request that ran out of time did run (an ask was in the inbox until then and
    // its events were sent): its events may move the sequence number, and nothing else may change.
    const ranOut = m.longRunning && /"code":"timeout"/.test(reply);
    const same = (a: string, b: string) => (ranOut ? a.replace(/"seq":\d+/, "") === b.replace(/"seq":\d+/, "") : a === b);
    // A failure found here must not make every later line fail too: start afresh after it.
    if (!same(afterModel, before.model)) current = undefined;
    if (!same(afterModel, before.model)) throw new Error(`a failed request changed the model — seed ${SEED}, line: ${show(line)}\nreply: ${show(reply)}\nbefore: ${before.model}\nafter:  ${afterModel}`);
    await childrenMatch(before.model, `after a failed request, seed ${SEED}, line: ${show(line)}`).catch((e) => {
      current = undefined;
      throw e;
    });
    // What the next failure is held to: the model with those events' sequence number.
    if (ranOut) current = { model: afterModel };
    return;
  }
  if (process.env.FUZZ_SHOW_OK) console.log(`ok: ${show(line).slice(0, 300)} -> ${show(reply).slice(0, 120)}`);
  await backToBaseline();
  current = undefined;
}

beforeAll(async () => {
  s = new TestServer();
  // Every pane, the shell ones included, runs a program that ignores what it reads and echoes
  // nothing: fuzzed text that happens to be valid runs nothing and changes no screen.
  quiet = join(s.root, "quiet");
  writeFileSync(quiet, "#!/bin/sh\nstty raw -echo 2>/dev/null\nexec cat >/dev/null\n");
  chmodSync(quiet, 0o755);
  s.env.SHELL = quiet;
  await s.start();
  pid = s.daemonPid()!;
  log = join(s.root, "state", "ws", "default.log");
  client = new LineClient();
  base = { panes: new Set(), targets: [], keepTab: 0 };
  await makeTargets();
});
afterAll(async () => {
  client?.close();
  await s.stop();
});

// One test per message: each is short, so a slow machine stretches none of them past its timeout
// (a test that ran out of time would go on sending beside the next one and blame it).
let systematicId = 0;
const systematicStarted = Date.now();
for (const m of FUZZED)
  test(`every field of ${m.type}, each given every extreme value, at v6`, async () => {
    const names = Object.keys(m.fields);
    // A message without fields is sent with unknown ones (v6 refuses them).
    const slots = names.length ? names : ["unknown_field", "__proto__"];
    for (const name of slots) {
      const spec = m.fields[name];
      // A third of the values per field (all of them over the fields), the big ones always.
      const values = spec?.type === "object" ? [...treeExtremes(), ...EXTREMES.filter((_, i) => i % 4 === 0)] : EXTREMES.filter((x, i) => i % 3 === systematicId % 3 || x.length > 10_000);
      for (const value of values) await exchange(m, 6, lineFor(m, 6, ++systematicId, { [name]: value }));
    }
    expect(processAlive(pid)).toBe(true);
  }, 60_000);

test("every request message was answered in time, and some non-requests failed in their action", () => {
  console.log(`systematic: ${stats.lines} lines, ${stats.errors} errors checked for no trace (${stats.actionsFailed} of them non-requests whose action failed after their ok), ${((Date.now() - systematicStarted) / 1000).toFixed(1)} s`);
  console.log(`slowest answer: ${stats.slowest.ms.toFixed(0)} ms, to ${stats.slowest.line}`);
  expect(stats.lines).toBeGreaterThan(FUZZED.length);
  expect(stats.slowest.ms).toBeLessThan(SLOWEST_MS);
  // The missing-program and bad-cwd cases of open_tab reach its action and fail there.
  expect(stats.actionsFailed).toBeGreaterThan(0);
});

/** A raw value as JSON reads it (undefined: nested deeper than this parser goes). */
function parsed(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return undefined;
  }
}

test("attach with a size no terminal has is refused before it takes the connection, and leaves no trace", async () => {
  // attach has its own fuzz (attach-fuzz.test.ts); here only the sizes its request line carries.
  const attach = MESSAGES.find((m) => m.type === "attach")!;
  let n = 0;
  for (const field of ["cols", "rows"])
    for (const value of EXTREMES) {
      const p = parsed(value);
      if (Number.isSafeInteger(p) && (p as number) >= 0 && (p as number) <= 65535) continue; // a real size attaches
      for (const v of [1, 6]) {
        const line = lineFor(attach, v, ++n, { [field]: value });
        await exchange(attach, v, line);
        expect(current).toBeDefined(); // answered with an error, so checked for no trace
      }
    }
});

test("the envelope's own fields: every extreme value for `type`, `id` and `v`", async () => {
  const list = FUZZED.find((m) => m.type === "workspace_list")!;
  let n = 0;
  for (const value of EXTREMES) {
    const p = parsed(value);
    // An unknown `type` is answered with the closest known one: that search must stay cheap.
    await exchange(list, undefined, `{"v":6,"id":${++n},"type":${value}}`);
    // A string or number `id` is echoed; anything else is refused (`undefined`: must be an error).
    await exchange(list, typeof p === "string" || typeof p === "number" ? 6 : undefined, `{"v":6,"id":${value},"type":"workspace_list"}`);
    const v = typeof p === "number" && Number.isInteger(p) && p >= 1 && p <= 6 ? p : undefined;
    await exchange(list, v, `{"v":${value},"id":${++n},"type":"workspace_list"}`);
  }
  console.log(`slowest answer: ${stats.slowest.ms.toFixed(0)} ms, to ${stats.slowest.line}`);
  expect(stats.slowest.ms).toBeLessThan(SLOWEST_MS);
});

test(`random lines (seed ${SEED}): several fields wrong at once, older versions, odd envelopes`, async () => {
  const started = Date.now();
  const before = stats.lines;
  for (let i = 0; i < RANDOM_LINES; i++) {
    const m = pick(FUZZED);
    const v = versionFor(m);
    const names = Object.keys(m.fields);
    const wrong: Record<string, string> = {};
    const k = rand() < 0.7 ? 1 : 2 + rnd(2);
    for (let n = 0; n < k && names.length; n++) {
      const name = pick(names);
      setOwn(wrong, name, extremeValue(m.fields[name]!));
    }
    if (rand() < 0.1 || !names.length) setOwn(wrong, pick(["extra", "", "\u0000", "id2", "__proto__", "constructor"]), pick(EXTREMES));
    let line = lineFor(m, v, i, wrong);
    // Odd envelopes: an `id` of every kind, a second `v` (JSON's last one wins; a bad one gets the
    // plain error every version understands).
    let answeredAt: number | undefined = v;
    if (rand() < 0.05) line = line.replace(/\}$/, `,"id":${pick(EXTREMES)}}`);
    if (rand() < 0.03) {
      const second = pick(["6", "5", "1", "0", "7", '"6"', "6.5", "null"]);
      line = line.replace(/\}$/, `,"v":${second}}`);
      answeredAt = /^[1-6]$/.test(second) ? Number(second) : undefined;
    }
    await exchange(m, answeredAt, line);
    if (i % 250 === 0) expect(processAlive(pid)).toBe(true);
  }
  console.log(`random: ${stats.lines - before} lines in ${((Date.now() - started) / 1000).toFixed(1)} s; errors by code: ${j(stats.codes)}`);
  expect(stats.noTraceChecks).toBeGreaterThan(1000);
  console.log(`slowest answer: ${stats.slowest.ms.toFixed(0)} ms, to ${stats.slowest.line}`);
  expect(stats.slowest.ms).toBeLessThan(SLOWEST_MS);
}, 120_000);

test("another client is answered quickly throughout a burst, and the daemon's memory comes back", async () => {
  const baseline = rssKb(pid);
  let stop = false;
  const latencies: number[] = [];
  const slow: string[] = [];
  const prober = (async () => {
    while (!stop) {
      const t = performance.now();
      const during = inFlight;
      const r = await s.v6({ type: "workspace_list" }).catch((e) => ({ type: `no answer (${(e as Error).message}) while the fuzz sent ${show(during)}` }));
      expect(r.type).toBe("workspaces");
      const took = performance.now() - t;
      latencies.push(took);
      if (took > 1000) slow.push(`${took.toFixed(0)} ms while the fuzz sent ${show(during).slice(0, 200)}`);
      await Bun.sleep(10); // pacing, not synchronisation
    }
  })();
  // The heaviest lines: 100 KB strings, deep nesting, huge trees, on a second connection too.
  const heavy = [...EXTREMES.filter((x) => x.length > 10_000), ...treeExtremes().filter((x) => x.length > 10_000)];
  let peak = baseline;
  try {
    for (let i = 0; i < 150; i++) {
      const m = pick(FUZZED.filter((x) => Object.keys(x.fields).length));
      const name = pick(Object.keys(m.fields));
      await exchange(m, 6, lineFor(m, 6, i, { [name]: pick(heavy) }));
      if (i % 20 === 0) peak = Math.max(peak, rssKb(pid));
    }
  } finally {
    stop = true;
    await prober;
  }
  latencies.sort((a, b) => a - b);
  const p50 = latencies[latencies.length >> 1]!;
  const max = latencies[latencies.length - 1]!;
  let now = rssKb(pid);
  await waitFor(`daemon RSS near its baseline ${baseline} kB (now ${now} kB)`, () => (now = rssKb(pid)) < baseline + 32 * 1024, 30000, 250);
  console.log(`workspace_list from another client: ${latencies.length} answers, p50 ${p50.toFixed(1)} ms, max ${max.toFixed(1)} ms; RSS ${baseline} kB → peak ${peak} kB → ${now} kB`);
  if (slow.length) console.log(`slow answers:\n${slow.join("\n")}`);
  expect(latencies.length).toBeGreaterThan(10);
  expect(p50).toBeLessThan(250);
  expect(max).toBeLessThan(3000);
  expect(processAlive(pid)).toBe(true);
}, 120_000);
