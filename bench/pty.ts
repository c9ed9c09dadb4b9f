// Which PTY: Bun's own (`Bun.spawn` with `terminal`) against bun-pty (FFI), on the two things a
// multiplexer cares about: bulk throughput (a program flooding output) and the delay from a
// program's write to our callback when the pane is otherwise idle (keystroke echo).
// tmux has no PTY library to compare, so this bench compares the two candidates; the ratio line
// is bun-pty / Bun.
import { spawn as ptySpawn } from "bun-pty";
import { median } from "./lib";

const BYTES = Number(process.env.BENCH_PTY_BYTES ?? 64 * 1024 * 1024);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const ECHOES = 50;

const flood = ["sh", "-c", `head -c ${BYTES} /dev/zero | tr '\\0' 'x'`];
// Echo: the child answers each line we send; we time write → answer.
const echo = ["sh", "-c", "stty -echo; while read l; do echo \"$l\"; done"];

async function bunThroughput(): Promise<number> {
  let got = 0;
  const started = performance.now();
  const p = Bun.spawn(flood, { terminal: { cols: 200, rows: 50, data: (_t, b) => void (got += b.length) } });
  await p.exited;
  await Bun.sleep(50);
  return got / 1e6 / ((performance.now() - started - 50) / 1000);
}

async function bunPtyThroughput(): Promise<number> {
  let got = 0;
  const started = performance.now();
  const p = ptySpawn(flood[0]!, flood.slice(1), { name: "xterm-256color", cols: 200, rows: 50 });
  p.onData((s: string) => void (got += Buffer.byteLength(s)));
  await new Promise<void>((r) => p.onExit(() => r()));
  await Bun.sleep(50);
  return got / 1e6 / ((performance.now() - started - 50) / 1000);
}

async function latency(write: (s: string) => void, onData: (cb: (s: string) => void) => void): Promise<number> {
  let buf = "";
  let wake: (() => void) | undefined;
  onData((s) => {
    buf += s;
    wake?.();
  });
  const until = async (t: string) => {
    while (!buf.includes(t)) await new Promise<void>((r) => (wake = r));
  };
  write("warm\r");
  await until("warm");
  const times: number[] = [];
  for (let i = 0; i < ECHOES; i++) {
    buf = "";
    await Bun.sleep(20); // let the reader go idle, as between keystrokes
    const t0 = performance.now();
    write(`k${i}\r`);
    await until(`k${i}`);
    times.push(performance.now() - t0);
  }
  return median(times);
}

async function bunLatency(): Promise<number> {
  let cb: (s: string) => void = () => {};
  const dec = new TextDecoder();
  const p = Bun.spawn(echo, { terminal: { cols: 80, rows: 24, data: (_t, b) => cb(dec.decode(b)) } });
  const ms = await latency((s) => p.terminal!.write(s), (f) => (cb = f));
  p.kill();
  return ms;
}

async function bunPtyLatency(): Promise<number> {
  const p = ptySpawn(echo[0]!, echo.slice(1), { name: "xterm-256color", cols: 80, rows: 24 });
  const ms = await latency((s) => p.write(s), (f) => p.onData(f));
  p.kill();
  return ms;
}

const tp = { bun: [] as number[], bunPty: [] as number[] };
const lat = { bun: [] as number[], bunPty: [] as number[] };
for (let i = 0; i < RUNS; i++) {
  tp.bun.push(await bunThroughput());
  tp.bunPty.push(await bunPtyThroughput());
  lat.bun.push(await bunLatency());
  lat.bunPty.push(await bunPtyLatency());
}
const line = (what: string, unit: string, a: number, b: number) =>
  console.log(`${what.padEnd(34)} Bun.spawn ${a.toFixed(2).padStart(8)} ${unit}   bun-pty ${b.toFixed(2).padStart(8)} ${unit}   bun-pty/Bun ${(b / a).toFixed(2)}`);
console.log(`PTY candidates, median of ${RUNS} runs (${BYTES / 1e6} MB flood, ${ECHOES} idle echoes)`);
line("throughput (higher is better)", "MB/s", median(tp.bun), median(tp.bunPty));
line("idle echo latency (lower is better)", "ms", median(lat.bun), median(lat.bunPty));
