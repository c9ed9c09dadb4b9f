// A program in raw mode (no IXON, so XOFF cannot hold it) floods its pane: the daemon must stop
// reading that PTY while the emulator catches up, so its memory stays bounded, every byte is
// parsed in order, another pane still answers keys, and closing the pane ends the work at once.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { processAlive, rssKb, TestServer, waitFor } from "./harness";

/** The bound this test holds the daemon to while a pane floods (docs/pane-pipeline.md). */
const RSS_BOUND_MB = 300;
const FLOOD_MS = 20_000;
/** Each flood line: "<seq>:<offset>:" padded with x to LINE bytes, "\r\n" included (raw mode has
 * no ONLCR). The offset is the byte count written before the line, so a gap anywhere shows. */
const LINE = 30;
/** Lines of the flood pane checked each time round (of the 2,000 its scrollback keeps). */
const WINDOW = 1500;

let s: TestServer;
let daemonPid: number;
let shell: number;
beforeAll(async () => {
  s = await new TestServer().start();
  daemonPid = s.daemonPid()!;
  shell = (await s.list())[0]!.tabs[0]!.panes[0]!;
});
afterAll(() => s.stop());

const rssMB = () => rssKb(daemonPid) / 1024;
/** The daemon's CPU time so far, in clock ticks (utime + stime). */
const cpuTicks = () => {
  const f = readFileSync(`/proc/${daemonPid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return Number(f[11]) + Number(f[12]);
};

/** A raw-mode writer of numbered lines in 64 KB writes, until `stop` exists; then "END n bytes".
 * It records how much it has written in `written`, so the test can see it being held back. */
function floodProgram(stop: string, written: string): string {
  return `import tty, os
tty.setraw(0)
seq = 0
off = 0
while not os.path.exists(${JSON.stringify(stop)}):
    out = []
    for _ in range(2048):
        head = b"%d:%d:" % (seq, off)
        out.append(head + b"x" * (${LINE - 2} - len(head)) + b"\\r\\n")
        seq += 1
        off += ${LINE}
    buf = memoryview(b"".join(out))
    while buf:
        buf = buf[os.write(1, buf):]
    open(${JSON.stringify(written)} + ".tmp", "w").write(str(off))
    os.replace(${JSON.stringify(written)} + ".tmp", ${JSON.stringify(written)})
os.write(1, b"END %d %d\\r\\n" % (seq, off))
os.read(0, 1)
`;
}

interface Line {
  seq: number;
  off: number;
}

/** The flood's lines in what the pane shows, checked to follow each other with no byte missing.
 * Unless the flood has ended, its last row may be a line still being written: it is left out. */
function checkedLines(text: string, ended = false): Line[] {
  const rows = text.split("\n").filter((r) => /^\d+:\d+:/.test(r));
  if (!ended) rows.pop();
  const lines: Line[] = [];
  for (const row of rows) {
    const m = row.match(/^(\d+):(\d+):(x*)$/);
    if (!m || row.length !== LINE - 2) throw new Error(`a damaged flood line: ${JSON.stringify(row)}`);
    const line = { seq: Number(m[1]), off: Number(m[2]) };
    const prev = lines.at(-1);
    if (prev && (line.seq !== prev.seq + 1 || line.off !== prev.off + LINE))
      throw new Error(`the flood skips from ${prev.seq}:${prev.off} to ${line.seq}:${line.off}`);
    lines.push(line);
  }
  return lines;
}

test("a raw-mode flood: bounded memory, every byte parsed in order, another pane still answers keys", async () => {
  const stop = join(s.root, "stop");
  const written = join(s.root, "written");
  const before = rssMB();
  const r = await s.request({ v: 2, type: "split", pane: shell, right: false, focus: false, cwd: "/tmp", command: ["python3", "-c", floodProgram(stop, written)] });
  expect(r.type).toBe("pane");
  const flood = r.pane as number;
  await waitFor("the flood to start", () => existsSync(written), 10_000);

  let peak = 0;
  let windows = 0;
  let maxLag = 0;
  const echoes: number[] = [];
  const started = Date.now();
  for (let i = 0; Date.now() - started < FLOOD_MS; i++) {
    peak = Math.max(peak, rssMB());
    // What the pane shows now is a run of consecutive lines, and the writer is not far ahead of
    // it: it is held back, not queued for. What it had written is read first: bytes it wrote
    // while the read was answered are not yet owed (a loaded machine stretches that moment).
    const wroteBefore = Number(readFileSync(written, "utf8"));
    const shown = checkedLines((await s.v6({ type: "pane_read", pane: flood, source: "recent", lines: WINDOW })).text);
    expect(shown.length).toBeGreaterThan(100);
    maxLag = Math.max(maxLag, wroteBefore - (shown.at(-1)!.off + LINE));
    windows++;
    // Typing into the other pane: a command goes in and its output comes back promptly.
    const t0 = Date.now();
    await s.request({ v: 2, type: "pane_send", pane: shell, text: `printf 'K%s\\n' ${i}`, enter: true });
    await waitFor(`pane ${shell} to answer keystroke ${i}`, async () => new RegExp(`^K${i}$`, "m").test(await s.screen(shell)), 3000, 10);
    echoes.push(Date.now() - t0);
  }
  peak = Math.max(peak, rssMB());

  // Stop the writer: the last line it wrote is parsed, and everything before it follows in order.
  writeFileSync(stop, "");
  const end = await waitFor("the flood's end marker", async () => (await s.screen(flood, true)).match(/^END (\d+) (\d+)$/m), 30_000, 50);
  const [total, bytes] = [Number(end[1]), Number(end[2])];
  const tail = checkedLines((await s.screen(flood, true)).split(/^END /m)[0]!, true);
  expect(tail.at(-1)).toEqual({ seq: total - 1, off: bytes - LINE });

  echoes.sort((a, b) => a - b);
  const median = echoes[echoes.length >> 1]!;
  if (process.env.WS_TEST_VERBOSE)
    console.log(`raw flood: ${(bytes / 1e6).toFixed(0)} MB in order over ${windows} checked windows; RSS ${before.toFixed(0)} MB before, peak ${peak.toFixed(0)} MB; writer at most ${(maxLag / 1024).toFixed(0)} KB ahead; echo median ${median} ms, worst ${echoes.at(-1)} ms over ${echoes.length}`);
  expect(peak).toBeLessThan(RSS_BOUND_MB);
  expect(maxLag).toBeLessThan(2 * 1024 * 1024);
  expect(bytes).toBeGreaterThan(LINE * total - 1);
  expect(median).toBeLessThan(500);
  await s.request({ v: 2, type: "pane_close", pane: flood });
}, 90_000);

test("closing a flooding pane drops its backlog: the daemon's CPU use stops at once", async () => {
  // The reproduction: 64 KB writes of "x" for ever, in raw mode.
  const r = await s.request({ v: 2, type: "split", pane: shell, right: false, focus: false, cwd: "/tmp", command: ["python3", "-c", "import tty,os;tty.setraw(0);exec('while 1: os.write(1,b\"x\"*65536)')"] });
  const flood = r.pane as number;
  const info = await s.v6({ type: "pane_info", pane: flood });
  const pid = info.pid as number;
  // Flooding: the daemon is busy parsing.
  const t0 = cpuTicks();
  await waitFor("the daemon to parse the flood", () => cpuTicks() - t0 > 50, 10_000);
  expect((await s.request({ v: 2, type: "pane_close", pane: flood })).type).toBe("ok");
  await waitFor("the flooding program to end", () => !processAlive(pid), 5000);
  // Once closed, nothing is left to parse: the daemon idles.
  const t1 = cpuTicks();
  await Bun.sleep(2000); // the window the CPU time is measured over, not a wait for an event
  const idle = cpuTicks() - t1;
  if (process.env.WS_TEST_VERBOSE) console.log(`after close: ${idle} ticks of CPU in 2 s`);
  expect(idle).toBeLessThan(40); // ticks are 10 ms: under 20% of a core, where the flood took a whole one
  expect((await s.list()).length).toBeGreaterThan(0);
}, 60_000);
