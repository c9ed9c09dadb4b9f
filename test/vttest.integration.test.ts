// vttest's menus 1, 2, 3, 6, 8 and 11, driven in a ws pane and in a tmux pane of the same size:
// no page may hang in ws, and each page's text is compared with tmux's. The
// differences that remain are listed, with their reasons, in docs/fidelity.md; VTTEST_REPORT=file
// writes the comparison there. Skipped where vttest or tmux is not installed.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { TestServer } from "./harness";
import { RawAttach } from "./raw-attach";
import { Tmux } from "./tmux-driver";
import { VttestDriver, pageDiff, type Page } from "./vttest-driver";

const have = (cmd: string) => Bun.which(cmd) !== null;
const ready = have("vttest") && have("tmux");
if (!ready) console.warn("vttest.integration: skipped (needs vttest and tmux: apt-get install vttest tmux)");

const MENUS = [1, 2, 3, 6, 8, 11];
const OPTS = { settleMs: 600, pollMs: 100, pageTimeoutMs: 15000, maxPages: 40, maxDepth: 2 };
const VTTEST = "env TERM=xterm vttest";

let s: TestServer;
let client: RawAttach;
let tmux: Tmux;
beforeAll(async () => {
  if (!ready) return;
  s = await new TestServer().start();
  // The single pane of a tab is the client's size less the tab bar and the status line: 80×24.
  client = await RawAttach.open(s.sock, { v: 1, type: "attach", cols: 80, rows: 26 });
  await client.firstFrame();
  tmux = new Tmux(s.env);
});
afterAll(async () => {
  if (!ready) return;
  client.close();
  await tmux.kill();
  await s.stop();
});

test.skipIf(!ready)("vttest's pages in ws: none hangs, and each compared with tmux's", async () => {
  const pane = Number((await s.ok(["tab", "new", "--focus", "--", "sh", "-c", VTTEST])).trim());
  await tmux.open("vt", VTTEST, 80, 24);
  const ws = new VttestDriver(
    {
      send: async (text) => void (await s.request({ v: 2, type: "pane_send", pane, text })),
      read: () => s.screen(pane),
    },
    OPTS,
  );
  const tm = new VttestDriver({ send: (text) => tmux.text("vt", text), read: () => tmux.capture("vt") }, OPTS);
  const [wsPages, tmPages] = await Promise.all([ws.run(MENUS), tm.run(MENUS)]);
  const report: string[] = [];
  const byAt = new Map<string, Page>(tmPages.map((p) => [p.at, p]));
  let same = 0;
  for (const p of wsPages) {
    const t = byAt.get(p.at);
    const d = t ? pageDiff(p.text, t.text) : ["(no such page in tmux)"];
    if (!d.length) same++;
    else report.push(`## ${p.at}${p.stuck ? " (stuck in ws)" : ""}${t?.stuck ? " (stuck in tmux)" : ""}`, "ws | tmux", ...d, "");
  }
  report.unshift(`${wsPages.length} pages in ws, ${tmPages.length} in tmux, ${same} the same`, "", `pages: ${wsPages.map((p) => p.at).join(" ")}`, "");
  if (process.env.VTTEST_REPORT) writeFileSync(process.env.VTTEST_REPORT, report.join("\n"));
  expect(wsPages.filter((p) => p.stuck).map((p) => p.at)).toEqual([]);
  // The walk went through every menu in ws (each leaves pages behind).
  for (const m of MENUS) expect(wsPages.some((p) => p.at.startsWith(`${m}#`) || p.at.startsWith(`${m}.`))).toBe(true);
}, 900_000);
