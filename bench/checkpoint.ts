// Cost of a workstream checkpoint on a 10,000-file repo: one checkpoint with a few
// files changed and a few new (the temporary index starts as a copy of the real one, so only those
// are hashed), one with nothing changed (recorded as nothing), one restore; and the hook's own
// return time: `ws report UserPromptSubmit` in the workstream's pane (which starts a checkpoint in
// the daemon) beside `ws report PreToolUse` (which does not), as whole processes.
// Uses dist/ws when built (`bun run build`), else the sources through bun; WS_BIN overrides.
//   bun bench/checkpoint.ts [runs] [files]
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { restoreFiles, saveCheckpointTree } from "../src/features/workstreams/checkpoints";

const ROOT = resolve(import.meta.dir, "..");
const RUNS = Number(process.argv[2] ?? 5);
const FILES = Number(process.argv[3] ?? 10_000);
const dist = join(ROOT, "dist/ws");
const ws = process.env.WS_BIN ? [resolve(process.env.WS_BIN)] : existsSync(dist) ? [dist] : [process.execPath, join(ROOT, "src/main.ts")];

const dir = mkdtempSync(join(tmpdir(), "ws-bench-"));
chmodSync(dir, 0o700);
const gitconfig = join(dir, "gitconfig");
writeFileSync(gitconfig, "[user]\n\tname = Bench\n\temail = bench@example.invalid\n[init]\n\tdefaultBranch = main\n");
const env: Record<string, string> = {
  PATH: process.env.PATH!, HOME: dir, XDG_RUNTIME_DIR: dir, XDG_DATA_HOME: join(dir, "data"), XDG_CONFIG_HOME: join(dir, "config"),
  SHELL: "/bin/sh", TERM: "xterm-256color", GIT_CONFIG_GLOBAL: gitconfig, GIT_CONFIG_NOSYSTEM: "1",
};
Object.assign(process.env, env); // the library calls below run git with this process's environment

function sh(argv: string[], cwd = dir, stdin?: string): string {
  const r = Bun.spawnSync(argv, { cwd, env, stdin: stdin === undefined ? "ignore" : new TextEncoder().encode(stdin) });
  if (r.exitCode !== 0) throw new Error(`${argv.join(" ")}: ${r.stderr.toString()}`);
  return r.stdout.toString();
}
function timed(argv: string[], extra: Record<string, string>, stdin: string): number {
  const t = performance.now();
  const r = Bun.spawnSync(argv, { env: { ...env, ...extra }, stdin: new TextEncoder().encode(stdin), stdout: "ignore", stderr: "ignore" });
  if (r.exitCode !== 0) throw new Error(`${argv.join(" ")} exited ${r.exitCode}`);
  return performance.now() - t;
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const fmt = (xs: number[]) => `median ${median(xs).toFixed(1).padStart(7)} ms   min ${Math.min(...xs).toFixed(1)} ms`;

try {
  // The repo: FILES files in 100 directories, one commit, a bare remote.
  const repo = join(dir, "app");
  for (let d = 0; d < 100; d++) mkdirSync(join(repo, `d${d}`), { recursive: true });
  for (let i = 0; i < FILES; i++) writeFileSync(join(repo, `d${i % 100}`, `f${i}.txt`), `file ${i}\n`);
  sh(["git", "init", "-q"], repo);
  sh(["git", "add", "-A"], repo);
  sh(["git", "commit", "-qm", "first"], repo);
  sh(["git", "init", "-q", "--bare", join(dir, "remote.git")]);
  sh(["git", "remote", "add", "origin", join(dir, "remote.git")], repo);
  sh(["git", "push", "-q", "-u", "origin", "main"], repo);
  sh(["git", "remote", "set-head", "origin", "main"], repo);

  // 1. The library, in this process: a checkpoint after each of RUNS small turns (its shadow here).
  const at = { root: join(dir, "state", "ws", "checkpoints"), dir: repo, ws: "bench" };
  const saves: number[] = [];
  const same: number[] = [];
  for (let r = 0; r < RUNS; r++) {
    for (let i = 0; i < 10; i++) writeFileSync(join(repo, `d${i}`, `f${i + r * 100}.txt`), `changed ${r}\n`);
    for (let i = 0; i < 5; i++) writeFileSync(join(repo, `new-${r}-${i}.txt`), "new\n");
    let t = performance.now();
    const c = await saveCheckpointTree(at, `turn ${r}`);
    saves.push(performance.now() - t);
    if (!c.checkpoint) throw new Error("no checkpoint recorded");
    t = performance.now();
    if ((await saveCheckpointTree(at, "again")).checkpoint) throw new Error("an unchanged tree was recorded");
    same.push(performance.now() - t);
  }
  const t = performance.now();
  const now = (await saveCheckpointTree(at, "before restore")).tree;
  const restored = await restoreFiles(at, 1, now);
  const restoreMs = performance.now() - t;

  // 2. The hook: ws report in a workstream's pane, with and without a checkpoint behind it.
  sh([...ws, "start"]);
  const made = JSON.parse(sh([...ws, "--json", "new", "default", "w", "--repo", repo]));
  const wdir = made.dir as string;
  const inPane = { WS_SOCKET: join(dir, "ws/default.sock"), WS_PANE_ID: String(made.pane) };
  const rows: Record<string, number[]> = { "ws report UserPromptSubmit": [], "ws report PreToolUse": [] };
  for (let r = 0; r < RUNS; r++) {
    writeFileSync(join(wdir, `turn-${r}.txt`), `${r}\n`); // so each turn has something to record
    rows["ws report UserPromptSubmit"]!.push(timed([...ws, "report", "UserPromptSubmit", "--agent", "claude"], inPane, JSON.stringify({ hook_event_name: "UserPromptSubmit", prompt: `turn ${r}` })));
    rows["ws report PreToolUse"]!.push(timed([...ws, "report", "PreToolUse", "--agent", "claude"], inPane, JSON.stringify({ hook_event_name: "PreToolUse", tool_name: "Bash" })));
  }
  // The checkpoints did happen (behind the hooks' backs): a save queues after them.
  sh([...ws, "checkpoint", "save", "--name", "w"]);
  const listed = JSON.parse(sh([...ws, "--json", "checkpoint", "list", "--name", "w"])).checkpoints.length;

  console.log(`ws: ${ws.join(" ")}   runs: ${RUNS}   files: ${FILES}`);
  console.log(`checkpoint (10 changed, 5 new)   ${fmt(saves)}`);
  console.log(`checkpoint, nothing changed      ${fmt(same)}`);
  console.log(`restore (${restored.written} written, ${restored.removed} removed)  ${restoreMs.toFixed(1)} ms`);
  for (const [name, xs] of Object.entries(rows)) console.log(`${name.padEnd(32)} ${fmt(xs)}`);
  console.log(`checkpoints the hooks made: ${listed} (of ${RUNS} turns)`);
} finally {
  Bun.spawnSync([...ws, "kill-server"], { env });
  rmSync(dir, { recursive: true, force: true });
}
