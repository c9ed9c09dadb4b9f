// What a history line costs inside one process, without a server: HIST_STORES stores (one per
// pane) each fed HIST_LINES lines of 100 characters, the rows taken off the top of a real xterm
// buffer as the server takes them (history-capture.ts). Prints the heap (JSC's objects and what
// strings and buffers hold outside them) and RSS per line, after full collections.
//
//   bun bench/history-mem.ts                  100 stores × 2,000 lines, then 100 × 10,000
//   HIST_STORES=20 HIST_LINES=2000 bun bench/history-mem.ts
import { heapStats } from "bun:jsc";
import { Terminal } from "@xterm/headless";
import { HistoryStore } from "../src/model/history-store";
import { takeTopRows, xtermHistoryRows } from "../src/model/history-capture";
import { installXtermSpeedups } from "../src/model/xterm-speedups";

const STORES = Number(process.env.HIST_STORES ?? 100);
const LINES = (process.env.HIST_LINES ?? "2000,10000").split(",").map(Number);
const STYLED = !!process.env.HIST_STYLED;
const FILLER = "the quick brown fox jumps over the lazy dog 0123456789 abcdefghijklmnopqrstuvwxyz ABCDEFGHIJK";
/** As bench/scale.ts's lines: exactly 100 characters. */
const line = (i: number) => (STYLED ? `\x1b[32mline ${String(i).padStart(7, "0")}\x1b[0m ${FILLER.slice(0, 40)}\x1b[1;34m${FILLER.slice(40, 87)}\x1b[0m` : `line ${String(i).padStart(7, "0")} ${FILLER.slice(0, 87)}`);

const heap = () => {
  const h = heapStats();
  return h.heapSize + h.extraMemorySize;
};
const rss = () => process.memoryUsage().rss;
/** Collected, and a moment for the allocator to hand freed pages back (as a server's memory is
 * read seconds after its panes went quiet). */
const settle = async () => {
  Bun.gc(true);
  Bun.gc(true);
  await Bun.sleep(Number(process.env.HIST_SETTLE_MS ?? 3000));
  Bun.gc(true);
};

const write = (t: Terminal, s: string) => new Promise<void>((r) => t.write(s, r));

for (const lines of LINES) {
  const term = new Terminal({ cols: 120, rows: 40, scrollback: 50_000, allowProposedApi: true });
  installXtermSpeedups(term);
  // xterm's own rows allocated first: only the stores grow from here.
  await write(term, Array.from({ length: 700 }, (_, i) => line(i)).join("\r\n"));
  takeTopRows(term, xtermHistoryRows(term), () => {});
  const stores: HistoryStore[] = [];
  await settle();
  const h0 = heap();
  const r0 = rss();
  for (let p = 0; p < STORES; p++) {
    const store = new HistoryStore({ limit: lines });
    stores.push(store);
    let s = "";
    for (let i = 0; i < lines; i++) {
      s += `${line(i)}\r\n`;
      if (s.length > 64 * 1024 || i === lines - 1) {
        await write(term, s);
        s = "";
        takeTopRows(term, xtermHistoryRows(term), (row) => store.append(row));
      }
    }
    (store as { compact?: () => void }).compact?.();
  }
  await settle();
  const n = stores.reduce((a, s) => a + s.lineCount, 0);
  const perHeap = (heap() - h0) / n;
  const perRss = (rss() - r0) / n;
  console.log(`${STORES} stores × ${lines} lines${STYLED ? " (styled)" : ""}: ${n} lines, heap ${perHeap.toFixed(0)} B/line, RSS ${perRss.toFixed(0)} B/line (RSS ${(rss() / 1048576).toFixed(0)} MB)`);
  stores.length = 0;
  term.dispose();
  await settle();
}
