// What reading a pane costs an agent: a `pane_read` tool call through a running `ws mcp` (each on
// its own restricted connection), beside what an agent without it runs through its shell tool
// (`ws pane read 1`, and tmux's `capture-pane -p`, one process each), and what starting `ws mcp`
// costs (spawn to the initialize reply, once per agent session). Interleaved; medians.
//   bun bench/mcp.ts [runs]
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { BenchEnv, median, WS } from "./lib";

const RUNS = Number(process.argv[2] ?? 30);
const bench = new BenchEnv();

async function startMcp(): Promise<Client> {
  const c = new Client({ name: "bench", version: "1" });
  await c.connect(new StdioClientTransport({ command: WS, args: ["mcp"], env: bench.env, stderr: "ignore" }));
  return c;
}

function timeProcess(argv: string[]): number {
  const t = performance.now();
  const r = Bun.spawnSync(argv, { env: bench.env, stdin: "ignore", stdout: "ignore", stderr: "ignore" });
  if (r.exitCode !== 0) throw new Error(`${argv.join(" ")} exited ${r.exitCode}`);
  return performance.now() - t;
}

try {
  await bench.start();
  const client = await startMcp();
  const samples = { start: [] as number[], tool: [] as number[], cli: [] as number[], tmux: [] as number[] };
  for (let i = 0; i < RUNS; i++) {
    let t = performance.now();
    const r = (await client.callTool({ name: "pane_read", arguments: { pane: 1 } })) as { isError?: boolean };
    if (r.isError) throw new Error("pane_read failed");
    samples.tool.push(performance.now() - t);
    samples.cli.push(timeProcess([WS, "pane", "read", "1"]));
    samples.tmux.push(timeProcess(["tmux", "-S", bench.tmuxSock, "capture-pane", "-p"]));
    if (i % 3 === 0) {
      t = performance.now();
      const c = await startMcp();
      samples.start.push(performance.now() - t);
      await c.close();
    }
  }
  await client.close();
  console.log(`runs: ${RUNS}   ws: ${WS}`);
  console.log(`pane_read through ws mcp (tool call)         median ${median(samples.tool).toFixed(2).padStart(7)} ms`);
  console.log(`ws pane read 1 (a process)                   median ${median(samples.cli).toFixed(2).padStart(7)} ms`);
  console.log(`tmux capture-pane -p (a process)             median ${median(samples.tmux).toFixed(2).padStart(7)} ms`);
  console.log(`ws mcp start to initialize (once a session)  median ${median(samples.start).toFixed(2).padStart(7)} ms`);
} finally {
  await bench.stop();
}
