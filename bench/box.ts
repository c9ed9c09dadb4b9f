// What a box costs (docs/security.md#boxes), boxed beside unboxed in the same run, same server:
//  - starting a pane: `tab_new` until the program's first output is on the pane's screen (a
//    server-side wait_for, no polling), median of BENCH_RUNS starts each, boxed and unboxed
//    alternating so both see the same machine;
//  - key echo: a key sent on an attach connection until its echo comes back in an OUTPUT frame,
//    the pane running `stty raw -echo; exec cat` (the echo is the program's, as an agent's TUI
//    echoes), p50/p99 after BENCH_WARMUP keys, boxed and unboxed taking turns a key at a time.
// Needs dist/ws (bun run build) and a working bwrap (Linux).
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { Arrival, BenchEnv, jsonLines, median } from "./lib";
import { FrameDecoder, FRAME_OUTPUT, encodeEvent, frameText } from "../src/protocol/frames";

const RUNS = Number(process.env.BENCH_RUNS ?? 15);
const KEYS = Number(process.env.BENCH_KEYS ?? 200);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 100);
const CHARS = "0123456789";
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))]!;
const jitter = () => Bun.sleep(10 + Math.random() * 20);

const env = new BenchEnv();
try {
  await env.start();
  const proj = join(env.root, "proj");
  mkdirSync(proj);

  // ---- starting a pane
  const c = jsonLines(env.wsSock);
  const ask = async (o: Record<string, unknown>) => {
    const r = JSON.parse(await c.request({ v: 6, ...o }));
    if (r.type === "error") throw new Error(`${o.type}: ${r.code}: ${r.message}`);
    return r;
  };
  const startOnce = async (box: boolean): Promise<number> => {
    const t0 = performance.now();
    const { pane } = await ask({ type: "tab_new", cwd: proj, box, command: ["sh", "-c", "echo pane-ready; exec cat"] });
    await ask({ type: "wait_for", condition: "output", pane, pattern: "pane-ready", timeout: 10_000 });
    const ms = performance.now() - t0;
    await ask({ type: "pane_close", pane });
    return ms;
  };
  await startOnce(false);
  await startOnce(true);
  const starts = { plain: [] as number[], boxed: [] as number[] };
  for (let i = 0; i < RUNS; i++) {
    starts.plain.push(await startOnce(false));
    starts.boxed.push(await startOnce(true));
  }
  const p = median(starts.plain);
  const b = median(starts.boxed);
  console.log(`pane start (tab_new to first output), median of ${RUNS}`.padEnd(56) + `unboxed ${p.toFixed(1)} ms   boxed ${b.toFixed(1)} ms   (+${(b - p).toFixed(1)} ms, ×${(b / p).toFixed(2)})`);

  // ---- key echo
  const typed = { plain: 0, boxed: 0 };
  for (const box of [false, true]) {
    const { pane } = await ask({ type: "tab_new", cwd: proj, box, command: ["sh", "-c", "stty raw -echo; echo typed-ready; exec cat"] });
    await ask({ type: "wait_for", condition: "output", pane, pattern: "typed-ready", timeout: 10_000 });
    typed[box ? "boxed" : "plain"] = pane;
  }
  await c.close();
  const arrived = new Arrival();
  const d = new FrameDecoder();
  const client = { text: "" };
  const sock = await Bun.connect({
    unix: env.wsSock,
    socket: {
      open: (s) => void s.write('{"v":1,"type":"attach","cols":120,"rows":40}\n'),
      data: (_s, bytes) => {
        for (const f of d.push(bytes)) if (f.kind === FRAME_OUTPUT) client.text += frameText(f);
        arrived.check();
      },
    },
  });
  await arrived.until(() => client.text.includes("main"));
  const focus = async (pane: number) => {
    const f = jsonLines(env.wsSock);
    const r = JSON.parse(await f.request({ v: 6, type: "pane_focus", pane }));
    await f.close();
    if (r.type === "error") throw new Error(`pane_focus: ${r.message}`);
    await Bun.sleep(100); // the refocused screen's frame goes out first
  };
  const echoes = { plain: [] as number[], boxed: [] as number[] };
  // In blocks of 40 keys, each pane's block after the other's, so both see the same machine.
  for (let block = 0; block * 40 < WARMUP + KEYS; block++) {
    for (const which of ["plain", "boxed"] as const) {
      await focus(typed[which]);
      for (let j = 0; j < 40; j++) {
        const i = block * 40 + j;
        const ch = CHARS[i % CHARS.length]!;
        client.text = "";
        const t0 = performance.now();
        sock.write(encodeEvent({ Key: { code: { Char: ch }, modifiers: "", kind: "Press", state: "" } }));
        await arrived.until(() => client.text.includes(ch));
        if (i >= WARMUP) echoes[which].push(performance.now() - t0);
        await jitter();
      }
    }
  }
  sock.end();
  for (const which of ["plain", "boxed"] as const)
    console.log(`key echo, ${which === "plain" ? "unboxed" : "boxed"} raw cat, ${KEYS} keys after ${WARMUP}`.padEnd(56) + `p50 ${pct(echoes[which], 0.5).toFixed(2)} ms   p99 ${pct(echoes[which], 0.99).toFixed(2)} ms`);
} finally {
  await env.stop();
}
