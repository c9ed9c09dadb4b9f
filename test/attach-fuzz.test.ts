// Attach-stream fuzz: over 20,000 frames from attach clients — every event shape with wrong types
// and extreme values, random payloads, unknown kinds, random byte streams, truncated frames and
// oversized length prefixes — against the real daemon. It lives through it, a control client
// keeps working the whole time, and its memory comes back near where it started.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { TestServer, processAlive, rssKb, waitFor } from "./harness";
import { RawAttach } from "./raw-attach";
import { checkTermEvent } from "../src/protocol/events";
import { encodeFrame, FRAME_EVENT, FRAME_HEADER, MAX_FRAME_PAYLOAD } from "../src/protocol/frames";

let s: TestServer;
let pid: number;
beforeAll(async () => {
  // The first pane runs cat, not a shell: fuzzed keys that happen to be valid must not run anything.
  s = await new TestServer({ env: { SHELL: "/bin/cat" } }).start();
  pid = s.daemonPid()!;
  await s.request({ v: 1, type: "split", pane: 1, cwd: "/tmp", command: ["sh", "-c", "exec cat"], focus: false });
});
afterAll(() => s.stop());

// A seeded generator: a failure can be replayed.
let seed = 0x5eed;
const rnd = (n: number) => {
  seed = (seed * 1103515245 + 12345) & 0x7fffffff;
  return seed % n;
};
const pick = <T>(xs: readonly T[]): T => xs[rnd(xs.length)]!;
const bytes = (n: number) => Uint8Array.from({ length: n }, () => rnd(256));

/** Values that are wrong for some field, or at the edge of a range. */
const NASTY: unknown[] = [
  null, true, false, 0, -1, 1.5, 65535, 65536, -65536, 2147483647, 2 ** 53, 1e308, -1e308, "", "a", "ab", "\u0000",
  "\ud800", "😀😀", "x".repeat(5000), "SHIFT | BOGUS", "NONE", "0xff", "CONTROL|||", [], [1], [1, 2, 3], [null, null],
  ["a", null], [{}, []], [1e308, 5], [100000, 100000], {}, { Char: "a" }, { F: 999 }, { Down: "Nose" }, { Down: 1 },
  { __proto__: 1 }, "Press", "Left", { Media: "Eject" }, JSON.parse('{"__proto__":{"x":1}}'),
];
// Valid events to start from; `mutated` breaks their fields, so they are plain records here.
const TEMPLATES: (() => Record<string, unknown>)[] = [
  () => ({ Key: { code: { Char: "a" }, modifiers: "", kind: "Press", state: "" } }),
  () => ({ Key: { code: "Left", modifiers: "SHIFT | ALT", kind: "Press", state: "KEYPAD" } }),
  () => ({ Key: { code: { F: 5 }, modifiers: "", kind: "Release", state: "" } }),
  () => ({ Key: { code: { Media: "Play" }, modifiers: "", kind: "Press", state: "" } }),
  () => ({ Mouse: { kind: { Down: "Left" }, column: 10, row: 3, modifiers: "" } }),
  () => ({ Mouse: { kind: "ScrollUp", column: 10, row: 3, modifiers: "CONTROL" } }),
  () => ({ Paste: "text" }),
  () => ({ Resize: [120, 40] }),
];

/** An event with one part (or the whole) replaced by a nasty value. */
function mutated(): unknown {
  const ev = pick(TEMPLATES)();
  const r = rnd(10);
  if (r === 0) return pick(NASTY);
  if (r === 1) return { [Object.keys(ev)[0]!]: pick(NASTY) };
  const body: unknown = Object.values(ev)[0];
  if (Array.isArray(body)) body[rnd(2)] = pick(NASTY);
  else if (typeof body === "object" && body !== null) {
    const fields = body as Record<string, unknown>;
    const key = pick(Object.keys(fields));
    const inner = fields[key];
    if (typeof inner === "object" && inner !== null && rnd(2)) (inner as Record<string, unknown>)[Object.keys(inner)[0]!] = pick(NASTY);
    else fields[key] = pick(NASTY);
    if (rnd(4) === 0) fields[pick(["extra", "code", "kind"])] = pick(NASTY);
  }
  return ev;
}

/** A valid event that can't run anything: no Ctrl (the prefix), small resizes, text into cat. */
function safeValid(): unknown {
  const r = rnd(10);
  if (r < 5) return { Key: { code: { Char: String.fromCharCode(97 + rnd(26)) }, modifiers: "", kind: "Press", state: "" } };
  if (r < 7) return { Mouse: { kind: pick(["Moved", "ScrollDown", { Down: "Left" }, { Up: "Left" }] as const), column: rnd(65536), row: rnd(65536), modifiers: "" } };
  if (r < 8) return { Paste: "pasted " + rnd(1000) };
  if (r < 9) return pick(["FocusGained", "FocusLost"]);
  return { Resize: [20 + rnd(200), 5 + rnd(60)] };
}

/** One EVENT frame's payload: mostly broken events, some random bytes, a few valid ones. */
function eventPayload(): string | Uint8Array {
  const r = rnd(100);
  if (r < 70) {
    const ev = mutated();
    // A mutation can land on a valid event; keep only valid ones that can't run commands.
    const c = checkTermEvent(ev);
    return "event" in c && typeof c.event === "object" && ("Key" in c.event || "Resize" in c.event) ? JSON.stringify(safeValid()) : JSON.stringify(ev);
  }
  if (r < 80) return bytes(rnd(64));
  if (r < 85) return JSON.stringify(mutated()).slice(0, rnd(20)); // truncated JSON
  if (r < 88) return "[".repeat(5000 + rnd(50000)); // deep nesting
  return JSON.stringify(safeValid());
}

/** A frame as it should be framed, of any kind: EVENT mostly, the rest unknown or server-only kinds. */
function wellFramed(): Uint8Array {
  const r = rnd(100);
  if (r < 90) return encodeFrame(FRAME_EVENT, eventPayload());
  return encodeFrame(pick([0, 1, 3, 7, 255]), bytes(rnd(100)));
}

/** The control client: a request and a pane's echo, each answered. */
async function controlWorks(word: string) {
  expect(processAlive(pid)).toBe(true);
  expect((await s.list()).map((w) => w.name)).toEqual(["main"]);
  expect(await s.request({ v: 2, type: "pane_send", pane: 2, text: `${word}\n` })).toMatchObject({ type: "ok" });
  await s.waitScreen(2, word);
}

async function attach(): Promise<RawAttach> {
  const c = await RawAttach.open(s.sock, { v: 1, type: "attach", cols: 100, rows: 30 });
  await c.firstFrame();
  expect(c.refusal).toBe("");
  return c;
}

test("20,000+ fuzzed attach frames: the daemon lives, a control client keeps working, memory comes back", async () => {
  // Warm up (first attach, first frames, a few resizes) before taking the baseline.
  const warm = await attach();
  for (let i = 0; i < 5; i++) await warm.redrawAfterResize(80 + i, 24);
  warm.close();
  await controlWorks("warm");
  const baseline = rssKb(pid);
  let peak = baseline;
  let frames = 0;
  const t0 = performance.now();

  // Well-framed streams with fuzzed payloads: after each batch a resize proves the server read it all.
  for (let round = 0; round < 8; round++) {
    const c = await attach();
    for (let i = 0; i < 2400; i++, frames++) c.write(wellFramed());
    await c.flush();
    await c.redrawAfterResize(90 + round, 25, 20000);
    frames++;
    expect(c.closed).toBe(false);
    peak = Math.max(peak, rssKb(pid));
    await controlWorks(`round-${round}`);
    c.close();
  }

  // Streams whose framing breaks: the server closes each, nothing else.
  const broken: (() => Uint8Array[])[] = [
    // Random bytes: any header they make up is skipped, waited on, or refused.
    () => [bytes(1 + rnd(4096))],
    // A good frame cut short, then the client goes.
    () => {
      const f = wellFramed();
      return [f.subarray(0, rnd(f.length))];
    },
    // A length over the limit: refused at once.
    () => {
      const h = new Uint8Array(FRAME_HEADER);
      h[0] = FRAME_EVENT;
      new DataView(h.buffer).setUint32(1, MAX_FRAME_PAYLOAD + 1 + rnd(1 << 30));
      return [h, bytes(rnd(100))];
    },
    // A big allowed length, part of its payload, then the client goes.
    () => {
      const h = new Uint8Array(FRAME_HEADER);
      h[0] = FRAME_EVENT;
      new DataView(h.buffer).setUint32(1, MAX_FRAME_PAYLOAD);
      return [h, new Uint8Array(2 * 1024 * 1024).fill(0x20)];
    },
  ];
  for (let i = 0; i < 120; i++) {
    const c = await attach();
    const kind = i % broken.length;
    for (let j = 0; j < 10; j++, frames++) c.write(wellFramed());
    for (const b of broken[kind]!()) c.write(b);
    frames++;
    await c.flush();
    if (kind === 2) await waitFor("the server to close an oversized frame's connection", () => c.closed);
    c.close();
    if (i % 10 === 0) peak = Math.max(peak, rssKb(pid));
  }
  await controlWorks("after-broken");

  // An attach after all that works as the first did.
  const last = await attach();
  await last.redrawAfterResize(111, 33);
  last.close();
  const ms = Math.round(performance.now() - t0);
  expect(frames).toBeGreaterThanOrEqual(20_000);

  // Memory comes back near the baseline: within 32 MB once the daemon's collector has run (on its
  // own schedule: an idle daemon takes up to ~10 s). The peak stays bounded meanwhile.
  expect(peak - baseline).toBeLessThan(200 * 1024);
  let now = rssKb(pid);
  await waitFor(`daemon RSS near its baseline ${baseline} kB (now ${now} kB)`, () => (now = rssKb(pid)) < baseline + 32 * 1024, 30000, 250);
  console.log(`attach fuzz: ${frames} frames in ${ms} ms; daemon RSS baseline ${Math.round(baseline / 1024)} MB, peak ${Math.round(peak / 1024)} MB, after ${Math.round(now / 1024)} MB`);
  await controlWorks("end");
}, 120_000);
