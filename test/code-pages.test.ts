// A started server lets go of the executable's start-up code (src/platform/code-pages.ts): the
// pages are unmapped from it, only the clean read-only ones, and it runs on as before; and it lets
// them go again once its work has brought many back (src/server/code-pages-watch.ts).
import { expect, test } from "bun:test";
import { readFileSync, readlinkSync } from "node:fs";
import { join } from "node:path";
import { cleanCodeMappings } from "../src/platform/code-pages";
import { CODE_PAGES_DROP_EVERY_MS, CODE_PAGES_QUIET_MS, CODE_PAGES_REGROWN_KB, codePagesStep } from "../src/server/code-pages-watch";
import { useServer, waitFor } from "./harness";
import type { Replies } from "./replies";

test("only the file's clean read-only private mappings are taken", () => {
  const smaps = [
    "00200000-01a39000 r--p 00000000 fe:00 42                               /opt/ws",
    "Rss:                6372 kB",
    "Anonymous:             0 kB",
    "01a40000-0684a000 r-xp 01838000 fe:00 42                               /opt/ws",
    "Rss:               33532 kB",
    "Anonymous:             0 kB",
    // Written before it was made read-only: its anonymous pages must stay.
    "0685f000-06867000 r--p 06656000 fe:00 42                               /opt/ws",
    "Rss:                  32 kB",
    "Anonymous:            32 kB",
    "06867000-07578000 rw-p 0665e000 fe:00 42                               /opt/ws",
    "Rss:                5744 kB",
    "Anonymous:           100 kB",
    "7f0000000000-7f0000100000 r-xp 00000000 fe:00 7                        /usr/lib/libc.so.6",
    "Rss:                1440 kB",
    "Anonymous:             0 kB",
    "7f0000200000-7f0000300000 r-xp 00000000 00:00 0 ",
    "Rss:                 100 kB",
    "Anonymous:           100 kB",
  ].join("\n");
  expect(cleanCodeMappings(smaps, "/opt/ws")).toEqual([
    { start: 0x200000, end: 0x1a39000, rssKb: 6372 },
    { start: 0x1a40000, end: 0x684a000, rssKb: 33532 },
  ]);
});

test("the pages go again once enough came back or a while passed, and not while someone types", () => {
  const [quiet, soon, late] = [CODE_PAGES_QUIET_MS, 10_000, CODE_PAGES_DROP_EVERY_MS];
  // The first look after a drop takes the level the server's steady work brought back.
  expect(codePagesStep(undefined, 30_000, soon, quiet)).toBe("settle");
  expect(codePagesStep(20_000, 20_000 + CODE_PAGES_REGROWN_KB - 1, soon, quiet)).toBe("wait");
  expect(codePagesStep(20_000, 20_000 + CODE_PAGES_REGROWN_KB, soon, quiet)).toBe("drop");
  expect(codePagesStep(20_000, 20_000, late, quiet)).toBe("drop");
  expect(codePagesStep(20_000, 20_000 + CODE_PAGES_REGROWN_KB, late, quiet - 1)).toBe("wait");
});

// The server looks every 200 ms rather than every 10 s.
const s = useServer({ env: { WS_LOG_LEVEL: "debug", WS_CODE_PAGES_CHECK_MS: "200" } });

/** kB of `pid`'s executable resident in its clean code mappings. */
function residentCodeKb(pid: number): number {
  return cleanCodeMappings(readFileSync(`/proc/${pid}/smaps`, "utf8"), readlinkSync(`/proc/${pid}/exe`)).reduce((n, m) => n + m.rssKb, 0);
}

test.if(process.platform === "linux")("the server unmaps its start-up code once started, and serves on", async () => {
  const pid = s.daemonPid()!;
  const log = join(s.env.XDG_STATE_HOME!, "ws", "default.log");
  const said = await waitFor("the server's log to say it unmapped its start-up code", () => /unmapped (\d+) kB of start-up code/.exec(readFileSync(log, "utf8")), 15_000, 100);
  const dropped = Number(said[1]);
  // Starting maps tens of MB of the executable's code; a fraction of it runs again.
  expect(dropped).toBeGreaterThan(8 * 1024);
  expect(residentCodeKb(pid)).toBeLessThan(dropped);
  // What runs next faults its pages back in: a new pane's program runs and is read back.
  const r = await s.request<Replies["split"]>({ v: 1, type: "split", pane: 1, right: false, cwd: "/tmp", command: ["sh", "-c", "echo after-$((6*7)); exec cat"], focus: false });
  expect(await s.waitScreen(r.pane, /after-42/)).toContain("after-42");
}, 30_000);

test.if(process.platform === "linux")("what the server's work brings back is let go of again", async () => {
  const log = join(s.env.XDG_STATE_HOME!, "ws", "default.log");
  const agains = () => [...readFileSync(log, "utf8").matchAll(/unmapped (\d+) kB again/g)].length;
  await waitFor("the start-up code to go", () => /unmapped \d+ kB of start-up code/.test(readFileSync(log, "utf8")), 15_000, 100);
  const before = agains();
  // New panes run code the server let go of (spawning, a new emulator, their first frames).
  for (let i = 0; i < 3; i++) {
    const r = await s.request<Replies["split"]>({ v: 1, type: "split", pane: 1, right: i % 2 === 0, cwd: "/tmp", command: ["sh", "-c", `echo pane-$((${i}+40)); exec cat`], focus: false });
    expect(await s.waitScreen(r.pane, new RegExp(`pane-${i + 40}`))).toContain(`pane-${i + 40}`);
  }
  await waitFor("the server to let its pages go again", () => agains() > before, 15_000, 100);
  // And it serves on.
  const r = await s.request<Replies["split"]>({ v: 1, type: "split", pane: 1, right: false, cwd: "/tmp", command: ["sh", "-c", "echo still-$((6*7)); exec cat"], focus: false });
  expect(await s.waitScreen(r.pane, /still-42/)).toContain("still-42");
}, 30_000);
