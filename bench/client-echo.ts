// Key echo as a person feels it: a key typed into the terminal that runs the real client (`ws
// attach` / `tmux attach`, each in a PTY of its own) until its echo comes out of that client.
// The pane runs `stty raw -echo; exec cat`, so the echo is the program's, not the line
// discipline's. Everything between the person's keyboard and their screen is in the path: the
// client reading its terminal, the socket both ways, the server, the PTY, the program.
// p50/p99 over jittered keys, ws beside tmux in the same run; BENCH_WS_BINS=a:path,b:path compares
// ws builds. BENCH_KEYS keys per client, BENCH_RUNS rounds (medians of the rounds' figures).
//
// Each round starts a fresh server, and the first few hundred keys a fresh ws server echoes are
// slower: JavaScriptCore compiles the key path's functions as they get hot, and the slow keys fall
// on the same key numbers round after round. So BENCH_WARMUP keys (both multiplexers) come first
// and are reported apart, as "just started"; the p50/p99 rows are a server that has been typed
// into, as a person's long-running one has (docs/pane-pipeline.md, "The slowest keys").
//
// BENCH_HOPS=1 also times each hop of a key through ws (docs/pane-pipeline.md, "A key's hops"):
// the ws processes note when a key passes each hop (src/platform/hop-trace.ts, WS_HOP_TRACE), on the
// monotonic clock this bench reads too, and each hop's median over the warm keys is printed.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Arrival, BenchEnv, WS, median, report } from "./lib";
import { sharedClock } from "../src/platform/hop-trace";

const KEYS = Number(process.env.BENCH_KEYS ?? 200);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 300);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const HOPS = process.env.BENCH_HOPS === "1";
/** The clock the ws processes' hop marks use (src/platform/hop-trace.ts), in ms. */
const clock = sharedClock;
const BINS = (process.env.BENCH_WS_BINS ?? `ws:${WS}`).split(",").map((b) => {
  const i = b.indexOf(":");
  return { name: b.slice(0, i), bin: b.slice(i + 1) };
});
const TYPED = ["sh", "-c", "stty raw -echo; exec cat"];
// Digits: no status line or label on either side is redrawn with them while keys are typed.
const CHARS = "0123456789";
const stripEscapes = (s: string) => s.replace(/\x1b\[[0-9;?<>=]*[ -/]*[@-~]|\x1b[()][0-9A-Za-z]|\x1b[=>78]/g, "");
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))]!;

/** A client in a PTY; `out` collects what it prints since the last reset. */
function clientInPty(argv: string[], env: Record<string, string>) {
  const arrived = new Arrival();
  const c = {
    out: "",
    arrived,
    proc: Bun.spawn(argv, {
      env: { ...env, TERM: "xterm-256color" },
      terminal: {
        cols: 120,
        rows: 40,
        data: (_t, b) => {
          c.out += Buffer.from(b).toString("latin1");
          arrived.check();
        },
      },
    }),
  };
  return c;
}

interface Echoes {
  /** The first WARMUP keys after the server started. */
  warmup: number[];
  /** The KEYS keys after them. */
  lat: number[];
  /** Each warm key's [typed, echo seen] on the shared clock. */
  spans: [number, number][];
}

async function echoes(c: ReturnType<typeof clientInPty>): Promise<Echoes> {
  const warmup: number[] = [];
  const lat: number[] = [];
  const spans: [number, number][] = [];
  for (let i = 0; i < WARMUP + KEYS; i++) {
    const ch = CHARS[i % CHARS.length]!;
    c.out = "";
    const t0 = performance.now();
    const c0 = clock();
    c.proc.terminal!.write(ch);
    await c.arrived.until(() => stripEscapes(c.out).includes(ch), 10_000);
    (i < WARMUP ? warmup : lat).push(performance.now() - t0);
    if (i >= WARMUP) spans.push([c0, clock()]);
    await Bun.sleep(10 + Math.random() * 20);
  }
  return { warmup, lat, spans };
}

/** Where ws's processes write their hop marks, while BENCH_HOPS is on. */
let traceDir: string | undefined;
/** Per ws build (its path), per hop ("from → to"), each warm key's time in it, over every round. */
const hopTimes = new Map<string, Map<string, number[]>>();

/** Each key's hops, in the order they were passed: the first mark of each after the one before,
 * between the key's typing and its echo. */
function noteHops(spans: [number, number][], dir: string, bin: string): void {
  const times = hopTimes.get(bin) ?? new Map<string, number[]>();
  hopTimes.set(bin, times);
  const marks: { name: string; t: number }[] = [];
  for (const f of readdirSync(dir)) {
    const { names, times } = JSON.parse(readFileSync(join(dir, f), "utf8")) as { names: string[]; times: number[] };
    for (let i = 0; i < names.length; i++) marks.push({ name: names[i]!, t: times[i]! });
  }
  marks.sort((a, b) => a.t - b.t);
  for (const [t0, t1] of spans) {
    const inKey = marks.filter((m) => m.t >= t0 && m.t <= t1);
    const path: { name: string; t: number }[] = [{ name: "typed", t: t0 }];
    for (const m of inKey) if (!path.some((p) => p.name === m.name)) path.push(m);
    path.push({ name: "echo seen", t: t1 });
    for (let i = 1; i < path.length; i++) {
      const k = `${path[i - 1]!.name} → ${path[i]!.name}`;
      times.set(k, [...(times.get(k) ?? []), path[i]!.t - path[i - 1]!.t]);
    }
  }
}

/** One round: a fresh server, the pane made to run TYPED (`setUp`), its real client in a PTY once
 * it has drawn (`drawn`), KEYS echoes. */
async function round(bin: string | undefined, setUp: (b: BenchEnv) => Promise<unknown>, client: (b: BenchEnv) => string[], drawn: (out: string) => boolean): Promise<Echoes> {
  const b = new BenchEnv(bin);
  const tracing = HOPS && bin !== undefined;
  if (tracing) b.env.WS_HOP_TRACE = traceDir = mkdtempSync(join(tmpdir(), "ws-hops-"));
  await b.start();
  let got: Echoes | undefined;
  try {
    await setUp(b);
    const c = clientInPty(client(b), b.env);
    await c.arrived.until(() => drawn(c.out), 10_000);
    await Bun.sleep(500);
    got = await echoes(c);
    c.proc.kill();
    await c.proc.exited;
    return got;
  } finally {
    await b.stop();
    if (tracing && got && traceDir) {
      // The server writes its marks as it exits (the client has already).
      const dir = traceDir;
      for (let i = 0; i < 250 && readdirSync(dir).length < 2; i++) await Bun.sleep(20);
      noteHops(got.spans, dir, bin!);
      rmSync(dir, { recursive: true, force: true });
    }
  }
}

const wsRound = (bin: string) =>
  round(
    bin,
    async (b) => {
      if ((await b.run([bin, "pane", "respawn", "1", "--", ...TYPED])) !== 0) throw new Error("ws pane respawn failed");
    },
    () => [bin, "attach"],
    (out) => out.includes("main"),
  );

const tmuxRound = () =>
  round(
    undefined,
    async (b) => {
      const t = (args: string[]) => b.run(["tmux", "-S", b.tmuxSock, ...args]);
      await t(["set", "-g", "status", "off"]);
      await t(["respawn-pane", "-k", "-t", "%0", ...TYPED]);
    },
    (b) => ["tmux", "-S", b.tmuxSock, "attach"],
    (out) => out.length > 0,
  );

console.log(`key echo through the real client in a terminal, ${KEYS} keys x ${RUNS} rounds, after ${WARMUP} keys of warm-up`);
/** Per ws build and for tmux, each round's figures. */
const figures = new Map<string, { p50: number[]; p99: number[]; warmP50: number[]; warmP99: number[] }>();
const note = (who: string, e: Echoes) => {
  const f = figures.get(who) ?? { p50: [], p99: [], warmP50: [], warmP99: [] };
  f.p50.push(median(e.lat));
  f.p99.push(pct(e.lat, 0.99));
  if (e.warmup.length) {
    f.warmP50.push(median(e.warmup));
    f.warmP99.push(pct(e.warmup, 0.99));
  }
  figures.set(who, f);
};
for (let r = 0; r < RUNS; r++) {
  for (const { name, bin } of BINS) note(name, await wsRound(bin));
  note("tmux", await tmuxRound());
  // The harness's own floor: the program in the client's terminal, no multiplexer between.
  note("none", await round(undefined, async () => {}, () => TYPED, () => true));
}
const tm = figures.get("tmux")!;
for (const { name } of BINS) {
  const tag = BINS.length > 1 ? ` [${name}]` : "";
  const f = figures.get(name)!;
  report(`echo through the client p50${tag}`, "ms", median(f.p50), median(tm.p50));
  report(`echo through the client p99${tag}`, "ms", median(f.p99), median(tm.p99));
  if (WARMUP) {
    report(`  the first ${WARMUP} keys after start, p50${tag}`, "ms", median(f.warmP50), median(tm.warmP50));
    report(`  the first ${WARMUP} keys after start, p99${tag}`, "ms", median(f.warmP99), median(tm.warmP99));
  }
}
if (HOPS) {
  console.log("\nws: one warm key's hops (median ms; src/platform/hop-trace.ts marks, every ws round):");
  console.log(`  ${"".padEnd(36)} ${BINS.map((b) => b.name.padStart(8)).join(" ")}`);
  const hops = [...new Set(BINS.flatMap((b) => [...(hopTimes.get(b.bin)?.keys() ?? [])]))];
  for (const k of hops) {
    const cells = BINS.map((b) => hopTimes.get(b.bin)?.get(k) ?? []);
    if (cells.every((xs) => xs.length < KEYS / 2)) continue;
    console.log(`  ${k.padEnd(36)} ${cells.map((xs) => (xs.length ? median(xs).toFixed(3) : "-").padStart(8)).join(" ")}  (${cells.map((xs) => xs.length).join("/")} keys)`);
  }
}
const none = figures.get("none")!;
console.log(`no multiplexer (the program in the harness's terminal): p50 ${median(none.p50).toFixed(3)} ms, p99 ${median(none.p99).toFixed(3)} ms`);
