// Output throughput: a pane prints `seq 1 3000000` (and 200 MB of base64).
//  - detached: no client; timed by the pane's own shell from the command's start until the
//    producer ends (it can end only once the multiplexer has read all but its last PTY buffer);
//  - attached: timed until the line after it is on the attached client's screen. Both
//    multiplexers run their real client (`ws attach`, `tmux attach`) in a PTY of the same size
//    whose output goes into an emulator, so "on screen" means the same thing for both.
// Medians of several runs, ws/tmux.
import { existsSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { Terminal } from "@xterm/headless";
import { BenchEnv, WS, median, report } from "./lib";

const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const SEQ = Number(process.env.BENCH_SEQ ?? 3_000_000);
const BASE64_MB = Number(process.env.BENCH_BASE64_MB ?? 200);
const TIMEOUT_MS = Number(process.env.BENCH_TIMEOUT_MS ?? 300_000);

/** A client process in a PTY, its output parsed into a screen we can look at. */
function clientInPty(argv: string[], env: Record<string, string>) {
  const term = new Terminal({ cols: 120, rows: 40, allowProposedApi: true });
  const proc = Bun.spawn(argv, { env: { ...env, TERM: "xterm-256color" }, terminal: { cols: 120, rows: 40, data: (_t, b) => term.write(b) } });
  const screen = () => {
    const buf = term.buffer.active;
    let s = "";
    for (let y = 0; y < term.rows; y++) s += (buf.getLine(buf.baseY + y)?.translateToString(true) ?? "") + "\n";
    return s;
  };
  return { proc, screen, term };
}

async function until(what: string, cond: () => boolean, ms: number) {
  const end = performance.now() + ms;
  while (!cond()) {
    if (performance.now() > end) throw new Error(`timed out waiting for ${what}`);
    await Bun.sleep(2);
  }
}

/** Seconds from typing the command until `marker` shows on the client's screen. */
async function timeOnScreen(client: ReturnType<typeof clientInPty>, type: (text: string) => Promise<void>, command: string, marker: string): Promise<number> {
  await type("clear");
  await until("a clear screen", () => !client.screen().includes(marker), 10_000);
  const t0 = performance.now();
  await type(`${command}; echo ${marker.slice(0, 4)}''${marker.slice(4)}`);
  await until(`${marker} on the client's screen`, () => client.screen().includes(marker), TIMEOUT_MS);
  return (performance.now() - t0) / 1000;
}

/** Seconds the producer ran in a pane nobody is attached to, as its shell measured it. */
async function timeDetached(type: (text: string) => Promise<void>, command: string, file: string): Promise<number> {
  rmSync(file, { force: true });
  await type(`s=$(date +%s%N); ${command}; e=$(date +%s%N); clear; echo $((e - s)) > ${file}.tmp; mv ${file}.tmp ${file}`);
  await until(`${file}`, () => existsSync(file), TIMEOUT_MS);
  return Number(readFileSync(file, "utf8")) / 1e9;
}

const b = new BenchEnv();
// BENCH_WS_HISTORY_STORE=0: the ws server keeps all history in xterm (to compare the store's cost).
if (process.env.BENCH_WS_HISTORY_STORE) b.env.WS_HISTORY_STORE = process.env.BENCH_WS_HISTORY_STORE;
await b.start();
// Send the command the way a script would: ws pane send / tmux send-keys, then Enter.
const wsType = async (text: string) => void (await b.run([WS, "pane", "send", "1", text, "--enter"]));
const tmuxType = async (text: string) => void (await b.run(["tmux", "-S", b.tmuxSock, "send-keys", "-t", "0", text, "Enter"]));
const cases: [string, string][] = [
  [`seq 1 ${SEQ}`, `seq 1 ${SEQ}`],
  [`${BASE64_MB} MB of base64`, `head -c ${Math.round((BASE64_MB * 1e6 * 3) / 4)} /dev/zero | base64`],
];
console.log(`throughput with no client attached (until the producer ends), median of ${RUNS} runs (80x24)`);
for (const [name, command] of cases) {
  const wsT: number[] = [];
  const tmuxT: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    wsT.push(await timeDetached(wsType, command, join(b.root, "ws-took")));
    tmuxT.push(await timeDetached(tmuxType, command, join(b.root, "tmux-took")));
  }
  report(`${name}, detached`, "s", median(wsT), median(tmuxT));
}
const ws = clientInPty([WS, "attach"], b.env);
const tmux = clientInPty(["tmux", "-S", b.tmuxSock, "attach"], b.env);
try {
  await until("ws to draw", () => ws.screen().includes("main"), 10_000);
  await until("tmux to draw", () => tmux.screen().trim().length > 0, 10_000);
  console.log(`throughput to the attached client's screen, median of ${RUNS} runs (120x40)`);
  for (const [name, command] of cases) {
    const wsT: number[] = [];
    const tmuxT: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      wsT.push(await timeOnScreen(ws, wsType, command, `DONE-ws-${i}-${name.length}`));
      tmuxT.push(await timeOnScreen(tmux, tmuxType, command, `DONE-tmux-${i}-${name.length}`));
    }
    report(`${name} until its last line is on screen`, "s", median(wsT), median(tmuxT));
  }
} finally {
  ws.proc.kill();
  tmux.proc.kill();
  await b.stop();
}
