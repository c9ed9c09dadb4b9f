// What a CLI call costs through -H (docs/remote.md): `ws -H HOST workspace list` with the ssh master
// up, beside the same call made locally and beside `ssh HOST tmux list-windows` over a master of its
// own. HOST is a real sshd on 127.0.0.1 (test/ssh-rig.ts), so this measures ssh's multiplexing, the
// remote ws proxy's start and the bridge, not a network. Calls are interleaved; medians.
//   bun bench/remote.ts [runs]
import { copyFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { SshRig } from "../test/ssh-rig";
import { BenchEnv, WS, median } from "./lib";

const RUNS = Number(process.argv[2] ?? 20);
const bench = new BenchEnv();
const rig = new SshRig();
const tmuxName = `wsbench${process.pid}`;

function time(argv: string[], env: Record<string, string> = {}): number {
  const t = performance.now();
  const r = Bun.spawnSync(argv, { env: { ...bench.env, ...rig.env, ...env }, stdin: "ignore", stdout: "ignore", stderr: "pipe" });
  const ms = performance.now() - t;
  if (r.exitCode !== 0) throw new Error(`${argv.join(" ")} exited ${r.exitCode}: ${r.stderr.toString()}`);
  return ms;
}

try {
  await rig.start();
  // The remote ws: this binary at ~/.local/bin/ws, as `ws remote install` puts it.
  mkdirSync(join(rig.home, ".local/bin"), { recursive: true });
  copyFileSync(WS, join(rig.home, ".local/bin/ws"));
  await bench.start();
  const H = ["-H", rig.host];
  time([WS, ...H, "start"]);
  // tmux on the far side, on a socket of its own (not the machine's default server).
  const tmuxMaster = ["-o", "ControlMaster=auto", "-o", `ControlPath=${join(bench.root, "tmux-%C")}`, "-o", "ControlPersist=60"];
  const sshTmux = (...args: string[]) => ["ssh", "-F", rig.sshConfig, ...tmuxMaster, "-T", rig.host, `tmux -L ${tmuxName} ${args.join(" ")}`];
  time(sshTmux("-f", "/dev/null", "new-session", "-d", "-x", "80", "-y", "24", "sh"));
  const cases: [string, () => number][] = [
    ["ws workspace list (local)", () => time([WS, "workspace", "list"])],
    ["ws -H HOST workspace list (master up)", () => time([WS, ...H, "workspace", "list"])],
    ["ws -H HOST pane send 1 x", () => time([WS, ...H, "pane", "send", "1", "x"])],
    ["ssh HOST tmux list-windows (master up)", () => time(sshTmux("list-windows"))],
    ["ssh HOST ws workspace list (ws run there)", () => time(["ssh", "-F", rig.sshConfig, ...tmuxMaster, "-T", rig.host, "$HOME/.local/bin/ws workspace list"])],
    ["ssh HOST true (master up: ssh's own floor)", () => time(["ssh", "-F", rig.sshConfig, ...tmuxMaster, "-T", rig.host, "true"])],
  ];
  for (const [, run] of cases) run(); // warm: masters up, files cached
  const samples = new Map(cases.map(([n]) => [n, [] as number[]]));
  for (let i = 0; i < RUNS; i++) for (const [name, run] of cases) samples.get(name)!.push(run());
  const ref = median(samples.get(cases[3]![0])!);
  console.log(`runs: ${RUNS}   ws: ${WS}`);
  for (const [name, xs] of samples) console.log(`${name.padEnd(46)} median ${median(xs).toFixed(1).padStart(6)} ms   x ssh+tmux ${(median(xs) / ref).toFixed(2)}`);
} finally {
  Bun.spawnSync([WS, "-H", rig.host, "kill-server"], { env: { ...bench.env, ...rig.env }, stdout: "ignore", stderr: "ignore" });
  Bun.spawnSync(["ssh", "-F", rig.sshConfig, "-T", rig.host, `tmux -L ${tmuxName} kill-server`], { stdout: "ignore", stderr: "ignore" });
  await bench.stop();
  await rig.stop();
}
