// Key echo as a person feels it: a key typed into the terminal that runs the real client (`ws
// attach` / `tmux attach`, each in a PTY of its own) until its echo comes out of that client.
// The pane runs `stty raw -echo; exec cat`, so the echo is the program's, not the line
// discipline's. Everything between the person's keyboard and their screen is in the path: the
// client reading its terminal, the socket both ways, the server, the PTY, the program.
// p50/p99 over jittered keys, ws beside tmux in the same run; BENCH_WS_BINS=a:path,b:path compares
// ws builds. BENCH_KEYS keys per client, BENCH_RUNS rounds (medians of the rounds' figures).
import { Arrival, BenchEnv, WS, median, report } from "./lib";

const KEYS = Number(process.env.BENCH_KEYS ?? 200);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
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

async function echoes(c: ReturnType<typeof clientInPty>): Promise<number[]> {
  const lat: number[] = [];
  for (let i = 0; i < KEYS; i++) {
    const ch = CHARS[i % CHARS.length]!;
    c.out = "";
    const t0 = performance.now();
    c.proc.terminal!.write(ch);
    await c.arrived.until(() => stripEscapes(c.out).includes(ch), 10_000);
    lat.push(performance.now() - t0);
    await Bun.sleep(10 + Math.random() * 20);
  }
  return lat;
}

/** One round: a fresh server, the pane made to run TYPED (`setUp`), its real client in a PTY once
 * it has drawn (`drawn`), KEYS echoes. */
async function round(bin: string | undefined, setUp: (b: BenchEnv) => Promise<unknown>, client: (b: BenchEnv) => string[], drawn: (out: string) => boolean): Promise<number[]> {
  const b = new BenchEnv(bin);
  await b.start();
  try {
    await setUp(b);
    const c = clientInPty(client(b), b.env);
    await c.arrived.until(() => drawn(c.out), 10_000);
    await Bun.sleep(500);
    const lat = await echoes(c);
    c.proc.kill();
    await c.proc.exited;
    return lat;
  } finally {
    await b.stop();
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

console.log(`key echo through the real client in a terminal, ${KEYS} keys x ${RUNS} rounds`);
const wsP50 = new Map<string, number[]>();
const wsP99 = new Map<string, number[]>();
const tmP50: number[] = [];
const tmP99: number[] = [];
for (let r = 0; r < RUNS; r++) {
  for (const { name, bin } of BINS) {
    const lat = await wsRound(bin);
    wsP50.set(name, [...(wsP50.get(name) ?? []), median(lat)]);
    wsP99.set(name, [...(wsP99.get(name) ?? []), pct(lat, 0.99)]);
  }
  const lat = await tmuxRound();
  tmP50.push(median(lat));
  tmP99.push(pct(lat, 0.99));
}
for (const { name } of BINS) {
  const tag = BINS.length > 1 ? ` [${name}]` : "";
  report(`echo through the client p50${tag}`, "ms", median(wsP50.get(name)!), median(tmP50));
  report(`echo through the client p99${tag}`, "ms", median(wsP99.get(name)!), median(tmP99));
}
