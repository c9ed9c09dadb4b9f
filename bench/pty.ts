// Which PTY: ws's own master (glibc through src/platform/ffi.ts + setsid, read as a Bun stream: src/model/pty-native.ts)
// against Bun's own (`Bun.spawn` with `terminal`, the fallback) and bun-pty (FFI, polling), on
// the two things a multiplexer cares about: bulk throughput (a program flooding output) and the
// delay from a program's write to our callback when the pane is otherwise idle (keystroke echo).
// tmux has no PTY library to compare, so this bench compares the candidates; ratios are against
// Bun's own PTY.
import { spawn as ptySpawn } from "bun-pty";
import { nativePtyAvailable, spawnNativePty } from "../src/model/pty-native";
import { median } from "./lib";

const BYTES = Number(process.env.BENCH_PTY_BYTES ?? 64 * 1024 * 1024);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const ECHOES = 50;

const flood = ["sh", "-c", `head -c ${BYTES} /dev/zero | tr '\\0' 'x'`];
// Echo: the child answers each line we send; we time write → answer.
const echo = ["sh", "-c", "stty -echo; while read l; do echo \"$l\"; done"];

/** A started program: how to type into it, where its output goes, how to end it. */
interface Started {
  write(s: string): void;
  exited: Promise<unknown>;
  kill(): void;
}
type Candidate = (argv: string[], cols: number, rows: number, onData: (b: Uint8Array | string) => void) => Started;

const candidates: Record<string, Candidate> = {
  bun: (argv, cols, rows, onData) => {
    const p = Bun.spawn(argv, { terminal: { cols, rows, data: (_t, b) => onData(b) } });
    return { write: (s) => p.terminal!.write(s), exited: p.exited, kill: () => p.kill() };
  },
  ...(nativePtyAvailable() && {
    native: (argv, cols, rows, onData) => {
      const p = spawnNativePty({ argv, cwd: process.cwd(), env: process.env as Record<string, string>, cols, rows, onData, onExit: () => {} });
      return { write: (s) => p.write(s), exited: p.exited, kill: () => p.kill() };
    },
  }),
  bunPty: (argv, cols, rows, onData) => {
    const p = ptySpawn(argv[0]!, argv.slice(1), { name: "xterm-256color", cols, rows });
    p.onData(onData);
    return { write: (s) => p.write(s), exited: new Promise<void>((r) => p.onExit(() => r())), kill: () => p.kill() };
  },
};

const size = (b: Uint8Array | string) => (typeof b === "string" ? Buffer.byteLength(b) : b.length);

async function throughput(c: Candidate): Promise<number> {
  let got = 0;
  const started = performance.now();
  const p = c(flood, 200, 50, (b) => void (got += size(b)));
  await p.exited;
  await Bun.sleep(50);
  return got / 1e6 / ((performance.now() - started - 50) / 1000);
}

async function latency(c: Candidate): Promise<number> {
  let buf = "";
  let wake: (() => void) | undefined;
  const dec = new TextDecoder();
  const p = c(echo, 80, 24, (b) => {
    buf += typeof b === "string" ? b : dec.decode(b);
    wake?.();
  });
  const until = async (t: string) => {
    while (!buf.includes(t)) await new Promise<void>((r) => (wake = r));
  };
  p.write("warm\r");
  await until("warm");
  const times: number[] = [];
  for (let i = 0; i < ECHOES; i++) {
    buf = "";
    await Bun.sleep(20); // let the reader go idle, as between keystrokes
    const t0 = performance.now();
    p.write(`k${i}\r`);
    await until(`k${i}`);
    times.push(performance.now() - t0);
  }
  p.kill();
  return median(times);
}

const names = Object.keys(candidates);
const tp: Record<string, number[]> = Object.fromEntries(names.map((n) => [n, []]));
const lat: Record<string, number[]> = Object.fromEntries(names.map((n) => [n, []]));
for (let i = 0; i < RUNS; i++) {
  for (const n of names) tp[n]!.push(await throughput(candidates[n]!));
  for (const n of names) lat[n]!.push(await latency(candidates[n]!));
}
const line = (what: string, unit: string, xs: Record<string, number[]>) => {
  const base = median(xs.bun!);
  console.log(`${what.padEnd(36)} ${names.map((n) => `${n} ${median(xs[n]!).toFixed(2).padStart(7)} ${unit}${n === "bun" ? "" : ` (${(median(xs[n]!) / base).toFixed(2)}x)`}`).join("   ")}`);
};
console.log(`PTY candidates, median of ${RUNS} runs (${BYTES / 1e6} MB flood, ${ECHOES} idle echoes); (x) is against bun`);
line("throughput (higher is better)", "MB/s", tp);
line("idle echo latency (lower is better)", "ms", lat);
