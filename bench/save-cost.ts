// What the server's save costs with SAVE_PANES panes of SAVE_LINES 100-character lines of history,
// all at rest (no client shows them): the server's CPU time (/proc/PID/stat, user + system) and
// its RSS after each of
//  - a save with no pane changed (what a model change, a tab renamed, saves),
//  - a save after one pane printed a line (the periodic save of output, every 10 s),
//  - a full save (`ws session save --full`: every pane's text taken again),
// and the save file's size. tmux saves nothing: the comparison is between ws builds, in one run.
// No client is attached: panes are 80 columns wide, a line takes two rows, and the history limit
// is set to twice SAVE_LINES rows so every line is kept.
//
//   bun run bench save-cost                     dist/ws
//   SAVE_BINS=/tmp/ws-old,dist/ws bun run bench save-cost   builds side by side
import { readFileSync } from "node:fs";
import { askWs, BenchEnv, wsServerPid } from "./lib";

const PANES = Number(process.env.SAVE_PANES ?? 100);
const LINES = Number(process.env.SAVE_LINES ?? 2000);
const ROUNDS = Number(process.env.SAVE_ROUNDS ?? 5);
const BINS = (process.env.SAVE_BINS ?? process.env.WS_BIN ?? "dist/ws").split(",");
const FILLER = "the quick brown fox jumps over the lazy dog 0123456789 abcdefghijklmnopqrstuvwxyz ABCDEFGHIJK";
const LINE_FORMAT = `line %07g ${FILLER.slice(0, 100 - 13)}`;
const filler = ["sh", "-c", `read x; seq -f '${LINE_FORMAT}' 1 ${LINES}; echo FILL''ED; exec cat`];

const stat = (pid: number) => readFileSync(`/proc/${pid}/stat`, "utf8").slice(readFileSync(`/proc/${pid}/stat`, "utf8").lastIndexOf(")") + 2).split(" ");
/** The process's CPU time so far, ms (utime + stime, in clock ticks of 10 ms). */
const cpuMs = (pid: number) => (Number(stat(pid)[11]) + Number(stat(pid)[12])) * 10;
const rssMB = (pid: number) => Number(readFileSync(`/proc/${pid}/status`, "utf8").match(/VmRSS:\s+(\d+)/)![1]) / 1024;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

console.log(`${PANES} panes × ${LINES} lines, ${ROUNDS} rounds; load ${readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ")}`);
for (const bin of BINS) {
  const env = new BenchEnv(bin);
  env.env.WS_SCROLLBACK = String(2 * LINES);
  try {
    if ((await env.run([bin, "start"])) !== 0) throw new Error(`${bin} start failed`);
    const pid = wsServerPid(env.wsSock);
    const ask = (msg: Record<string, unknown>) => askWs(env.wsSock, msg);
    const panes: number[] = [];
    for (let i = 0; i < PANES; i++) panes.push((await ask({ type: "tab_new", cwd: "/tmp", command: filler })).pane);
    for (const p of panes) await ask({ type: "pane_send", pane: p, text: "", enter: true });
    for (const p of panes) await ask({ type: "wait_for", condition: "output", pane: p, pattern: "FILLED", timeout: 600_000 });
    await ask({ type: "session_save", full: true });
    await Bun.sleep(12_000); // every pane at rest (5 s), its emulator collected
    const measure = async (before: () => Promise<void>, msg: Record<string, unknown>) => {
      const cpu: number[] = [];
      let bytes = 0;
      for (let i = 0; i < ROUNDS; i++) {
        await before();
        const c0 = cpuMs(pid);
        bytes = (await ask(msg)).bytes;
        cpu.push(cpuMs(pid) - c0);
      }
      return { cpu: median(cpu), rss: rssMB(pid), bytes };
    };
    const rss0 = rssMB(pid);
    const quiet = await measure(async () => {}, { type: "session_save" });
    let n = 0;
    const one = await measure(async () => {
      const p = panes[n++ % panes.length]!;
      await ask({ type: "pane_send", pane: p, text: `printed ${n}`, enter: true });
      await ask({ type: "wait_for", condition: "output", pane: p, pattern: `printed ${n}`, timeout: 10_000 });
    }, { type: "session_save" });
    const full = await measure(async () => {}, { type: "session_save", full: true });
    const f = (m: { cpu: number; rss: number }) => `${String(m.cpu).padStart(5)} ms CPU, RSS ${m.rss.toFixed(0)} MB`;
    console.log(`${bin}: at rest RSS ${rss0.toFixed(0)} MB; file ${(full.bytes / 1e6).toFixed(1)} MB`);
    console.log(`  save, nothing changed      ${f(quiet)}`);
    console.log(`  save, one pane printed     ${f(one)}`);
    console.log(`  save --full                ${f(full)}`);
  } finally {
    await env.stop();
  }
}
