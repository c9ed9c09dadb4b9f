// CPU the port scanner costs with 100 idle panes: 100 shell trees (a shell with a child, as a pane
// running a shell that started something) plus a few real listeners, scanned the way the daemon
// does it every ~2 s. Reports CPU per scan (user+system, all threads) and as a share of one core.
//   bun bench/port-scan.ts [panes] [scans]
// Then the same in the real daemon (dist/ws when built): its own CPU with that many idle panes.
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { request } from "../src/client/request.ts";
import { ProcPortScanner, scanPorts, type ScanMethod } from "../src/features/ports.ts";

const PANES = Number(process.argv[2] ?? 100);
const SCANS = Number(process.argv[3] ?? 30);
const INTERVAL_MS = 2000;

const procs = [];
for (let i = 0; i < PANES; i++) {
  const listen = i % 25 === 0; // 4 of 100 panes run a dev server
  // The shell knows its child as $!, so it takes the child down when the bench kills it.
  const child = listen ? "python3 -m http.server 0 --bind 127.0.0.1 >/dev/null 2>&1" : "sleep 100000";
  const cmd = `${child} & trap 'kill $!' TERM; wait`;
  procs.push(Bun.spawn(["bash", "-c", cmd], { stdin: "ignore", stdout: "ignore", stderr: "ignore" }));
}
const roots = new Map(procs.map((p, i) => [i + 1, p.pid]));
try {
  // Wait (bounded) until the servers listen, so scans see real sockets.
  const deadline = Date.now() + 10_000;
  while ((await scanPorts(roots)).size < Math.ceil(PANES / 25) && Date.now() < deadline) await Bun.sleep(100);
  // The daemon's watcher keeps one incremental scanner ("proc": idle panes are not walked again);
  // "proc-full" walks every tree each time, as a first scan does.
  const kept = new ProcPortScanner();
  const panes = new Map([...roots].map(([pane, pid]) => [pane, { pid, foreground: pid }]));
  for (const method of ["proc", "proc-full", "lsof"] as (ScanMethod | "proc-full")[]) {
    const cpu: number[] = [];
    const wall: number[] = [];
    let found = 0;
    for (let i = 0; i < SCANS; i++) {
      const [c0, t0] = [process.cpuUsage(), performance.now()];
      found = (method === "proc" ? await kept.scan(panes) : await scanPorts(roots, method === "proc-full" ? "proc" : method)).size;
      const c = process.cpuUsage(c0);
      wall.push(performance.now() - t0);
      cpu.push((c.user + c.system) / 1000);
    }
    const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    console.log(
      `${method.padEnd(9)} ${PANES} panes, ${found} with ports: cpu/scan median ${med(cpu).toFixed(1)} ms, wall ${med(wall).toFixed(1)} ms` +
        ` -> ${((med(cpu) / INTERVAL_MS) * 100).toFixed(2)}% of a core at one scan per ${INTERVAL_MS / 1000} s` +
        (method === "lsof" ? " (lsof/ps CPU is in child processes, not counted here)" : ""),
    );
  }
} finally {
  for (const p of procs) p.kill();
}

// The real daemon: idle shell panes, and its own CPU (user+system from /proc/<pid>/stat) over a
// quiet stretch. At idle the port scan and the agent reaper are all it does.

if (existsSync("/proc/self/stat")) {
  const ROOT = resolve(import.meta.dir, "..");
  const dist = join(ROOT, "dist/ws");
  const ws = process.env.WS_BIN ? [resolve(process.env.WS_BIN)] : existsSync(dist) ? [dist] : [process.execPath, join(ROOT, "src/main.ts")];
  const dir = mkdtempSync(join(tmpdir(), "ws-bench-"));
  chmodSync(dir, 0o700);
  const env = { PATH: process.env.PATH!, HOME: dir, XDG_RUNTIME_DIR: dir, SHELL: "/bin/sh", TERM: "xterm-256color" };
  const sock = join(dir, "ws/default.sock");
  try {
    Bun.spawnSync([...ws, "start"], { env });
    for (let i = 1; i < PANES; i++) await request(sock, { v: 2, type: "tab_new", cwd: dir, command: [] });
    const pid = JSON.parse(readFileSync(join(dir, "ws/default.info.json"), "utf8")).pid as number;
    const ticks = () => {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      return Number(f[11]) + Number(f[12]); // utime + stime, in clock ticks
    };
    const HZ = 100; // USER_HZ on Linux
    // Let 100 shells start, the first scans and the first save after their prompts settle (the
    // scrollback save runs every 10 s while output is unsaved): idle is the steady state after.
    await Bun.sleep(15_000);
    const [t0, c0] = [performance.now(), ticks()];
    await Bun.sleep(10_000);
    const [t1, c1] = [performance.now(), ticks()];
    const pct = (((c1 - c0) / HZ) * 1000 * 100) / (t1 - t0);
    console.log(`daemon with ${PANES} idle panes: ${pct.toFixed(2)}% of a core over ${((t1 - t0) / 1000).toFixed(0)} s (port scan every 2 s included)`);
  } finally {
    Bun.spawnSync([...ws, "kill-server"], { env });
    rmSync(dir, { recursive: true, force: true });
  }
}
