// CPU the port scanner costs with 100 idle panes: 100 shell trees (a shell with a child, as a pane
// running a shell that started something) plus a few real listeners, scanned the way the daemon
// does it every ~2 s. Reports CPU per scan (user+system, all threads) and as a share of one core.
//   bun bench/port-scan.ts [panes] [scans]
import { scanPorts, type ScanMethod } from "../src/features/ports.ts";

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
  for (const method of ["proc", "lsof"] as ScanMethod[]) {
    const cpu: number[] = [];
    const wall: number[] = [];
    let found = 0;
    for (let i = 0; i < SCANS; i++) {
      const [c0, t0] = [process.cpuUsage(), performance.now()];
      found = (await scanPorts(roots, method)).size;
      const c = process.cpuUsage(c0);
      wall.push(performance.now() - t0);
      cpu.push((c.user + c.system) / 1000);
    }
    const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    console.log(
      `${method.padEnd(5)} ${PANES} panes, ${found} with ports: cpu/scan median ${med(cpu).toFixed(1)} ms, wall ${med(wall).toFixed(1)} ms` +
        ` -> ${((med(cpu) / INTERVAL_MS) * 100).toFixed(2)}% of a core at one scan per ${INTERVAL_MS / 1000} s` +
        (method === "lsof" ? " (lsof/ps CPU is in child processes, not counted here)" : ""),
    );
  }
} finally {
  for (const p of procs) p.kill();
}
