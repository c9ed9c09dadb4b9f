// ws web beside the terminal clients, in one run on one server: key echo through the browser's
// terminal page (Debian's Chromium, headless, driven by playwright-core) beside `ws attach` and
// `tmux attach` in PTYs, and the page's first paint.
// - Echo: the pane runs `stty raw -echo; exec cat`. In the page a key goes in through xterm.js
//   (`input`, as a typed key: onData → WebSocket → ws web → the attach stream → the server → the
//   PTY → back) and counts once xterm.js has parsed its echo ("parsed"), and again at the next
//   animation frame ("on screen"). Through `ws attach`/`tmux attach` it counts when the client has
//   written the echo to its terminal. Keys are jittered, as client-echo.ts's.
// - First paint: a logged-in reload of the terminal page until xterm.js holds the session's first
//   screen (the status line), from the navigation's start, then the next frame; with the renderer
//   the page picks (the DOM's where WebGL is software) and with WebGL forced.
// BENCH_KEYS keys per client after BENCH_WARMUP, BENCH_PAINTS reloads. Medians; short by default.
import { chromium } from "playwright-core";
import { Arrival, BenchEnv, WS, median } from "./lib";

const KEYS = Number(process.env.BENCH_KEYS ?? 100);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 100);
const PAINTS = Number(process.env.BENCH_PAINTS ?? 5);
const CHROMIUM = process.env.WS_CHROMIUM ?? "/usr/bin/chromium";
const TYPED = ["sh", "-c", "stty raw -echo; exec cat"];
const CHARS = "0123456789";
const stripEscapes = (s: string) => s.replace(/\x1b\[[0-9;?<>=]*[ -/]*[@-~]|\x1b[()][0-9A-Za-z]|\x1b[=>78]/g, "");
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))]!;
const line = (what: string, xs: number[]) => console.log(`${what.padEnd(44)} p50 ${median(xs).toFixed(3).padStart(8)} ms   p99 ${pct(xs, 0.99).toFixed(3).padStart(8)} ms`);

/** Echo latencies through a terminal client in a PTY (after WARMUP keys). */
async function ptyEcho(argv: string[], env: Record<string, string>, drawn: (out: string) => boolean): Promise<number[]> {
  const arrived = new Arrival();
  let out = "";
  const proc = Bun.spawn(argv, {
    env: { ...env, TERM: "xterm-256color" },
    terminal: {
      cols: 120,
      rows: 40,
      data: (_t, b) => {
        out += Buffer.from(b).toString("latin1");
        arrived.check();
      },
    },
  });
  await arrived.until(() => drawn(out), 10_000);
  await Bun.sleep(300);
  const lat: number[] = [];
  for (let i = 0; i < WARMUP + KEYS; i++) {
    const ch = CHARS[i % CHARS.length]!;
    out = "";
    const t0 = performance.now();
    proc.terminal!.write(ch);
    await arrived.until(() => stripEscapes(out).includes(ch), 10_000);
    if (i >= WARMUP) lat.push(performance.now() - t0);
    await Bun.sleep(10 + Math.random() * 20);
  }
  proc.kill();
  await proc.exited;
  return lat;
}

const b = new BenchEnv();
await b.start();
const web = Bun.spawn([WS, "web", "--listen", "127.0.0.1:0"], { env: b.env, stdout: "pipe", stderr: "ignore" });
const browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox"] });
try {
  if ((await b.run([WS, "pane", "respawn", "1", "--", ...TYPED])) !== 0) throw new Error("ws pane respawn failed");
  await b.run(["tmux", "-S", b.tmuxSock, "set", "-g", "status", "off"]);
  await b.run(["tmux", "-S", b.tmuxSock, "respawn-pane", "-k", "-t", "%0", ...TYPED]);
  const reader = (web.stdout as ReadableStream<Uint8Array>).getReader();
  let said = "";
  while (!/login\?token=\S+\n/.test(said)) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`ws web exited: ${said}`);
    said += new TextDecoder().decode(value);
  }
  const login = /(http:\/\/\S+\/login\?token=\S+)/.exec(said)![1]!;
  const page = await (await browser.newContext({ viewport: { width: 1000, height: 700 } })).newPage();
  await page.goto(login);
  await page.waitForFunction(() => document.body.dataset.attached === "true");
  const renderer = await page.evaluate(() => document.body.dataset.renderer);
  page.on("crash", () => console.error("the page crashed"));
  page.on("pageerror", (e) => console.error(`page error: ${e.message}`));

  // The page's keys, timed inside the page (no round trip to this process per key).
  const webEcho = (await page.evaluate(
    async ({ n, warm, chars }) => {
      type Term = { input(d: string, user: boolean): void; onWriteParsed(f: () => void): { dispose(): void }; buffer: { active: { cursorX: number; cursorY: number } } };
      const term = (window as unknown as { wsTerminal: Term }).wsTerminal;
      const parsed: number[] = [];
      const painted: number[] = [];
      const written = (f: () => void) =>
        new Promise<number>((resolve) => {
          const before = `${term.buffer.active.cursorX},${term.buffer.active.cursorY}`;
          const sub = term.onWriteParsed(() => {
            if (`${term.buffer.active.cursorX},${term.buffer.active.cursorY}` === before) return;
            sub.dispose();
            resolve(performance.now());
          });
          f();
        });
      for (let i = 0; i < warm + n; i++) {
        // Back to the line's start before it wraps (untimed): the cursor then moves with each echo.
        if (term.buffer.active.cursorX > 60) await written(() => term.input("\r", true));
        const t0 = performance.now();
        const t1 = await written(() => term.input(chars[i % chars.length]!, true));
        const t2 = await new Promise<number>((resolve) => requestAnimationFrame(() => resolve(performance.now())));
        if (i >= warm) {
          parsed.push(t1 - t0);
          painted.push(t2 - t0);
        }
        await new Promise((r) => setTimeout(r, 10 + Math.random() * 20));
      }
      return { parsed, painted };
    },
    { n: KEYS, warm: WARMUP, chars: CHARS },
  )) as { parsed: number[]; painted: number[] };
  // The web client stays attached (shared) while the terminal clients are measured.
  const attachEcho = await ptyEcho([WS, "attach"], b.env, (out) => out.includes("main"));
  const tmuxEcho = await ptyEcho(["tmux", "-S", b.tmuxSock, "attach"], b.env, (out) => out.length > 0);

  /** First paints of the page at `query` (a logged-in reload each), and the page's marks. */
  const firstPaints = async (query: string) => {
    await page.goto(`${new URL(login).origin}/${query}`);
    const paints: number[] = [];
    const marks: Record<string, number[]> = {};
    for (let i = 0; i < PAINTS; i++) {
      await page.reload();
      await page.waitForFunction(() => {
        const t = (window as unknown as { wsTerminal?: { buffer: { active: { getLine(i: number): { translateToString(): string } | undefined } } } }).wsTerminal;
        return t?.buffer.active.getLine(0)?.translateToString().includes("main");
      });
      paints.push(await page.evaluate(() => new Promise<number>((r) => requestAnimationFrame(() => r(performance.now())))));
      const at = await page.evaluate(() => Object.fromEntries(["ws-terminal-ready", "ws-open", "ws-first-output"].map((m) => [m, performance.getEntriesByName(m)[0]?.startTime ?? NaN])));
      for (const [m, t] of Object.entries(at)) (marks[m] ??= []).push(t);
    }
    return { renderer: await page.evaluate(() => document.body.dataset.renderer), paints, marks };
  };
  const paintRuns = [await firstPaints(""), await firstPaints("?renderer=webgl")];

  console.log(`key echo, ${KEYS} keys after ${WARMUP} of warm-up, one server; the page draws with ${renderer}`);
  line("ws web (Chromium), echo parsed by xterm.js", webEcho.parsed);
  line("ws web (Chromium), echo on screen (next frame)", webEcho.painted);
  line("ws attach (PTY), echo written by the client", attachEcho);
  line("tmux attach (PTY), echo written by the client", tmuxEcho);
  for (const r of paintRuns) {
    console.log(`${`ws web first paint (${r.renderer})`.padEnd(44)} median ${median(r.paints).toFixed(1).padStart(8)} ms   (${r.paints.map((p) => p.toFixed(0)).join(", ")})`);
    console.log(`  of which: ${Object.entries(r.marks).map(([m, ts]) => `${m} ${median(ts).toFixed(0)} ms`).join(", ")} (medians, from the navigation's start)`);
  }
} finally {
  await browser.close();
  web.kill();
  await web.exited;
  await b.stop();
}
