// Bounds in the tmux shim: `send-keys -N 100000000 x` is refused instead of
// building 1.78 GB of keys; named buffers have a count and a total size limit, kept by the daemon,
// and `list-buffers` sends no text; `load-buffer` and `paste-buffer` of a 2 MB buffer arrive whole
// (in pieces: a line is 1 MiB); after the server quits, its buffers, its shim directory and the
// shell-integration files are gone.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT, TestServer, rssKb, waitFor, type RunResult } from "./harness";
import { MAX_SENT_BYTES } from "../src/tmux-shim/cmd/panes";
import { pieces } from "../src/tmux-shim/state";
import { BUFFER_MAX_BYTES, BUFFERS_TOTAL_BYTES, NAMED_BUFFER_LIMIT } from "../src/features/shim-store";

const READER = join(ROOT, "test/fixtures/raw-reader.py");
let s: TestServer;
let reader: number;
let out: string;
let shimEnv: Record<string, string>;

beforeAll(async () => {
  s = await new TestServer().start();
  out = join(s.root, "reader.bytes");
  const first = (await s.v6({ type: "pane_list" })).panes[0]!.pane;
  reader = (await s.v6({ type: "split", pane: first, right: true, cwd: s.root, command: ["python3", READER, out], focus: false })).pane;
  await waitFor("the raw reader", async () => (await s.v6({ type: "pane_read", pane: reader })).text.includes("raw reader ready"));
  const r = await s.run(["tmux-shim", "--", "sh", "-c", 'printf "%s\\n" "$PATH" "$TMUX"'], { env: { WS_PANE_ID: String(reader), WS_SOCKET: s.sock } });
  expect(r.code).toBe(0);
  const [path, tmuxVar] = r.stdout.split("\n");
  shimEnv = { ...s.env, PATH: path!, TMUX: tmuxVar!, TMUX_PANE: `%${reader}`, WS_PANE_ID: String(reader), WS_SOCKET: s.sock };
});
afterAll(() => s.stop());

async function tmux(args: string[], limitMs = 60_000): Promise<RunResult & { ms: number }> {
  const began = performance.now();
  const p = Bun.spawn([Bun.which("tmux", { PATH: shimEnv.PATH })!, ...args], { env: shimEnv, cwd: s.root, stdout: "pipe", stderr: "pipe", stdin: "ignore" });
  const timer = setTimeout(() => p.kill("SIGKILL"), limitMs);
  const [stdout, stderr, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
  clearTimeout(timer);
  return { code, stdout, stderr, ms: performance.now() - began };
}
async function ok(args: string[]): Promise<string> {
  const r = await tmux(args);
  if (r.code !== 0) throw new Error(`tmux ${args.join(" ")} exited ${r.code}: ${r.stderr}`);
  return r.stdout;
}
const received = () => (existsSync(out) ? readFileSync(out) : Buffer.alloc(0));

test("send-keys -N 100000000 x is refused at once; a large -N within the limit arrives whole", async () => {
  const r = await tmux(["send-keys", "-N", "100000000", "-t", `%${reader}`, "x"], 30_000);
  expect(r.code).toBe(1);
  expect(r.stderr).toContain("repeat count 100000000 too large: 100000000 keys (at most 1000000 a send-keys)");
  expect(r.ms).toBeLessThan(10_000);
  expect(received().length).toBe(0); // nothing was sent
  // 25,000 presses of two keys: 5 requests of 10,000, made one at a time.
  await ok(["send-keys", "-N", "25000", "-t", `%${reader}`, "a", "b"]);
  await waitFor("50,000 keys at the reader", () => received().length >= 50_000, 30_000);
  expect(received().toString("latin1")).toBe("ab".repeat(25_000));
}, 60_000);

test("send-keys -N 999999 -l with a 100 KB key is refused by its size before a key is built", async () => {
  const key = "k".repeat(100_000);
  const before = received().length;
  const p = Bun.spawn([Bun.which("tmux", { PATH: shimEnv.PATH })!, "send-keys", "-N", "999999", "-l", "-t", `%${reader}`, key], { env: shimEnv, cwd: s.root, stdout: "pipe", stderr: "pipe", stdin: "ignore" });
  let peakKb = 0;
  const sample = setInterval(() => {
    try {
      peakKb = Math.max(peakKb, rssKb(p.pid));
    } catch {} // it ended between two samples
  }, 10);
  // A deadline, not a wait: a shim still growing at 30 s is killed and the assertion below fails.
  const timer = setTimeout(() => p.kill("SIGKILL"), 30_000);
  const [stderr, code] = await Promise.all([new Response(p.stderr).text(), p.exited]);
  clearTimeout(timer);
  clearInterval(sample);
  expect(p.signalCode).toBeNull(); // not killed at the deadline
  expect(code).toBe(1);
  const bytes = 999_999 * (key.length + 2); // each key as it goes in a request: a JSON string
  expect(stderr).toContain(`repeat count 999999 too large: ${bytes} bytes of keys (at most ${MAX_SENT_BYTES} a send-keys)`);
  expect(peakKb).toBeLessThan(256 * 1024); // gigabytes before the size came first
  expect(received().length).toBe(before); // nothing was sent
  // Within the bound, a long key is sent whole, a few per request: 40 of 100 KB each.
  await ok(["send-keys", "-N", "40", "-l", "-t", `%${reader}`, key]);
  await waitFor("40 long keys at the reader", () => received().length >= before + 40 * key.length, 30_000);
  expect(received().subarray(before).toString("latin1")).toBe(key.repeat(40));
}, 60_000);

describe("paste buffers", () => {
  test("pieces: each fits the line, none splits a surrogate pair, together they are the text", () => {
    const text = `a"\\\n😀é\x01`.repeat(50_000);
    const parts = pieces(text, 4096);
    expect(parts.join("")).toBe(text);
    for (const p of parts) {
      expect(Buffer.byteLength(JSON.stringify(p))).toBeLessThanOrEqual(4096 + 2);
      expect(/^[\udc00-\udfff]/.test(p)).toBe(false);
    }
  });

  test("paste-buffer of a 2 MB buffer arrives whole", async () => {
    const before = received().length;
    const line = "paste line with ünïcödé and 😀 — ";
    const lines: string[] = [];
    for (let bytes = 0; bytes < 2 * 1024 * 1024; ) {
      lines.push(`${line}${lines.length}\n`);
      bytes += Buffer.byteLength(lines[lines.length - 1]!);
    }
    const text = lines.join("");
    const file = join(s.root, "two-mb.txt");
    writeFileSync(file, text);
    await ok(["load-buffer", "-b", "big", file]);
    const r = await tmux(["paste-buffer", "-b", "big", "-t", `%${reader}`]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    const want = Buffer.from(text.replace(/\n/g, "\r"));
    // The reader asked for bracketed paste: the text comes in brackets, one per piece.
    const content = () => Buffer.from(received().subarray(before).toString("latin1").replace(/\x1b\[20[01]~/g, ""), "latin1");
    await waitFor("the 2 MB paste at the reader", () => content().length >= want.length, 60_000);
    expect(content().equals(want)).toBe(true);
    expect(received().subarray(before, before + 6).toString()).toBe("\x1b[200~");
    await ok(["delete-buffer", "-b", "big"]);
  }, 120_000);

  test(`at most ${NAMED_BUFFER_LIMIT} named buffers; list-buffers stays small`, async () => {
    // One call, commands split by `;` as tmux takes them (a process per command is slow here).
    const each = (f: (i: number) => string[]) => Array.from({ length: NAMED_BUFFER_LIMIT }, (_, i) => [...f(i), ";"]).flat().slice(0, -1);
    await ok(each((i) => ["set-buffer", "-b", `n${i}`, `text ${i}`]));
    const r = await tmux(["set-buffer", "-b", "one-too-many", "x"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`too many named buffers (at most ${NAMED_BUFFER_LIMIT}); delete-buffer one first`);
    // Replacing one that exists is fine; automatic buffers still come and go.
    await ok(["set-buffer", "-b", "n0", "again"]);
    await ok(["set-buffer", "automatic"]);
    const list = (await ok(["list-buffers"])).trim().split("\n");
    expect(list.length).toBe(NAMED_BUFFER_LIMIT + 1);
    expect(list).toContain('n0: 5 bytes: "again"');
    await ok(each((i) => ["delete-buffer", "-b", `n${i}`]));
    expect((await ok(["list-buffers"])).trim().split("\n")).toEqual(['buffer0: 9 bytes: "automatic"']);
  }, 120_000);

  test("the issue's 12 × 16 MB load-buffer: refused past the total; list-buffers stays quick and small", async () => {
    const size = BUFFER_MAX_BYTES - 1024;
    const file = join(s.root, "sixteen.txt");
    writeFileSync(file, Buffer.alloc(size, "z"));
    const fit = Math.floor(BUFFERS_TOTAL_BYTES / size);
    const results: RunResult[] = [];
    for (let i = 0; i < 12; i++) results.push(await tmux(["load-buffer", "-b", `big${i}`, file]));
    expect(results.slice(0, fit).map((r) => r.code)).toEqual(Array(fit).fill(0));
    for (const r of results.slice(fit)) {
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(`buffers would hold over ${BUFFERS_TOTAL_BYTES} bytes`);
    }
    const list = await tmux(["list-buffers"]);
    expect(list.code).toBe(0);
    expect(list.stdout).toContain(`big0: ${size} bytes: "${"z".repeat(50)}"`);
    expect(list.ms).toBeLessThan(10_000);
    expect(list.stdout.length).toBeLessThan(64 * 1024);
    // A buffer over the per-buffer bound is refused as before.
    writeFileSync(file, Buffer.alloc(BUFFER_MAX_BYTES + 1, "z"));
    const over = await tmux(["load-buffer", "-b", "over", file]);
    expect(over.code).toBe(1);
    expect(over.stderr).toContain("buffer too big");
    // The refused ones left nothing behind; deleting one makes room for another.
    expect((await ok(["list-buffers"])).trim().split("\n").filter((l) => l.startsWith("big")).length).toBe(fit);
    await ok(["delete-buffer", "-b", "big0"]);
    writeFileSync(file, Buffer.alloc(size, "y"));
    await ok(["load-buffer", "-b", "again", file]);
    expect(await ok(["show-buffer", "-b", "again"])).toBe("y".repeat(size) + "\n");
    for (const name of ["again", ...Array.from({ length: fit - 1 }, (_, i) => `big${i + 1}`)]) await ok(["delete-buffer", "-b", name]);
  }, 120_000);
});

test("after the server quits, its shim directory and the shell-integration files are gone", async () => {
  const other = await new TestServer().start();
  try {
    const socketDir = other.socketDir;
    const bash = (await other.v6({ type: "tab_new", command: ["bash", "-i"], cwd: other.root })).pane;
    await waitFor("bash's integration files", () => readdirSync(socketDir).some((n) => n.startsWith("shell-")));
    expect(bash).toBeGreaterThan(0);
    const env = (await other.run(["tmux-shim", "--", "sh", "-c", 'printf "%s\\n" "$PATH" "$TMUX"'], { env: { WS_PANE_ID: String(bash), WS_SOCKET: other.sock } })).stdout.split("\n");
    const shim = Bun.spawn([Bun.which("tmux", { PATH: env[0]! })!, "set-buffer", "-b", "secret", "s3cr3t"], { env: { ...other.env, PATH: env[0]!, TMUX: env[1]!, TMUX_PANE: `%${bash}` }, stdout: "ignore", stderr: "pipe" });
    expect(await shim.exited).toBe(0);
    const tmuxDir = other.sock.replace(/\.sock$/, ".tmux");
    expect(((await other.v6({ type: "shim_buffer_list" })).buffers as { name: string }[]).map((b) => b.name)).toEqual(["secret"]);

    // A second server in the same directory: its shells keep their files while it runs.
    expect((await other.run(["-L", "second", "start"])).code).toBe(0);
    expect((await other.run(["kill-server"])).code).toBe(0);
    await waitFor("the first server's shim directory to go", () => !existsSync(tmuxDir));
    expect(readdirSync(socketDir).some((n) => n.startsWith("shell-"))).toBe(true);
    expect((await other.run(["-L", "second", "kill-server"])).code).toBe(0);
    await waitFor("the shell-integration files to go", () => !readdirSync(socketDir).some((n) => n.startsWith("shell-")));
    expect(readdirSync(socketDir).filter((n) => n.endsWith(".tmux") || n.startsWith("shell-"))).toEqual([]);
  } finally {
    await other.stop();
  }
}, 60_000);
