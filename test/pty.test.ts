// The PTY layer on its own, with real programs on real PTYs: pausing holds back any writer (raw
// mode included) and loses nothing, the exit is reported after the last byte, closing drops
// what is unread, resizing reaches the program, and a missing program is refused up front.
import { afterAll, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, readdirSync, readlinkSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { spawnBunPty } from "../src/model/pty-bun";
import { nativePtyAvailable, spawnNativePty } from "../src/model/pty-native";
import { isLauncherArgv } from "../src/platform/pty-libc";
import type { Pty, PtyOptions } from "../src/model/pty";
import { processAlive, waitFor } from "./harness";

const dir = mkdtempSync(join(tmpdir(), "ws-pty-test-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", TERM: "xterm-256color" };
const native = nativePtyAvailable() ? test : test.skip;

interface Run {
  pty: Pty;
  chunks: Uint8Array[];
  received: () => number;
  text: () => string;
  exit: Promise<{ code: number | null; signal: string | null; receivedAtExit: number }>;
}

function run(spawn: (o: PtyOptions) => Pty, argv: string[], cols = 80, rows = 24): Run {
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  let exitNow!: (e: { code: number | null; signal: string | null; receivedAtExit: number }) => void;
  const exit = new Promise<{ code: number | null; signal: string | null; receivedAtExit: number }>((r) => (exitNow = r));
  const pty = spawn({
    argv,
    cwd: dir,
    env,
    cols,
    rows,
    onData: (b) => {
      chunks.push(b);
      bytes += b.length;
    },
    onExit: (code, signal) => exitNow({ code, signal, receivedAtExit: bytes }),
  });
  return { pty, chunks, received: () => bytes, text: () => Buffer.concat(chunks).toString("latin1"), exit };
}

/** PTY masters this process holds open. */
function openMasters(): number {
  return readdirSync("/proc/self/fd").filter((f) => {
    try {
      return readlinkSync(`/proc/self/fd/${f}`) === "/dev/ptmx";
    } catch {
      return false;
    }
  }).length;
}

/** A raw-mode writer of TOTAL bytes of a known pattern (byte i is i % 251), in 64 KB writes,
 * recording its progress in `progress` (0 before the first write, which a pause can hold); exits 3. */
const TOTAL = 4 * 1024 * 1024;
const writer = (progress: string) => [
  "python3",
  "-c",
  `import tty, os
tty.setraw(0)
data = bytes(i % 251 for i in range(${TOTAL}))
done = 0
open(${JSON.stringify(progress)}, "w").write("0")
while done < len(data):
    done += os.write(1, data[done:done + 65536])
    open(${JSON.stringify(progress)}, "w").write(str(done))
os._exit(3)
`,
];

native("pause holds a raw-mode writer back, resume delivers every byte in order, and the exit comes after the last one", async () => {
  const progress = join(dir, "progress-pause");
  const r = run(spawnNativePty, writer(progress));
  await waitFor("the first output", () => r.received() > 0);
  r.pty.pause();
  await waitFor("the writer to start", () => existsSync(progress));
  await Bun.sleep(300); // a window in which an unpaused reader would take megabytes
  const written = Number(readFileSync(progress, "utf8"));
  expect(written).toBeLessThan(TOTAL);
  // Ahead of us: the kernel's PTY buffer, what Bun read ahead, the writer's 64 KB step. No more.
  expect(written - r.received()).toBeLessThan(512 * 1024);
  r.pty.resume();
  const exit = await r.exit;
  expect(exit).toEqual({ code: 3, signal: null, receivedAtExit: TOTAL });
  const all = Buffer.concat(r.chunks);
  expect(all.length).toBe(TOTAL);
  for (let i = 0; i < TOTAL; i += 4099) expect(all[i]).toBe(i % 251);
  expect(all[TOTAL - 1]).toBe((TOTAL - 1) % 251);
}, 30_000);

native("close drops what is unread and hangs up on the program", async () => {
  const mastersBefore = openMasters();
  const r = run(spawnNativePty, writer(join(dir, "progress-close")));
  await waitFor("the first output", () => r.received() > 0);
  r.pty.pause();
  const before = r.received();
  r.pty.close();
  r.pty.resume(); // a closed PTY stays closed
  const exit = await r.exit;
  expect(exit.signal).toBe("SIGHUP");
  expect(r.received()).toBe(before);
  expect(processAlive(r.pty.pid)).toBe(false);
  await waitFor("our end of the PTY to be closed", () => openMasters() === mastersBefore, 2000);
}, 30_000);

native("a background child writing for ever after the program exits does not keep the exit from being reported", async () => {
  // The child ignores (inherits ignoring) the hangup its session leader's exit sends, and writes
  // until the PTY goes.
  const r = run(spawnNativePty, ["sh", "-c", "trap '' HUP; (while echo background; do :; done) & echo started; exit 3"]);
  const t0 = Date.now();
  const exit = await r.exit;
  expect(exit.code).toBe(3);
  expect(Date.now() - t0).toBeLessThan(8000);
  expect(r.text()).toContain("started");
  expect(r.text()).toContain("background");
}, 15_000);

for (const [name, spawn] of [["native", spawnNativePty], ["bun", spawnBunPty]] as const) {
  const t = name === "native" ? native : test;

  t(`${name}: a program gets a controlling terminal of the asked size and its pid is the one reported, resizing sends it SIGWINCH, and its exit code is reported`, async () => {
    const prog = `import os, signal, sys, fcntl, termios, struct
def size():
    return "%d %d" % struct.unpack("hh", fcntl.ioctl(0, termios.TIOCGWINSZ, b"1234"))
signal.signal(signal.SIGWINCH, lambda *a: os.write(1, b"winch %s\\r\\n" % size().encode()))
print("size", size(), "foreground", os.tcgetpgrp(0) == os.getpgrp() == os.getsid(0), "pid", os.getpid(), flush=True)
print("got", sys.stdin.readline().strip(), flush=True)
sys.exit(7)
`;
    const r = run(spawn, ["python3", "-c", prog], 100, 30);
    await waitFor("the start-up line", () => r.text().includes(`size 30 100 foreground True pid ${r.pty.pid}`));
    r.pty.resize(120, 40);
    await waitFor("the resize to reach the program", () => r.text().includes("winch 40 120"));
    r.pty.write("hello\r");
    const exit = await r.exit;
    expect(r.text()).toContain("got hello");
    expect(exit.code).toBe(7);
  }, 20_000);

  t(`${name}: input the program is not reading yet waits for it, whole and in order`, async () => {
    const n = 1024 * 1024;
    const prog = `import tty, os, sys, time, hashlib
tty.setraw(0)
os.write(1, b"ready\\r\\n")
time.sleep(0.3)
data = b""
while len(data) < ${n}:
    data += os.read(0, 65536)
os.write(1, b"got %d %s\\r\\n" % (len(data), hashlib.sha1(data).hexdigest().encode()))
`;
    const r = run(spawn, ["python3", "-c", prog]);
    await waitFor("the program to be ready", () => r.text().includes("ready"));
    const input = Buffer.alloc(n);
    for (let i = 0; i < n; i++) input[i] = 32 + (i % 90);
    r.pty.write(input);
    input.fill(0); // the PTY kept its own copy of what it could not write yet
    const sha1 = new Bun.CryptoHasher("sha1");
    for (let i = 0; i < n; i++) input[i] = 32 + (i % 90);
    sha1.update(input);
    const want = `got ${n} ${sha1.digest("hex")}`;
    await waitFor("the program to have read it all", () => r.text().includes(want), 20_000);
  }, 30_000);

  t(`${name}: a program that does not exist is refused when spawned`, () => {
    expect(() => run(spawn, ["no-such-program-ws-test"])).toThrow(/not found/i);
  });
}

native("a pane's launcher, caught before it execs the program, is told apart from a program called setsid", async () => {
  const setsid = Bun.which("setsid", { PATH: `/usr/bin:/bin:${process.env.PATH ?? ""}` })!;
  expect(isLauncherArgv([setsid, "--ctty", "--wait", "--", "bash"])).toBe(true);
  // What a person runs themselves is a program like any other.
  expect(isLauncherArgv([setsid, "bash"])).toBe(false);
  expect(isLauncherArgv(["setsid", "--ctty", "--wait", "--", "bash"])).toBe(false);
  expect(isLauncherArgv(["bash"])).toBe(false);
});
