// Output reaches the emulator in order and in full, and a flood cannot grow the daemon without
// bound: the pane stops reading its PTY while the emulator catches up (raw mode: raw-flood.test.ts).
import { afterAll, beforeAll, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { rssKb, TestServer, waitFor } from "./harness";
import type { Replies } from "./replies";
import { SCROLLBACK_DEFAULT } from "../src/model/pane";

let s: TestServer;
let daemonPid: number;
beforeAll(async () => {
  s = await new TestServer().start();
  daemonPid = s.daemonPid()!;
});
afterAll(() => s.stop());

const rssMB = () => rssKb(daemonPid) / 1024;

test("a long stream arrives whole and in order", async () => {
  const r = await s.request<Replies["tab_new"]>({ v: 2, type: "tab_new", cwd: "/tmp", command: ["sh", "-c", "seq 1 150000; echo STREAM-DONE; exec cat"] });
  await waitFor("the end of the stream", async () => (await s.screen(r.pane)).includes("STREAM-DONE"), 90_000, 100);
  const lines = (await s.screen(r.pane, true)).split("\n");
  const done = lines.indexOf("STREAM-DONE");
  const numbers = lines.slice(0, done).filter((l) => /^\d+$/.test(l)).map(Number);
  expect(numbers.length).toBeGreaterThanOrEqual(SCROLLBACK_DEFAULT); // the scrollback holds the tail of the stream
  expect(numbers.at(-1)).toBe(150000);
  for (let i = 1; i < numbers.length; i++) expect(numbers[i]).toBe(numbers[i - 1]! + 1);
}, 120_000);

test("a flood is held back instead of queued: the program waits for the emulator and the daemon answers", async () => {
  // The program writes 64 KB at a time: blocks of short lines (slow to parse), each led by a marker with
  // the bytes written before it, and records its total in a side file. What the emulator has
  // parsed is the last marker on screen; without backpressure the gap grows by the PTY's rate.
  // Markers come every 1,025 lines, so one is always within the 2,000-line history and the screen.
  const side = join(s.root, "written");
  const prog = `import os
total=0
sub=b"y\\n"*1024
while True:
    out=b""
    for i in range(32):
        m=("#%d\\n" % (total+len(out))).encode()
        out+=m+sub
    os.write(1,out); total+=len(out)
    open(${JSON.stringify(side)}+".tmp","w").write(str(total)); os.replace(${JSON.stringify(side)}+".tmp",${JSON.stringify(side)})`;
  const before = rssMB();
  const r = await s.request<Replies["tab_new"]>({ v: 2, type: "tab_new", cwd: "/tmp", command: ["python3", "-c", prog] });
  const until = Date.now() + 4000;
  let peak = before;
  while (Date.now() < until) {
    peak = Math.max(peak, rssMB());
    await s.list(); // the control socket keeps answering throughout
  }
  // Read while the writer runs (what was parsed, then what was written by then: the gap can only
  // look larger), then ^C ends it and its pane with it.
  const markers = [...(await s.screen(r.pane, true)).matchAll(/^#(\d+)$/gm)].map((m) => Number(m[1]));
  const written = Number(readFileSync(side, "utf8") || "0");
  await s.request({ v: 2, type: "pane_send", pane: r.pane, text: "\x03" });
  const parsed = Math.max(...markers);
  if (process.env.WS_TEST_VERBOSE) console.log(`flood: written ${written}, parsed ${parsed}, peak RSS +${(peak - before).toFixed(0)} MB`);
  expect(written).toBeGreaterThan(0);
  expect(written - parsed).toBeLessThan(4 * 1024 * 1024);
  expect(peak - before).toBeLessThan(200);
  await s.request({ v: 2, type: "pane_close", pane: r.pane }).catch(() => {});
}, 60_000);
