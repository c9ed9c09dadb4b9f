// What one CLI call costs, as a whole process, beside the floor: a Bun-compiled program that only
// connects, sends one line and prints the reply (bench/fixtures/reference-client.ts, compiled here
// with bytecode, as ws is). Issue target: each ws call at most 1.2x the reference. tmux's own CLI
// is shown for context. Calls are interleaved so each sees the same machine load; medians.
//   bun bench/cli-startup.ts [runs]
import { join } from "node:path";
import { BenchEnv, WS, median } from "./lib";

const RUNS = Number(process.argv[2] ?? 40);
const bench = new BenchEnv();
const reference = join(bench.root, "reference-client");

function time(argv: string[], extraEnv: Record<string, string> = {}, stdin?: string): number {
  const t = performance.now();
  const r = Bun.spawnSync(argv, { env: { ...bench.env, ...extraEnv }, stdin: stdin === undefined ? "ignore" : new TextEncoder().encode(stdin), stdout: "ignore", stderr: "ignore" });
  const ms = performance.now() - t;
  if (r.exitCode !== 0) throw new Error(`${argv.join(" ")} exited ${r.exitCode}`);
  return ms;
}

try {
  const built = await Bun.build({ entrypoints: [join(import.meta.dir, "fixtures/reference-client.ts")], compile: { outfile: reference }, minify: true, format: "esm", bytecode: true });
  if (!built.success) throw new Error(`could not compile the reference client: ${built.logs.join("\n")}`);
  await bench.start();
  const hook = JSON.stringify({ session_id: "bench", cwd: "/tmp", hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: "true" } });
  const inPane = { WS_SOCKET: bench.wsSock, WS_PANE_ID: "1" };
  const cases: [string, () => number][] = [
    ["reference (connect, one line, print)", () => time([reference, bench.wsSock, JSON.stringify({ v: 1, type: "workspace_list" })])],
    ["ws workspace list", () => time([WS, "workspace", "list"])],
    ["ws pane send 1 x", () => time([WS, "pane", "send", "1", "x"])],
    ["ws report PreToolUse (in a pane)", () => time([WS, "report", "PreToolUse", "--agent", "claude"], inPane, hook)],
    ["tmux list-sessions", () => time(["tmux", "-S", bench.tmuxSock, "list-sessions"])],
  ];
  const samples = new Map(cases.map(([n]) => [n, [] as number[]]));
  for (let i = 0; i < RUNS; i++) for (const [name, run] of cases) samples.get(name)!.push(run());
  const ref = median(samples.get(cases[0]![0])!);
  console.log(`runs: ${RUNS}   ws: ${WS}`);
  for (const [name, xs] of samples) console.log(`${name.padEnd(40)} median ${median(xs).toFixed(1).padStart(6)} ms   x reference ${(median(xs) / ref).toFixed(2)}`);
} finally {
  await bench.stop();
}
