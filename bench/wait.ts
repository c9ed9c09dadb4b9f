// wait_for against polling: latency from a pane printing a line to the wait's answer, ws wait_for
// (woken by the pane's output) beside the tmux way (a loop of `tmux capture-pane -p` until the
// line shows), in the same run; and how many events per second one subscriber sustains.
import { BenchEnv, jsonLines as conn, median, report } from "./lib";

const N = Number(process.env.BENCH_WAITS ?? 50);
const EVENTS = Number(process.env.BENCH_EVENTS ?? 5000);

function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
}

const env = new BenchEnv();
await env.start();
try {
  const ctl = conn(env.wsSock);
  await ctl.send({ v: 6, type: "tab_new", cwd: "/tmp", command: ["cat"] });
  const pane = JSON.parse(await ctl.next()).pane as number;

  // ws: one wait_for per line, answered when the pane's output matches. A literal pattern is
  // matched on the daemon's main thread; a regex in a regex helper process (one round trip more).
  const wsLatency = async (pattern: (i: number) => string): Promise<number[]> => {
    const lat: number[] = [];
    for (let i = 0; i < N; i++) {
      const w = conn(env.wsSock);
      await w.send({ v: 6, type: "wait_for", condition: "output", pane, pattern: pattern(i), timeout: 10000 });
      const t0 = performance.now();
      await ctl.send({ v: 6, type: "pane_send", pane, text: `mark-${i}-end`, enter: true });
      const reply = JSON.parse(await w.next());
      if (reply.type !== "wait_result") throw new Error(JSON.stringify(reply));
      lat.push(performance.now() - t0);
      await ctl.next();
      await w.close();
    }
    return lat;
  };
  const wsLat = await wsLatency((i) => `mark-${i}-end`);
  // Anchored at the end: the literal run's lines above don't match.
  const wsRegexLat = await wsLatency((i) => `mark-${i}-(e)nd$`);

  // tmux: send-keys, then capture-pane in a loop (no sleep: the best case for polling).
  await env.run(["tmux", "-S", env.tmuxSock, "send-keys", "exec cat", "Enter"]);
  const tmuxLat: number[] = [];
  let captures = 0;
  for (let i = 0; i < N; i++) {
    const t0 = performance.now();
    await env.run(["tmux", "-S", env.tmuxSock, "send-keys", "-l", `mark-${i}-end`]);
    await env.run(["tmux", "-S", env.tmuxSock, "send-keys", "Enter"]);
    for (;;) {
      captures++;
      const p = Bun.spawn(["tmux", "-S", env.tmuxSock, "capture-pane", "-p"], { env: env.env, stdout: "pipe" });
      if ((await new Response(p.stdout).text()).includes(`mark-${i}-end`)) break;
    }
    tmuxLat.push(performance.now() - t0);
  }
  report("line printed -> wait answered, p50", "ms", median(wsLat), median(tmuxLat));
  report("line printed -> wait answered, p99", "ms", pct(wsLat, 99), pct(tmuxLat, 99));
  report("same, a regex (helper) instead of a literal, p50", "ms", median(wsRegexLat), median(tmuxLat));
  console.log(`  (tmux needed ${(captures / N).toFixed(1)} capture-pane processes per wait; ws one request)`);

  // Events per second one subscriber sustains: focus flips pipelined on another connection.
  await ctl.send({ v: 6, type: "split", pane, cwd: "/tmp", command: ["cat"], focus: false });
  const splitReply = JSON.parse(await ctl.next());
  const other = splitReply.pane as number;
  if (process.env.BENCH_DEBUG) console.error("split", JSON.stringify(splitReply));
  const sub = conn(env.wsSock);
  await sub.send({ v: 6, type: "subscribe", types: ["pane_focused"] });
  await sub.next();
  let text = "";
  for (let i = 0; i < EVENTS; i++) text += JSON.stringify({ v: 6, type: "pane_focus", pane: i % 2 ? pane : other }) + "\n";
  const t0 = performance.now();
  // What the kernel has not taken yet, sent on drain.
  let rest: Buffer | undefined;
  const fs = await Bun.connect({ unix: env.wsSock, socket: { data() {}, drain(s) { if (rest?.length) rest = rest.subarray(s.write(rest)); } } });
  const bytes = Buffer.from(text);
  rest = bytes.subarray(fs.write(bytes));
  let got = 0;
  let gaps = 0;
  // Every flip is one event: delivered, or counted in a gap's `dropped`.
  while (got < EVENTS) {
    const e = JSON.parse(await sub.next());
    if (process.env.BENCH_DEBUG && got % 500 === 0) console.error(got, JSON.stringify(e).slice(0, 200));
    if (e.event === "gap") {
      gaps++;
      got += e.dropped;
    } else got++;
  }
  const secs = (performance.now() - t0) / 1000;
  console.log(`${"events/s to one subscriber (producer-bound)".padEnd(48)} ws ${(EVENTS / secs).toFixed(0).padStart(10)} /s   (${gaps} gaps)`);
  fs.end();
  await sub.close();
  await ctl.close();
} finally {
  await env.stop();
}
