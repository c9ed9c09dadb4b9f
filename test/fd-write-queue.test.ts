// FdWriteQueue (src/model/fd-write-queue.ts) on a real non-blocking fd: a FIFO, whose kernel buffer
// (64 KiB on Linux) fills like a PTY's whose program is not reading. What the fd does not take
// waits, in order, and goes when the reader reads; the limit bounds what waits; a hung-up fd ends it.
import { afterEach, beforeEach, expect, test } from "bun:test";
import { closeSync, constants, mkdtempSync, openSync, readSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FdWriteQueue } from "../src/model/fd-write-queue";
import { libc } from "../src/platform/pty-libc";
import { waitFor } from "./harness";

const c = libc();
const linux = c !== undefined;
let dir: string;
let reader: number;
let writer: number;

beforeEach(() => {
  if (!linux) return;
  dir = mkdtempSync(join(tmpdir(), "ws-fdq-"));
  const fifo = join(dir, "fifo");
  Bun.spawnSync(["mkfifo", fifo]);
  reader = openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK);
  writer = openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK);
});
afterEach(() => {
  if (!linux) return;
  for (const fd of [reader, writer])
    try {
      closeSync(fd);
    } catch {}
  rmSync(dir, { recursive: true, force: true });
});

/** Everything the FIFO holds now. */
function drain(): Uint8Array {
  const chunks: Uint8Array[] = [];
  const buf = new Uint8Array(64 * 1024);
  for (;;) {
    let n: number;
    try {
      n = readSync(reader, buf);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === "EAGAIN") break;
      throw e;
    }
    if (n <= 0) break;
    chunks.push(buf.slice(0, n));
  }
  return Buffer.concat(chunks);
}

const pattern = (n: number, seed: number) => Uint8Array.from({ length: n }, (_, i) => (i * 7 + seed) & 0xff);

test.skipIf(!linux)("a write the fd takes part of: the rest waits, in order, and goes as the reader reads", async () => {
  let errors = 0;
  const q = new FdWriteQueue(c!, writer, { retryMs: 5, onError: () => errors++ });
  const a = pattern(200_000, 1);
  const b = pattern(50_000, 2);
  q.write(a);
  const waiting = q.queuedBytes;
  expect(waiting).toBeGreaterThan(0); // the FIFO took only its buffer's worth
  expect(waiting).toBeLessThan(a.length);
  expect(q.blockedSince).toBeNumber();
  const reused = b.slice();
  q.write(reused);
  reused.fill(0); // the queue kept a copy
  expect(q.queuedBytes).toBe(waiting + b.length);
  const drained = q.drained();
  const got: Uint8Array[] = [];
  await waitFor("everything written", () => {
    got.push(drain());
    return q.queuedBytes === 0;
  });
  await drained;
  got.push(drain());
  expect(Buffer.concat(got).equals(Buffer.concat([a, b]))).toBe(true);
  expect(q.blockedSince).toBeUndefined();
  expect(errors).toBe(0);
});

test.skipIf(!linux)("the limit bounds what waits: a write past it is dropped whole, later ones that fit still go", async () => {
  const q = new FdWriteQueue(c!, writer, { retryMs: 5, limit: 10_000, onError: () => {} });
  const first = pattern(70_000, 3);
  q.write(first); // the FIFO takes 64 KiB; the rest (under the limit) waits
  const waiting = q.queuedBytes;
  expect(waiting).toBeGreaterThan(0);
  expect(waiting).toBeLessThanOrEqual(10_000);
  q.write(pattern(10_000, 4)); // waiting + this would pass the limit: dropped whole
  expect(q.queuedBytes).toBe(waiting);
  const last = pattern(10_000 - waiting, 5); // exactly up to the limit: kept
  q.write(last);
  expect(q.queuedBytes).toBe(10_000);
  const got: Uint8Array[] = [];
  await waitFor("what waits to be written", () => {
    got.push(drain());
    return q.queuedBytes === 0;
  });
  got.push(drain());
  expect(Buffer.concat(got).equals(Buffer.concat([first, last]))).toBe(true);
});

test.skipIf(!linux)("with nothing waiting, what the fd did not take of a write too big for the limit is dropped", () => {
  const q = new FdWriteQueue(c!, writer, { retryMs: 5, limit: 1000, onError: () => {} });
  const big = pattern(100_000, 6);
  q.write(big);
  expect(q.queuedBytes).toBe(0);
  const got = drain();
  expect(got.length).toBeGreaterThan(0);
  expect(got.length).toBeLessThan(big.length);
  expect(Buffer.from(got).equals(Buffer.from(big.subarray(0, got.length)))).toBe(true);
});

test.skipIf(!linux)("stop drops what waits and writes nothing more; a hung-up fd calls onError once and drops its queue", async () => {
  const q = new FdWriteQueue(c!, writer, { retryMs: 5, onError: () => {} });
  q.write(pattern(100_000, 7));
  expect(q.queuedBytes).toBeGreaterThan(0);
  const drained = q.drained();
  q.stop();
  await drained; // waiters are released
  expect(q.queuedBytes).toBe(0);
  drain();
  q.write(pattern(10, 8));
  expect(drain().length).toBe(0);

  let errors = 0;
  const q2 = new FdWriteQueue(c!, writer, { retryMs: 5, onError: () => errors++ });
  q2.write(pattern(100_000, 9));
  expect(q2.queuedBytes).toBeGreaterThan(0);
  closeSync(reader); // the reader goes: the next write fails for good (EPIPE)
  await waitFor("the error to be seen", () => errors > 0);
  expect(q2.queuedBytes).toBe(0);
  expect(q2.blockedSince).toBeUndefined();
  expect(errors).toBe(1);
});
