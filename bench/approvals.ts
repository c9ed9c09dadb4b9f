// The approvals inbox's two latencies a person feels, over RUNS requests (default 50):
//  - fire → row: from an agent starting its PermissionRequest hook (`ws approval-hook`, a whole
//    process, as Claude Code and Codex start it) to the request's row on the open Dashboard of an
//    attached client (a raw attach stream drawn into a headless xterm: what the person sees), and
//    to the status line's "needs you" count;
//  - y → exit: from the person pressing y on that row to the hook process's exit with its allow.
// p50/p99 in ms. Build first (bun run build): it runs dist/ws (or WS_BIN).
import { BenchEnv, WS } from "./lib";
import { attachTerminal } from "../test/outer-terminal";

const RUNS = Number(process.argv[2] ?? process.env.BENCH_RUNS ?? 50);
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))]!;

const env = new BenchEnv();
await env.start();
const c = await attachTerminal(env.wsSock, 140, 40);

// Conditions on the drawn screen, checked as output arrives (never polled): each resolves with
// when the screen that first satisfied it was drawn.
const waiting = new Set<{ cond: (rows: string[]) => boolean; resolve: (at: number) => void }>();
let checking = false;
let again = false;
const check = async () => {
  if (checking) return void (again = true);
  checking = true;
  do {
    again = false;
    if (!waiting.size) break;
    const rows = await c.screen();
    const at = performance.now();
    for (const w of [...waiting])
      if (w.cond(rows)) {
        waiting.delete(w);
        w.resolve(at);
      }
  } while (again);
  checking = false;
};
const draw = c.client.onText!;
c.client.onText = (t) => {
  draw(t);
  void check();
};
function screenShows(cond: (rows: string[]) => boolean, what: string, ms = 20_000): Promise<number> {
  return new Promise((resolve, reject) => {
    const w = {
      cond,
      resolve: (at: number) => {
        clearTimeout(timer);
        resolve(at);
      },
    };
    const timer = setTimeout(() => {
      waiting.delete(w);
      void c.screen().then((rows) => reject(new Error(`timed out waiting for ${what}; the screen:\n${rows.join("\n")}`)));
    }, ms);
    waiting.add(w);
    void check();
  });
}

await screenShows((r) => r[0]!.includes("1:"), "the first frame");
const toRow: number[] = [];
const toCount: number[] = [];
const toExit: number[] = [];
try {
  for (let i = 0; i < RUNS; i++) {
    c.key(" ", "CONTROL");
    c.key("a");
    await screenShows((r) => r.some((l) => l.includes("Dashboard")), "the Dashboard");
    const marker = `bench-${i}-${Math.random().toString(36).slice(2, 8)}`;
    const payload = { hook_event_name: "PermissionRequest", tool_name: "Bash", tool_input: { command: `make ${marker}` }, tool_use_id: `toolu_${i}` };
    // The count on the status line and the row on the Dashboard, each when first drawn.
    const counted = screenShows((r) => r.at(-1)!.includes("needs you"), "the count");
    const rowShown = screenShows((r) => r.some((l) => l.includes(marker)), "the row");
    const t0 = performance.now();
    const hook = Bun.spawn([WS, "approval-hook", "--agent", "claude"], {
      env: { ...env.env, WS_SOCKET: env.wsSock, WS_PANE_ID: "1" },
      stdin: new Blob([JSON.stringify(payload)]),
      stdout: "pipe",
      stderr: "inherit",
    });
    toRow.push((await rowShown) - t0);
    toCount.push((await counted) - t0);
    // A request that comes while the Dashboard is open leaves the selection where it was (on a
    // command here): open it again, which starts on the request, then answer.
    c.key("q");
    await screenShows((r) => !r.some((l) => l.includes("Dashboard")), "the Dashboard closed");
    c.key(" ", "CONTROL");
    c.key("a");
    await screenShows((r) => r.some((l) => l.includes("Dashboard")), "the Dashboard again");
    const t2 = performance.now();
    c.key("y");
    const out = await new Response(hook.stdout).text();
    await hook.exited;
    toExit.push(performance.now() - t2);
    if (!out.includes('"behavior":"allow"')) throw new Error(`run ${i}: the hook printed ${JSON.stringify(out)}`);
    await screenShows((r) => !r.at(-1)!.includes("need"), "the count gone");
  }
} finally {
  c.close();
  await env.stop();
}
const line = (what: string, xs: number[]) => console.log(`${what.padEnd(44)} p50 ${pct(xs, 0.5).toFixed(1).padStart(7)} ms   p99 ${pct(xs, 0.99).toFixed(1).padStart(7)} ms   (${xs.length} runs)`);
line("hook fired → Needs you row on the Dashboard", toRow);
line("hook fired → status line count", toCount);
line("y pressed → hook exited with allow", toExit);
