// What keeps a flood from costing the daemon memory and the person their keys, measured against
// the bounds the mechanisms achieve rather than loose ceilings: a paused PTY reads nothing more;
// a flooding pane's unparsed backlog stays within the pause mark plus what one read brings; a key
// typed beside a flood has its echo parsed before the flood gets the loop again; and typing stops a
// flood's reading too, long before its pause mark.
import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Pane, READ_PAUSE_AT } from "../src/model/pane";
import { inputSent } from "../src/model/parse-slices";
import type { Pty, PtyOptions } from "../src/model/pty";
import { nativePtyAvailable, spawnNativePty } from "../src/model/pty-native";
import { processAlive, waitFor } from "./harness";

const native = nativePtyAvailable() ? test : test.skip;
const dir = mkdtempSync(join(tmpdir(), "ws-backpressure-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", TERM: "xterm-256color", LC_ALL: "C.UTF-8" };

/** One read of the PTY: what Bun's stream hands over at once (its reads are up to 256 KiB). */
const ONE_READ = 256 * 1024;

/** A raw-mode writer (XOFF can't hold it) of numbered lines "F<n>" in 64 KB writes, for ever,
 * until a byte arrives on its input. */
const FLOOD = `import os, select, tty
tty.setraw(0)
n = 0
while not select.select([0], [], [], 0)[0]:
    out = []
    for _ in range(4096):
        out.append(b"F%d\\r\\n" % n)
        n += 1
    buf = memoryview(b"".join(out))
    while buf:
        buf = buf[os.write(1, buf):]
`;

let nextId = 1;
function pane(argv: string[], spawn: (o: PtyOptions) => Pty = spawnNativePty): Pane {
  return new Pane({ id: nextId++, argv, cwd: dir, env, cols: 80, rows: 24 }, spawn);
}

native("a paused PTY reads nothing more until resumed, however fast its program writes", async () => {
  let received = 0;
  const pty = spawnNativePty({ argv: ["python3", "-c", FLOOD], cwd: dir, env, cols: 80, rows: 24, onData: (b) => (received += b.length), onExit: () => {} });
  try {
    await waitFor("the flood to start", () => received > 1024 * 1024, 20_000);
    pty.pause();
    // What was already on its way may still arrive; then reading stops for good.
    let last = -1;
    await waitFor("reading to stop", () => {
      const still = received === last;
      last = received;
      return still;
    }, 10_000, 200);
    const atStop = received;
    await Bun.sleep(300); // a window in which an unpaused reader would take megabytes
    expect(received).toBe(atStop);
    pty.resume();
    await waitFor("reading to go on after resume", () => received > atStop + 1024 * 1024, 20_000);
  } finally {
    pty.write("q");
    pty.kill("SIGKILL");
    await waitFor("the writer to end", () => !processAlive(pty.pid), 10_000);
  }
}, 60_000);

native("a raw-mode flood's unparsed backlog stays within the pause mark plus one read", async () => {
  let most = 0;
  let received = 0;
  const p = pane(["python3", "-c", FLOOD], (o) =>
    spawnNativePty({
      ...o,
      onData: (b) => {
        o.onData(b);
        received += b.length;
        most = Math.max(most, p.backlog);
      },
    }),
  );
  try {
    // Well past the point where reading without a pause would have queued megabytes.
    await waitFor("32 MB of flood", () => received > 32 * 1024 * 1024, 120_000, 50);
    expect(most).toBeGreaterThan(READ_PAUSE_AT);
    expect(most).toBeLessThanOrEqual(READ_PAUSE_AT + ONE_READ);
    // And in bytes, whatever the mark is set to: under 1 MiB (the mark and a read make 512 KiB);
    // reading without pausing queues tens of megabytes here.
    expect(most).toBeLessThan(1024 * 1024);
  } finally {
    p.close();
  }
}, 150_000);

native("a key typed beside a flood: its echo is parsed before the flood gets another slice", async () => {
  // 15 keys, each after the flood has gone on again; for each, how many flood lines were parsed
  // between the key and its echo on screen.
  const flood = pane(["python3", "-c", FLOOD]);
  const typed = pane(["cat"]);
  // The flood's last whole line on screen (the row below it may be one still being written).
  const lastFlood = () => {
    const numbers = flood.readText().flatMap((l) => /^F(\d+)$/.exec(l)?.[1] ?? []).map(Number);
    return numbers.at(-2) ?? 0;
  };
  try {
    await waitFor("the flood to show", () => lastFlood() > 100_000, 60_000, 50);
    const between: number[] = [];
    for (let i = 0; i < 15; i++) {
      const key = String.fromCharCode(97 + i);
      const before = lastFlood();
      typed.write(key);
      await waitFor(`the echo of ${key}`, () => typed.readText().join("").endsWith(key), 10_000, 0);
      between.push(lastFlood() - before);
      await waitFor("the flood to go on", () => lastFlood() > before + 1000, 20_000, 5);
    }
    // Held for the echo, the flood parses nothing in between, unless the echo took longer than the
    // hold (a loaded machine); without the hold every key lets it parse a slice or more.
    expect(between.filter((lines) => lines === 0).length).toBeGreaterThanOrEqual(5);
  } finally {
    flood.close();
    typed.close();
  }
}, 120_000);

native("typing stops a flooding pane's reading well below the pause mark until the echo has had its turn", async () => {
  // Each time the flood's PTY is resumed, input goes to a pane at that moment; the backlog at the
  // pause that follows says which mechanism paused it: the hold for typing pauses as soon as more
  // than a piece waits (here ~64 KiB, where reading resumed), the flood's own mark only past it.
  // About every other pause is a hold's (a hold's own end resumes within the gap between holds).
  const pausedAt: number[] = [];
  let received = 0;
  let typeAtResume = false;
  const p = pane(["python3", "-c", FLOOD], (o) => {
    const pty = spawnNativePty({
      ...o,
      onData: (b) => {
        received += b.length;
        o.onData(b);
      },
    });
    return Object.assign(Object.create(pty) as Pty, {
      pause() {
        pausedAt.push(p.backlog);
        pty.pause();
      },
      resume() {
        pty.resume();
        if (typeAtResume) inputSent();
      },
    });
  });
  try {
    await waitFor("the flood to start", () => received > 4 * 1024 * 1024, 60_000, 20);
    typeAtResume = true;
    const from = pausedAt.length;
    await waitFor("ten pauses with typing", () => pausedAt.length >= from + 10, 60_000, 5);
    const held = pausedAt.slice(from).filter((b) => b <= READ_PAUSE_AT);
    expect(held.length).toBeGreaterThanOrEqual(3);
  } finally {
    p.close();
  }
}, 120_000);
