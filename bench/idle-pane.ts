// What one idle pane costs the ws server, broken down: a server run from source with a heap hook
// (bench/fixtures/heap-hook.ts), N idle `sh` panes then 2N, each read after the panes have rested
// and a full collection; the growth per pane of RSS, its anonymous part by kind of mapping (the
// brk heap: libc malloc; anonymous mappings: JSC's and Bun's allocators), and of the JS heap by
// object type (bun:jsc heapStats). The server's own per-pane cost is the figure bench/scale.ts
// reports beside tmux; this says what it is made of. It also reads the server's idle CPU at each
// count (it should not grow with idle panes: nothing is polled per pane while it is quiet).
//
//   bun bench/idle-pane.ts            N = 100 (IDLE_N), a client attached at 120x40
import { mkdtempSync, readFileSync, rmSync, chmodSync, realpathSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { askWs } from "./lib";

const N = Number(process.env.IDLE_N ?? 100);
/** How long panes are left before a reading: past the rest (5 s), the collection after it (up to
 * ~11 s) and the allocator giving the pages back. */
const IDLE_MS = Number(process.env.IDLE_MS ?? 20_000);
/** How long the server's idle CPU is read over, at each count. */
const CPU_MS = Number(process.env.IDLE_CPU_MS ?? 10_000);
const ROOT = resolve(import.meta.dir, "..");
const root = realpathSync(mkdtempSync(join(tmpdir(), "ws-idle-")));
chmodSync(root, 0o700);
const sock = join(root, "ws", "default.sock");
const hookOut = join(root, "heap.json");
const env: Record<string, string> = {};
for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !k.startsWith("WS_") && k !== "TMUX") env[k] = v;
Object.assign(env, { XDG_RUNTIME_DIR: root, HOME: root, XDG_STATE_HOME: join(root, "state"), SHELL: "/bin/sh", WS_HEAP_HOOK_OUT: hookOut });
for (const k of ["WS_EMULATOR_REST_MS", "WS_PTY"]) if (process.env[k]) env[k] = process.env[k]!;

/** IDLE_BIN=dist/ws: the built server, read as it is (no heap hook, no forced collection). */
const BIN = process.env.IDLE_BIN ? resolve(process.env.IDLE_BIN) : undefined;
const argv = BIN ? [BIN] : [process.execPath, "--preload", join(ROOT, "bench/fixtures/heap-hook.ts"), join(ROOT, "src/main.ts")];
const server = Bun.spawn([...argv, "server", "--socket-path", sock], {
  env: { ...env, WS_SERVER_SOCKET: sock },
  stdin: "ignore",
  stdout: "ignore",
  stderr: "inherit",
  cwd: root,
});
const pid = server.pid;
// However this ends (bench/lib.ts exits at once on a signal), the server and its shells go too:
// SIGKILL, so that it writes nothing more into the folder removed after it.
process.on("exit", () => {
  server.kill("SIGKILL");
  rmSync(root, { recursive: true, force: true });
});

type Sample = { rssNoGc: number; anonNoGc: number; rss: number; anon: number; file: number; brk: number; anonMaps: number; jit: number; heap: number; capacity: number; extra: number; objects: Record<string, number>; objectCount: number };

function smaps(): { rss: number; anon: number; file: number; brk: number; anonMaps: number; jit: number } {
  const text = readFileSync(`/proc/${pid}/smaps`, "utf8");
  let name = "";
  let perms = "";
  let brk = 0;
  let anonMaps = 0;
  let jit = 0;
  for (const line of text.split("\n")) {
    const head = line.match(/^[0-9a-f]+-[0-9a-f]+ (\S+) \S+ \S+ \S+\s*(.*)$/);
    if (head) {
      perms = head[1]!;
      name = head[2]!;
      continue;
    }
    const m = line.match(/^Anonymous:\s+(\d+) kB/);
    if (!m) continue;
    const kb = Number(m[1]);
    if (name === "[heap]") brk += kb;
    else if (name === "" && perms.includes("x")) jit += kb;
    else if (name === "") anonMaps += kb;
  }
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (k: string) => Number(status.match(new RegExp(`${k}:\\s+(\\d+)`))![1]);
  return { rss: kb("VmRSS"), anon: kb("RssAnon"), file: kb("RssFile"), brk, anonMaps, jit };
}

async function sample(): Promise<Sample> {
  const before = smaps();
  const noGc = { rssNoGc: before.rss, anonNoGc: before.anon };
  if (BIN) return { ...noGc, ...before, heap: 0, capacity: 0, extra: 0, objects: {}, objectCount: 0 };
  rmSync(hookOut, { force: true });
  process.kill(pid, "SIGUSR2");
  const end = Date.now() + 30_000;
  while (!existsSync(hookOut)) {
    if (Date.now() > end) throw new Error("the heap hook did not answer");
    await Bun.sleep(50);
  }
  await Bun.sleep(200);
  const h = JSON.parse(readFileSync(hookOut, "utf8"));
  return { ...noGc, ...smaps(), heap: h.heap.heapSize / 1024, capacity: h.heap.heapCapacity / 1024, extra: h.heap.extraMemorySize / 1024, objects: h.heap.objectTypeCounts, objectCount: h.heap.objectCount };
}

/** The server's CPU time (user + system) per second of wall time, over `ms`. */
async function cpuPerSecond(ms: number): Promise<number> {
  const ticks = () => {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return Number(f[11]) + Number(f[12]); // utime, stime (fields 14 and 15), in clock ticks (100 Hz)
  };
  const t0 = ticks();
  await Bun.sleep(ms);
  return ((ticks() - t0) * 10) / (ms / 1000);
}

const ask = (msg: Record<string, unknown>) => askWs(sock, msg);

try {
  const up = Date.now() + 30_000;
  while (!existsSync(sock)) {
    if (Date.now() > up) throw new Error("the server did not start");
    await Bun.sleep(50);
  }
  await Bun.sleep(500);
  const client = await Bun.connect({ unix: sock, socket: { open: (s) => void s.write(`{"v":1,"type":"attach","cols":120,"rows":40}\n`), data: () => {} } });
  const open = async (n: number) => {
    for (let i = 0; i < n; i++) await ask({ type: "tab_new", cwd: "/tmp", command: ["sh"] });
  };
  await open(5);
  await Bun.sleep(IDLE_MS);
  const w = await sample();
  const cpu = [await cpuPerSecond(CPU_MS)];
  await open(N);
  await Bun.sleep(IDLE_MS);
  const a = await sample();
  cpu.push(await cpuPerSecond(CPU_MS));
  await open(N);
  await Bun.sleep(IDLE_MS);
  const b = await sample();
  cpu.push(await cpuPerSecond(CPU_MS));
  const info = await ask({ type: "pane_list" });
  const last = info.panes[info.panes.length - 1].pane;
  const resting = (await ask({ type: "pane_info", pane: last })).emulator;
  const per = (x: Sample, y: Sample, n: number, k: keyof Sample) => (((y[k] as number) - (x[k] as number)) / n).toFixed(1).padStart(8);
  console.log(`${info.panes.length} idle sh panes (the last: ${resting}), per pane, KB:   5 → ${5 + N}   ${5 + N} → ${5 + 2 * N}   5 → ${5 + 2 * N}`);
  for (const k of ["rssNoGc", "anonNoGc", "rss", "file", "anon", "brk", "jit", "anonMaps", "capacity", "heap", "extra"] as const)
    console.log(`  ${k.padEnd(10)} ${per(w, a, N, k)} ${per(a, b, N, k)} ${per(w, b, 2 * N, k)}   (${w[k].toFixed(0)} → ${a[k].toFixed(0)} → ${b[k].toFixed(0)})`);
  console.log(`  idle CPU, ms per s at 5 / ${5 + N} / ${5 + 2 * N} panes: ${cpu.map((c) => c.toFixed(1)).join(" / ")}`);
  console.log(`  JS objects per pane: ${((b.objectCount - a.objectCount) / N).toFixed(1)}`);
  const types = new Set([...Object.keys(a.objects), ...Object.keys(b.objects)]);
  const diffs = [...types].map((t) => [t, ((b.objects[t] ?? 0) - (a.objects[t] ?? 0)) / N] as const).filter(([, d]) => Math.abs(d) >= 0.5).sort((x, y) => y[1] - x[1]);
  for (const [t, d] of diffs) console.log(`    ${t.padEnd(36)} ${d.toFixed(2)}`);
  client.end();
} finally {
  server.kill("SIGTERM");
  await server.exited;
  rmSync(root, { recursive: true, force: true });
}
