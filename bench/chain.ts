// 50 commands three ways, beside tmux: 50 processes (one `ws pane list` each), one chain
// (`ws pane list \; pane list …`, one process and one connection) and one `ws batch` (50 lines on
// stdin); tmux: 50 `list-panes` processes, one `list-panes \; …` chain and one `source-file` of 50
// lines. Interleaved rounds so each sees the same load; medians of the rounds.
//   bun bench/chain.ts [rounds]
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { BenchEnv, WS, median, report } from "./lib";

const ROUNDS = Number(process.argv[2] ?? 5);
const N = 50;
const bench = new BenchEnv();

function time(argv: string[], stdin?: string): number {
  const t = performance.now();
  const r = Bun.spawnSync(argv, { env: bench.env, stdin: stdin === undefined ? "ignore" : new TextEncoder().encode(stdin), stdout: "ignore", stderr: "ignore" });
  if (r.exitCode !== 0) throw new Error(`${argv.slice(0, 4).join(" ")}… exited ${r.exitCode}`);
  return performance.now() - t;
}
const chained = (words: string[]) => Array.from({ length: N }, () => words).flatMap((w, i) => (i ? [";", ...w] : w));

try {
  await bench.start();
  const tmux = ["tmux", "-S", bench.tmuxSock];
  const script = join(bench.root, "tmux-batch.conf");
  writeFileSync(script, "list-panes\n".repeat(N));
  const cases: Record<string, () => number> = {
    "ws processes": () => {
      let ms = 0;
      for (let i = 0; i < N; i++) ms += time([WS, "pane", "list"]);
      return ms;
    },
    "tmux processes": () => {
      let ms = 0;
      for (let i = 0; i < N; i++) ms += time([...tmux, "list-panes"]);
      return ms;
    },
    "ws chain": () => time([WS, ...chained(["pane", "list"])]),
    "tmux chain": () => time([...tmux, ...chained(["list-panes"])]),
    "ws batch": () => time([WS, "batch"], "pane list\n".repeat(N)),
    "tmux batch": () => time([...tmux, "source-file", script]),
  };
  const samples: Record<string, number[]> = Object.fromEntries(Object.keys(cases).map((k) => [k, []]));
  for (let r = 0; r < ROUNDS; r++) for (const [name, run] of Object.entries(cases)) samples[name]!.push(run());
  console.log(`${N} commands, medians of ${ROUNDS} rounds, ws: ${WS}`);
  for (const how of ["processes", "chain", "batch"]) report(`${N} x pane list as ${how}`, "ms", median(samples[`ws ${how}`]!), median(samples[`tmux ${how}`]!));
} finally {
  await bench.stop();
}
