// Cost of one `ws report` (what every agent hook pays), as a whole process, beside the tmux call a
// tmux-based tool would make instead (`tmux display -p`), in the same run. Median of many runs.
// Uses dist/ws when built (`bun run build`), else the sources through bun; WS_BIN overrides.
//   bun bench/report.ts [runs]
import { chmodSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const ROOT = resolve(import.meta.dir, "..");
const RUNS = Number(process.argv[2] ?? 60);
const dist = join(ROOT, "dist/ws");
const ws = process.env.WS_BIN ? [resolve(process.env.WS_BIN)] : existsSync(dist) ? [dist] : [process.execPath, join(ROOT, "src/main.ts")];

const dir = mkdtempSync(join(tmpdir(), "ws-bench-"));
chmodSync(dir, 0o700);
const env: Record<string, string> = { PATH: process.env.PATH!, HOME: dir, XDG_RUNTIME_DIR: dir, SHELL: "/bin/sh", TERM: "xterm-256color" };
const sock = join(dir, "ws/default.sock");
const tmuxSock = join(dir, "tmux.sock");
const hook = JSON.stringify({ session_id: "bench", transcript_path: "/tmp/x.jsonl", cwd: "/tmp", hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: "npm test" } });

function time(argv: string[], extraEnv: Record<string, string> = {}, stdin?: string): number {
  const t = performance.now();
  const r = Bun.spawnSync(argv, { env: { ...env, ...extraEnv }, stdin: stdin === undefined ? "ignore" : new TextEncoder().encode(stdin), stdout: "ignore", stderr: "ignore" });
  const ms = performance.now() - t;
  if (r.exitCode !== 0) throw new Error(`${argv.join(" ")} exited ${r.exitCode}`);
  return ms;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

try {
  if (Bun.spawnSync([...ws, "start"], { env }).exitCode !== 0) throw new Error("ws start failed");
  const tmux = Bun.spawnSync(["tmux", "-S", tmuxSock, "-f", "/dev/null", "new-session", "-d", "-x", "80", "-y", "24", "sh"], { env });
  const haveTmux = tmux.exitCode === 0;
  const inPane = { WS_SOCKET: sock, WS_PANE_ID: "1" };
  const rows: Record<string, number[]> = { "ws report (in a pane)": [], "ws report (outside ws)": [], ...(haveTmux ? { "tmux display -p": [] } : {}) };
  // Interleaved, so both see the same machine load.
  for (let i = 0; i < RUNS; i++) {
    rows["ws report (in a pane)"]!.push(time([...ws, "report", "PreToolUse", "--agent", "claude"], inPane, hook));
    rows["ws report (outside ws)"]!.push(time([...ws, "report", "PreToolUse", "--agent", "claude"], {}, hook));
    if (haveTmux) rows["tmux display -p"]!.push(time(["tmux", "-S", tmuxSock, "display", "-p", "#{pane_id}"]));
  }
  // The reports reached the daemon: pane 1 is now working on Bash.
  const check = Bun.spawnSync([...ws, "--json", "dashboard"], { env });
  const agent = JSON.parse(check.stdout.toString()).agents[0];
  if (agent?.detail !== "Bash") throw new Error(`reports did not arrive: ${check.stdout}`);

  console.log(`ws: ${ws.join(" ")}   runs: ${RUNS}`);
  for (const [name, xs] of Object.entries(rows)) console.log(`${name.padEnd(24)} median ${median(xs).toFixed(1).padStart(6)} ms   min ${Math.min(...xs).toFixed(1)} ms`);
  if (haveTmux) console.log(`ratio ws report / tmux display -p: ${(median(rows["ws report (in a pane)"]!) / median(rows["tmux display -p"]!)).toFixed(2)}`);
  else console.log("tmux not found: no comparison");
} finally {
  Bun.spawnSync([...ws, "kill-server"], { env });
  Bun.spawnSync(["tmux", "-S", tmuxSock, "kill-server"], { env });
  rmSync(dir, { recursive: true, force: true });
}
