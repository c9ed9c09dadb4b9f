// A quiet server's memory over minutes, not only at start: a fresh server with its first pane, a
// client attached at 120x40 (as bench/scale.ts's "server RSS at start"), left alone while its
// periodic work runs (the scrollback save, the port scan, the agent reaper, the status clock).
// Every few seconds: VmRSS, and how much of it is the process's own (RssAnon) and how much pages
// of its executable (RssFile); minor faults and CPU ticks. A tmux server beside it in the same run,
// with a control client attached at the same size.
//
//   bun bench/steady-rss.ts [seconds] [every-seconds]      default 180 s, a sample every 3 s
// STEADY_BINS=a,b runs several ws builds side by side (a before/after), each its own server.
// STEADY_PANES=N opens N more idle `sh` panes in each server (tmux: windows) before sampling.
// Build first (bun run build): ws is dist/ws, or WS_BIN.
import { readFileSync } from "node:fs";
import { Arrival, askWs, attachClient, BenchEnv, WS, median, wsServerPid } from "./lib";

const SECONDS = Number(process.argv[2] ?? 180);
const EVERY_S = Number(process.argv[3] ?? 3);
const BINS = process.env.STEADY_BINS ? process.env.STEADY_BINS.split(",") : [WS];
const PANES = Number(process.env.STEADY_PANES ?? 0);
const COLS = 120;
const ROWS = 40;

const status = (pid: number) => readFileSync(`/proc/${pid}/status`, "utf8");
const kB = (s: string, key: string) => Number(new RegExp(`${key}:\\s+(\\d+)`).exec(s)?.[1] ?? 0);
/** Minor faults and user+system clock ticks (/proc/PID/stat fields 10, 14, 15). */
function stat(pid: number): { minflt: number; ticks: number } {
  const s = readFileSync(`/proc/${pid}/stat`, "utf8");
  const f = s.slice(s.lastIndexOf(")") + 2).split(" ");
  return { minflt: Number(f[7]), ticks: Number(f[11]) + Number(f[12]) };
}

interface Server {
  label: string;
  pid: number;
  stop(): Promise<void>;
}

const arrived = new Arrival();

async function startWs(bin: string, label: string): Promise<Server> {
  const env = new BenchEnv(bin);
  if ((await env.run([env.bin, "start"])) !== 0) throw new Error(`${env.bin} start failed (build it with bun run build)`);
  const pid = wsServerPid(env.wsSock);
  const client = (await attachClient(env.wsSock, COLS, ROWS, arrived)).socket;
  for (let i = 0; i < PANES; i++) await askWs(env.wsSock, { type: "tab_new", cwd: "/tmp", command: ["sh"] });
  return {
    label,
    pid,
    async stop() {
      client.end();
      await env.stop();
    },
  };
}

async function startTmux(): Promise<Server> {
  const env = new BenchEnv();
  const run = (...args: string[]) => env.run(["tmux", "-S", env.tmuxSock, ...args]);
  if ((await run("-f", "/dev/null", "new-session", "-d", "-x", String(COLS), "-y", String(ROWS), "sh")) !== 0) throw new Error("tmux new-session failed");
  const out = Bun.spawn(["tmux", "-S", env.tmuxSock, "display", "-p", "#{pid}"], { env: env.env, stdout: "pipe" });
  const pid = Number((await new Response(out.stdout).text()).trim());
  for (let i = 0; i < PANES; i++) if ((await run("new-window", "-d", "sh")) !== 0) throw new Error("tmux new-window failed");
  // A control client, as ws has an attached one.
  const client = Bun.spawn(["tmux", "-S", env.tmuxSock, "-C", "attach"], { env: env.env, stdin: "pipe", stdout: "ignore" });
  client.stdin.write(`refresh-client -C ${COLS}x${ROWS}\n`);
  client.stdin.flush();
  return {
    label: "tmux",
    pid,
    async stop() {
      client.kill();
      await env.stop();
    },
  };
}

const servers: Server[] = [];
try {
  for (const [i, bin] of BINS.entries()) servers.push(await startWs(bin, BINS.length > 1 ? `ws${i}` : "ws"));
  servers.push(await startTmux());
  const load = () => readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");
  console.log(`${SECONDS} s, a sample every ${EVERY_S} s, ${PANES + 1} panes each; ${BINS.map((b, i) => `ws${BINS.length > 1 ? i : ""}=${b}`).join(" ")}; pids ${servers.map((s) => `${s.label}=${s.pid}`).join(" ")}; load ${load()}`);
  const t0 = performance.now();
  const first = new Map(servers.map((s) => [s.pid, stat(s.pid)]));
  // CPU is counted over the last 60 s, once the panes' start has settled.
  let late: { t: number; at: Map<number, { minflt: number; ticks: number }> } | undefined;
  const series = new Map<number, { t: number; rss: number; anon: number; file: number }[]>(servers.map((s) => [s.pid, []]));
  for (let k = 1; (k - 1) * EVERY_S <= SECONDS; k++) {
    const t = (performance.now() - t0) / 1000;
    if (!late && t >= SECONDS - 60) late = { t, at: new Map(servers.map((s) => [s.pid, stat(s.pid)])) };
    const cols: string[] = [];
    for (const s of servers) {
      const st = status(s.pid);
      const [rss, anon, file] = [kB(st, "VmRSS") / 1024, kB(st, "RssAnon") / 1024, kB(st, "RssFile") / 1024];
      series.get(s.pid)!.push({ t, rss, anon, file });
      cols.push(`${s.label} ${rss.toFixed(1)} (anon ${anon.toFixed(1)}, file ${file.toFixed(1)})`);
    }
    console.log(`${t.toFixed(0).padStart(4)} s  ${cols.join("  ")}`);
    await Bun.sleep(Math.max(0, k * EVERY_S * 1000 - (performance.now() - t0)));
  }
  const secs = (performance.now() - t0) / 1000;
  console.log(`load ${load()}`);
  for (const s of servers) {
    const xs = series.get(s.pid)!;
    const last = xs.filter((x) => x.t >= secs - 60);
    const [a, b] = [first.get(s.pid)!, stat(s.pid)];
    const l = late!.at.get(s.pid)!;
    const cpu = (((b.ticks - l.ticks) / 100) * 100) / (secs - late!.t);
    console.log(
      `${s.label.padEnd(5)} RSS MB: first ${xs[0]!.rss.toFixed(1)}, max ${Math.max(...xs.map((x) => x.rss)).toFixed(1)}, ` +
        `median of the last 60 s ${median(last.map((x) => x.rss)).toFixed(1)} (anon ${median(last.map((x) => x.anon)).toFixed(1)}, file ${median(last.map((x) => x.file)).toFixed(1)}); ` +
        `minor faults ${b.minflt - a.minflt} (the last 60 s ${b.minflt - l.minflt}), CPU over the last 60 s ${cpu.toFixed(2)}% of a core`,
    );
  }
} finally {
  for (const s of servers) await s.stop();
}
