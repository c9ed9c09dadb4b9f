// Keystroke echo through an attached client: ws beside tmux, same run. The typed pane runs
// `stty raw -echo; exec cat`; beside it, nothing (quiet), a cooked `yes`, a cooked `seq` (lines
// that differ, as a build log's do), or a raw-mode writer (the program turned IXON off, as
// full-screen programs and agents do; it prints a count, so its screen changes too). ws: EVENT frame → OUTPUT frame
// on an attached client; tmux: control-mode send-keys → %output, with the flooding pane's own
// %output switched off (refresh-client -A) so the client measures keys, not the flood.
// Also the daemon's peak RSS while it floods, and how often the flooding pane's cells on the
// client's screen change while keys are typed beside it (a virtual terminal replays ws's frames;
// issue target: at least 10 times a second; `yes` is left out, its screen of y's never changes).
// docs/pane-pipeline.md has the why.
//
// BENCH_FLOOD=quiet,yes,seq,raw picks the cases; BENCH_WS_BINS=a:path,b:path compares ws builds (each
// beside the same tmux run); BENCH_KEYS keys per case, after BENCH_WARMUP keys that are not counted
// (each case starts a fresh server, whose first keys are slower while the JIT compiles the key
// path: bench/client-echo.ts reports those apart).
import { Arrival, BenchEnv, WS, median, report } from "./lib";
import { FrameDecoder, FRAME_OUTPUT, encodeEvent, frameText } from "../src/protocol/frames";
import { readFileSync } from "node:fs";

const KEYS = Number(process.env.BENCH_KEYS ?? 150);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 150);
const FLOODS: Record<string, string[] | undefined> = {
  quiet: undefined,
  yes: ["yes"],
  seq: ["seq", "1", "999999999999"],
  raw: ["python3", "-c", "import tty,os;tty.setraw(0);exec('i=0\\nwhile 1: os.write(1,b\"\".join(b\"x%d \" % j for j in range(i,i+8000)));i+=8000')"],
};
const CASES = (process.env.BENCH_FLOOD ?? "quiet,yes,seq,raw").split(",").filter((c) => c in FLOODS);
const BINS = (process.env.BENCH_WS_BINS ?? `ws:${WS}`).split(",").map((b) => {
  const i = b.indexOf(":");
  return { name: b.slice(0, i), bin: b.slice(i + 1) };
});
/** The floods whose screen keeps changing: their redraw rate is measured. */
const CHANGING = new Set(["seq", "raw"]);
const TYPED = ["sh", "-c", "stty raw -echo; exec cat"];
// Not the floods' own letters; escape sequences are stripped before looking.
const CHARS = "abcdefghijkmnopqrstuvw";
const p99 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * 0.99))]!;
const jitter = () => Bun.sleep(10 + Math.random() * 20);
const stripEscapes = (s: string) => s.replace(/\x1b\[[0-9;?<>=]*[ -/]*[@-~]/g, "");

/** Every client below calls `arrived.check()` as its data comes in. */
const arrived = new Arrival();
const until = (cond: () => boolean, ms = 10000) => arrived.until(cond, ms);

const rssMB = (pid: number) => Number(readFileSync(`/proc/${pid}/status`, "utf8").match(/VmRSS:\s+(\d+)/)![1]) / 1024;

interface Result {
  lat: number[];
  peak: number;
  /** ws: frames per second that redrew the flooding pane while keys were typed beside it. */
  floodFps?: number;
}

async function ws(env: BenchEnv, flood: string[] | undefined, changing: boolean): Promise<Result> {
  const { request } = await import("../src/client/request");
  const { Terminal } = await import("@xterm/headless");
  const d = new FrameDecoder();
  let text = "";
  // What the client's terminal shows, from ws's frames: the flooding pane's rows are compared
  // after each frame that arrived while keys were typed. The frames are kept and replayed into a
  // terminal after the keys: parsing them meanwhile would be this client's work, delaying its
  // notice of the echo (tmux's control client gets none of the flood's output to parse).
  const screen = new Terminal({ cols: 120, rows: 40, allowProposedApi: true, scrollback: 0 });
  let region: { top: number; rows: number } | undefined;
  const frames: string[] = [];
  let countFrom = 0;
  let countTo = 0;
  const regionText = () => {
    const b = screen.buffer.active;
    let s = "";
    for (let y = region!.top; y < region!.top + region!.rows; y++) s += (b.getLine(b.viewportY + y)?.translateToString(true) ?? "") + "\n";
    return s;
  };
  const sock = await Bun.connect({
    unix: env.wsSock,
    socket: {
      open: (s) => void s.write('{"v":1,"type":"attach","cols":120,"rows":40}\n'),
      data: (_s, b) => {
        for (const f of d.push(b)) {
          if (f.kind !== FRAME_OUTPUT) continue;
          const t = frameText(f);
          text += t;
          frames.push(t);
        }
        arrived.check();
      },
    },
  });
  await until(() => text.includes("main"));
  const pid = JSON.parse(readFileSync(env.wsSock.replace(/\.sock$/, ".info.json"), "utf8")).pid;
  const split = async (command: string[], focus: boolean, pane: number) =>
    ((await request(env.wsSock, { v: 2, type: "split", pane, right: false, focus, cwd: "/tmp", command })) as Record<string, number>).pane!;
  const typed = await split(TYPED, true, 1);
  const flooding = flood && (await split(flood, false, typed));
  if (flooding && changing) {
    // The flooding pane is the bottom one: its rows end above the status line.
    const info = (await request(env.wsSock, { v: 6, type: "pane_info", pane: flooding })) as Record<string, number>;
    region = { top: 40 - 1 - info.rows!, rows: info.rows! };
  }
  await Bun.sleep(1000);
  const lat: number[] = [];
  let peak = 0;
  let start = 0;
  for (let i = -WARMUP; i < KEYS; i++) {
    if (i === 0) {
      countFrom = frames.length;
      start = performance.now();
    }
    const ch = CHARS[(i + WARMUP) % CHARS.length]!;
    text = "";
    const t0 = performance.now();
    sock.write(encodeEvent({ Key: { code: { Char: ch }, modifiers: "", kind: "Press", state: "" } }));
    await until(() => stripEscapes(text).includes(ch));
    if (i >= 0) lat.push(performance.now() - t0);
    peak = Math.max(peak, rssMB(pid));
    await jitter();
  }
  countTo = frames.length;
  const elapsed = performance.now() - start;
  let floodFrames = 0;
  let shown = "";
  if (region)
    for (let i = 0; i < countTo; i++) {
      await new Promise<void>((r) => screen.write(frames[i]!, r));
      if (i < countFrom) continue;
      const now = regionText();
      if (now !== shown) floodFrames++;
      shown = now;
    }
  const floodFps = (floodFrames * 1000) / elapsed;
  for (const p of [flooding, typed]) if (p) await request(env.wsSock, { v: 2, type: "pane_close", pane: p });
  sock.end();
  return { lat, peak, ...(region ? { floodFps } : {}) };
}

async function tmux(env: BenchEnv, flood: string[] | undefined): Promise<Result> {
  const t = (args: string[]) => env.run(["tmux", "-S", env.tmuxSock, ...args]);
  await t(["resize-window", "-x", "120", "-y", "40"]);
  await t(["respawn-pane", "-k", "-t", "%0", ...TYPED]);
  // The flood starts once its %output is off: a backlog of it would sit before the keys' echo.
  if (flood) await t(["split-window", "-v", "-d", "-t", "%0", "sh", "-c", 'sleep 1; exec "$@"', "sh", ...flood]);
  const pid = Number((await Bun.$`tmux -S ${env.tmuxSock} display -p '#{pid}'`.env(env.env).text()).trim());
  const p = Bun.spawn(["tmux", "-S", env.tmuxSock, "-C", "attach"], { env: env.env, stdin: "pipe", stdout: "pipe" });
  let out = "";
  (async () => {
    const dec = new TextDecoder();
    for await (const b of p.stdout) {
      out += dec.decode(b);
      arrived.check();
    }
  })();
  const send = (line: string) => {
    p.stdin.write(line + "\n");
    p.stdin.flush();
  };
  await until(() => out.length > 0);
  if (flood) send("refresh-client -A '%1:off'");
  await Bun.sleep(2000);
  const lat: number[] = [];
  let peak = 0;
  for (let i = -WARMUP; i < KEYS; i++) {
    const ch = CHARS[(i + WARMUP) % CHARS.length]!;
    out = "";
    const t0 = performance.now();
    send(`send-keys -t %0 -l ${ch}`);
    await until(() => out.split("\n").some((l) => l.startsWith("%output %0 ") && l.includes(ch)));
    if (i >= 0) lat.push(performance.now() - t0);
    peak = Math.max(peak, rssMB(pid));
    await jitter();
  }
  if (flood) send("kill-pane -t %1");
  send("detach");
  p.kill();
  return { lat, peak };
}

console.log(`key echo, ${KEYS} keys per case after ${WARMUP} of warm-up; load ${readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ")}`);
for (const c of CASES) {
  const flood = FLOODS[c];
  const rows: { name: string; r: Result }[] = [];
  for (const b of BINS) {
    const env = new BenchEnv(b.bin);
    await env.start();
    try {
      rows.push({ name: b.name, r: await ws(env, flood, CHANGING.has(c)) });
    } finally {
      await env.stop();
    }
  }
  const env = new BenchEnv();
  await env.start();
  let m: Result;
  try {
    m = await tmux(env, flood);
  } finally {
    await env.stop();
  }
  const what = c === "quiet" ? "echo" : `echo beside ${c === "raw" ? "a raw-mode writer" : `a cooked ${c}`}`;
  for (const { name, r } of rows) {
    const tag = BINS.length > 1 ? ` [${name}]` : "";
    report(`${what} p50${tag}`, "ms", median(r.lat), median(m.lat));
    report(`${what} p99${tag}`, "ms", p99(r.lat), p99(m.lat));
    if (flood) report(`server RSS peak, ${c} flood${tag}`, "MB", r.peak, m.peak);
    if (r.floodFps !== undefined) console.log(`${`flooding pane redraws while typing beside it${tag}`.padEnd(48)} ws ${r.floodFps.toFixed(1).padStart(10)} /s   (target at least 10/s; tmux's is not measured: its control client gets no redraws)`);
  }
}
