// Hundreds of panes on one machine: what a pane costs to keep, ws beside tmux in one run.
//  - server RSS at start (a fresh server with its first pane, a client attached at 120x40), and
//    how much of it is the process's own rather than its executable's shared pages;
//  - each idle pane: RSS and descriptors with SCALE_IDLE more idle shells, per pane: RSS as the
//    growth from SCALE_IDLE/2 to SCALE_IDLE panes once it has settled (what one more pane costs),
//    and from the first five (they bring back code a started ws server let go of) for comparison;
//  - history: SCALE_PANES panes, each holding M lines of 100 characters for each M of SCALE_LINES
//    (both servers keep M lines of history): the server's RSS, and what one history line costs
//    (the growth from the same panes idle, per line);
//  - teardown: kill-server with that history, until the server has exited, and its peak RSS on
//    the way out;
//  - key echo: with the idle panes open and SCALE_FLOODS of them printing (`seq`, off screen),
//    keys typed into the attached pane, p50 and p99 (ws: attach EVENT → OUTPUT frame; tmux: a
//    control client's send-keys → %output, the floods' output switched off for it).
// Every figure comes from the two servers' own processes (/proc/PID/status VmRSS, /proc/PID/fd).
//
//   bun run bench scale                  the issue's sizes (300 idle panes, 100 × 2,000 and 10,000
//                                        lines, 10 floods): minutes, and several GB of memory
//   SCALE_SMALL=1 bun run bench scale    tiny sizes, to check the bench itself runs (seconds)
// SCALE_IDLE, SCALE_PANES, SCALE_LINES (comma-separated), SCALE_FLOODS, SCALE_KEYS override;
// SCALE_ONLY=history runs the history rows alone (e.g. SCALE_LINES=2000: 100 × 2,000 only),
// SCALE_ONLY=idle the idle panes' rows alone.
// Build first (bun run build): ws is dist/ws, or WS_BIN.
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Arrival, askWs, attachClient, BenchEnv, median, wsServerPid } from "./lib";
import { encodeEvent } from "../src/protocol/frames";

const SMALL = !!process.env.SCALE_SMALL;
const num = (name: string, big: number, small: number) => Number(process.env[name] ?? (SMALL ? small : big));
const IDLE = num("SCALE_IDLE", 300, 6);
const PANES = num("SCALE_PANES", 100, 3);
const LINES = (process.env.SCALE_LINES ?? (SMALL ? "200,400" : "2000,10000")).split(",").map(Number);
const FLOODS = Math.min(num("SCALE_FLOODS", 10, 2), IDLE);
/** Idle panes opened before RSS per pane is measured from (see where it is measured). */
const WARM_PANES = Math.min(5, Math.floor(IDLE / 2));
/** Idle panes at the first of the two readings RSS per pane is the slope between. */
const HALF_PANES = Math.max(WARM_PANES + 1, Math.floor(IDLE / 2));
const KEYS = num("SCALE_KEYS", 150, 10);
const WARMUP = num("SCALE_WARMUP", 50, 5);
const COLS = 120;
const ROWS = 40;
/** How long a server is left alone before its memory is read (its allocations settle). */
const SETTLE_MS = SMALL ? 500 : 3000;
/** How long panes are left alone before an idle figure is read: past ws's rest delay
 * (WS_EMULATOR_REST_MS, 5 s) and the collection after it: a pane nobody looks at has put its emulator away. */
const IDLE_MS = SMALL ? 500 : 8000;
/** The least time from the last pane opened to a settled reading (settledRssMB). */
const SETTLE_MIN_MS = SMALL ? 1000 : 20_000;

const FILLER = "the quick brown fox jumps over the lazy dog 0123456789 abcdefghijklmnopqrstuvwxyz ABCDEFGHIJK";
/** Lines of exactly 100 characters: "line NNNNNNN " and filler. */
const LINE_FORMAT = `line %07g ${FILLER.slice(0, 100 - 13)}`;
const IDLE_SHELL = ["sh"];
const FLOOD = "exec seq 1 999999999999";
/** Blocks until a line comes, then prints `lines` lines and waits (the pane stays). */
const filler = (lines: number) => ["sh", "-c", `read x; seq -f '${LINE_FORMAT}' 1 ${lines}; echo FILL''ED; exec cat`];

const arrived = new Arrival();
const rssMB = (pid: number) => Number(readFileSync(`/proc/${pid}/status`, "utf8").match(/VmRSS:\s+(\d+)/)![1]) / 1024;
/** The part of RSS that is the process's own (heap, stacks), not pages of its executable and
 * libraries, which the page cache holds and every process running them shares. */
const anonMB = (pid: number) => Number(readFileSync(`/proc/${pid}/status`, "utf8").match(/RssAnon:\s+(\d+)/)![1]) / 1024;
/** RSS once it has stopped moving: read every second from IDLE_MS on, for at least SETTLE_MIN_MS in
 * all, until five readings in a row are within 0.25 MB of each other (or 60 s have passed). ws puts
 * idle panes' emulators away after 5 s and collects them up to ~11 s after the last (its collections
 * are 10 s apart at most once), and its allocator gives the pages back a moment later: until then
 * RSS can stand still, higher, for seconds. */
async function settledRssMB(pid: number): Promise<number> {
  const t0 = Date.now();
  await Bun.sleep(IDLE_MS);
  const end = t0 + (SMALL ? 3000 : 60_000);
  const last = [rssMB(pid)];
  while (Date.now() < end) {
    await Bun.sleep(SMALL ? 200 : 1000);
    last.push(rssMB(pid));
    const recent = last.slice(-5);
    if (Date.now() - t0 >= SETTLE_MIN_MS && recent.length === 5 && Math.max(...recent) - Math.min(...recent) < 0.25) break;
  }
  return last[last.length - 1]!;
}
const fds = (pid: number) => readdirSync(`/proc/${pid}/fd`).length;
/** Whether the process is still there and not a zombie (its exit not yet collected by its parent). */
const alive = (pid: number) => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
  } catch {
    return false;
  }
};
const p99 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * 0.99))]!;
const stripEscapes = (s: string) => s.replace(/\x1b\[[0-9;?<>=]*[ -/]*[@-~]/g, "");
const CHARS = "abcdefghijkmnopqrstuvw";

async function waitUntil(what: string, cond: () => boolean | Promise<boolean>, ms: number, everyMs = 100): Promise<void> {
  const end = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await Bun.sleep(everyMs);
  }
}

/** One multiplexer, driven the way a script drives it. */
interface Mux {
  readonly name: string;
  readonly pid: number;
  /** Open `n` panes (each in its own tab / window) running `argv`; their ids. */
  open(n: number, argv: string[]): Promise<string[]>;
  /** Type `text` and Enter into `pane`. */
  type(pane: string, text: string): Promise<void>;
  /** Until `pane`'s screen shows `text`. */
  shows(pane: string, text: string, ms: number): Promise<void>;
  /** Start `seq` in the `floods` panes, then type keys into the attached pane (running raw
   * `cat`): their echo latencies (tmux's control client has the floods' output switched off first). */
  echo(floods: string[]): Promise<number[]>;
  /** kill-server: seconds until the process has exited, and its peak RSS meanwhile. */
  kill(): Promise<{ seconds: number; peakMB: number }>;
  close(): Promise<void>;
}

async function killTimed(pid: number, kill: () => Promise<unknown>): Promise<{ seconds: number; peakMB: number }> {
  let peak = rssMB(pid);
  const t0 = performance.now();
  const done = kill();
  while (alive(pid)) {
    try {
      peak = Math.max(peak, rssMB(pid));
    } catch {}
    await Bun.sleep(5);
  }
  const seconds = (performance.now() - t0) / 1000;
  await done;
  return { seconds, peakMB: peak };
}

async function startWs(history: number): Promise<Mux> {
  const env = new BenchEnv();
  env.env.WS_SCROLLBACK = String(history);
  if ((await env.run([env.bin, "start"])) !== 0) throw new Error(`${env.bin} start failed (build it with bun run build)`);
  const pid = wsServerPid(env.wsSock);
  // A client at 120x40, as the person's terminal: panes take its size; its frames are kept for the echo.
  const attached = await attachClient(env.wsSock, COLS, ROWS, arrived);
  const client = attached.socket;
  const ask = (msg: Record<string, unknown>) => askWs(env.wsSock, msg);
  const first = String((await ask({ type: "pane_list" })).panes[0].pane);
  return {
    name: "ws",
    pid,
    async open(n, argv) {
      const ids: string[] = [];
      for (let i = 0; i < n; i++) ids.push(String((await ask({ type: "tab_new", cwd: "/tmp", command: argv })).pane));
      return ids;
    },
    async type(pane, t) {
      await ask({ type: "pane_send", pane: Number(pane), text: t, enter: true });
    },
    async shows(pane, t, ms) {
      await ask({ type: "wait_for", condition: "output", pane: Number(pane), pattern: t, timeout: ms });
    },
    async echo(floods) {
      for (const f of floods) await ask({ type: "pane_send", pane: Number(f), text: FLOOD, enter: true });
      await ask({ type: "pane_send", pane: Number(first), text: "stty raw -echo; exec cat", enter: true });
      await ask({ type: "pane_focus", pane: Number(first) });
      await Bun.sleep(SETTLE_MS);
      const lat: number[] = [];
      for (let i = -WARMUP; i < KEYS; i++) {
        const ch = CHARS[(i + WARMUP) % CHARS.length]!;
        attached.clear();
        const t0 = performance.now();
        client.write(encodeEvent({ Key: { code: { Char: ch }, modifiers: "", kind: "Press", state: "" } }));
        await arrived.until(() => stripEscapes(attached.text()).includes(ch));
        if (i >= 0) lat.push(performance.now() - t0);
        await Bun.sleep(10 + Math.random() * 20);
      }
      return lat;
    },
    async kill() {
      return killTimed(pid, () => env.run([env.bin, "kill-server"]));
    },
    async close() {
      client.end();
      if (alive(pid)) await env.run([env.bin, "kill-server"]);
      await env.stop();
    },
  };
}

async function startTmux(history: number): Promise<Mux> {
  const env = new BenchEnv();
  const conf = join(env.root, "tmux.conf");
  writeFileSync(conf, `set -g history-limit ${history}\nset -g default-size ${COLS}x${ROWS}\nset -g status off\n`);
  const tmux = (...args: string[]) => Bun.spawn(["tmux", "-S", env.tmuxSock, ...args], { env: env.env, stdout: "pipe", stderr: "pipe", stdin: "ignore" });
  const out = async (...args: string[]) => {
    const p = tmux(...args);
    const [text, code] = [await new Response(p.stdout).text(), await p.exited];
    if (code !== 0) throw new Error(`tmux ${args.join(" ")} exited ${code}`);
    return text;
  };
  await out("-f", conf, "new-session", "-d", "-x", String(COLS), "-y", String(ROWS), "sh");
  const pid = Number((await out("display", "-p", "#{pid}")).trim());
  const quote = (a: string) => `'${a.replaceAll("'", "'\\''")}'`;
  const type = async (pane: string, t: string) => {
    if (t) await out("send-keys", "-t", pane, "-l", t);
    await out("send-keys", "-t", pane, "Enter");
  };
  return {
    name: "tmux",
    pid,
    async open(n, argv) {
      const ids: string[] = [];
      // One tmux command per 50 windows (each `new-window -P` prints the new pane's id).
      for (let i = 0; i < n; i += 50) {
        const batch: string[] = [];
        for (let j = i; j < Math.min(n, i + 50); j++) batch.push("new-window", "-d", "-P", "-F", "#{pane_id}", argv.map(quote).join(" "), ";");
        ids.push(...(await out(...batch.slice(0, -1))).trim().split("\n"));
      }
      return ids;
    },
    type,
    async shows(pane, t, ms) {
      await waitUntil(`${t} in tmux pane ${pane}`, async () => (await out("capture-pane", "-p", "-t", pane)).includes(t), ms);
    },
    async echo(floods) {
      await out("respawn-pane", "-k", "-t", "%0", "sh", "-c", "stty raw -echo; exec cat");
      const p = Bun.spawn(["tmux", "-S", env.tmuxSock, "-C", "attach"], { env: env.env, stdin: "pipe", stdout: "pipe" });
      let got = "";
      void (async () => {
        const dec = new TextDecoder();
        for await (const b of p.stdout) {
          got = (got + dec.decode(b)).slice(-65536);
          arrived.check();
        }
      })();
      const send = (line: string) => {
        p.stdin.write(line + "\n");
        p.stdin.flush();
      };
      await arrived.until(() => got.length > 0);
      for (const f of floods) send(`refresh-client -A '${f}:off'`);
      await Bun.sleep(SETTLE_MS);
      for (const f of floods) await type(f, FLOOD);
      await Bun.sleep(SETTLE_MS);
      const lat: number[] = [];
      for (let i = -WARMUP; i < KEYS; i++) {
        const ch = CHARS[(i + WARMUP) % CHARS.length]!;
        got = "";
        const t0 = performance.now();
        send(`send-keys -t %0 -l ${ch}`);
        await arrived.until(() => got.split("\n").some((l) => l.startsWith("%output %0 ") && l.includes(ch)));
        if (i >= 0) lat.push(performance.now() - t0);
        await Bun.sleep(10 + Math.random() * 20);
      }
      send("detach");
      p.kill();
      return lat;
    },
    async kill() {
      return killTimed(pid, () => out("kill-server").catch(() => ""));
    },
    async close() {
      await env.stop();
    },
  };
}

const STARTS = { ws: startWs, tmux: startTmux };
type Row = { what: string; unit: string; ws: number; tmux: number };
const rows: Row[] = [];
const put = (what: string, unit: string, m: Record<string, number>) => {
  const row = { what, unit, ws: m.ws!, tmux: m.tmux! };
  rows.push(row);
  const ratio = row.ws / row.tmux;
  console.log(`${what.padEnd(44)} ws ${row.ws.toFixed(3).padStart(10)} ${unit.padEnd(3)}  tmux ${row.tmux.toFixed(3).padStart(10)} ${unit.padEnd(3)}  ws/tmux ${Number.isFinite(ratio) ? ratio.toFixed(2) : "-"}`);
};

console.log(`${SMALL ? "SMALL sizes (a check that the bench runs, not a measurement): " : ""}${IDLE} idle panes, ${PANES} panes × ${LINES.join(" / ")} lines, ${FLOODS} floods, ${KEYS} keys; load ${readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ")}`);

// Idle panes, descriptors, and key echo among them.
if (process.env.SCALE_ONLY !== "history") {
  const m: Record<string, Record<string, number>> = {};
  for (const [name, start] of Object.entries(STARTS)) {
    const mux = await start(LINES[0]!);
    try {
      await Bun.sleep(SETTLE_MS);
      const at = { rss: rssMB(mux.pid), anon: anonMB(mux.pid), fds: fds(mux.pid) };
      // RSS per pane is the growth past the first few panes: opening a pane runs code that a
      // started server has let go of (ws unmaps its start-up code, src/platform/code-pages.ts),
      // and those pages come back once, whatever the number of panes.
      // Past them, what one more pane costs is the growth from HALF_PANES to IDLE panes, each read
      // once the server's RSS has settled (the emulators put away, collected and given back).
      const panes = await mux.open(WARM_PANES, IDLE_SHELL);
      const warm = await settledRssMB(mux.pid);
      panes.push(...(await mux.open(HALF_PANES - WARM_PANES, IDLE_SHELL)));
      const half = await settledRssMB(mux.pid);
      panes.push(...(await mux.open(IDLE - HALF_PANES, IDLE_SHELL)));
      const idle = { rss: await settledRssMB(mux.pid), fds: fds(mux.pid) };
      const lat = await mux.echo(panes.slice(0, FLOODS));
      m[name] = {
        start: at.rss,
        startAnon: at.anon,
        perPane: (idle.rss - half) / (IDLE - HALF_PANES),
        perPaneFromWarm: (idle.rss - warm) / (IDLE - WARM_PANES),
        fds: (idle.fds - at.fds) / IDLE,
        fdsTotal: idle.fds,
        p50: median(lat),
        p99: p99(lat),
      };
    } finally {
      await mux.close();
    }
  }
  const pick = (k: string) => ({ ws: m.ws![k]!, tmux: m.tmux![k]! });
  put("server RSS at start", "MB", pick("start"));
  put("of which its own (RssAnon)", "MB", pick("startAnon"));
  put(`RSS per idle pane (${HALF_PANES} → ${IDLE} panes)`, "MB", pick("perPane"));
  put(`RSS per idle pane (${WARM_PANES} → ${IDLE} panes)`, "MB", pick("perPaneFromWarm"));
  put(`descriptors per pane (${IDLE} panes)`, "", pick("fds"));
  put(`descriptors in all (${IDLE} panes)`, "", pick("fdsTotal"));
  put(`key echo p50, ${IDLE} panes, ${FLOODS} flooding`, "ms", pick("p50"));
  put(`key echo p99, ${IDLE} panes, ${FLOODS} flooding`, "ms", pick("p99"));
}

// History, and teardown with it.
for (const lines of process.env.SCALE_ONLY === "idle" ? [] : LINES) {
  const m: Record<string, Record<string, number>> = {};
  for (const [name, start] of Object.entries(STARTS)) {
    const mux = await start(lines);
    try {
      const panes = await mux.open(PANES, filler(lines));
      await Bun.sleep(IDLE_MS);
      const idle = rssMB(mux.pid);
      for (const p of panes) await mux.type(p, "");
      for (const p of panes) await mux.shows(p, "FILLED", 600_000);
      await Bun.sleep(IDLE_MS);
      const full = rssMB(mux.pid);
      const settled = await settledRssMB(mux.pid);
      const down = await mux.kill();
      m[name] = { full, settled, perLineKB: ((full - idle) * 1024) / (PANES * lines), teardown: down.seconds, peak: down.peakMB };
    } finally {
      await mux.close();
    }
  }
  const pick = (k: string) => ({ ws: m.ws![k]!, tmux: m.tmux![k]! });
  const what = `${PANES} panes × ${lines} lines`;
  put(`RSS, ${what}`, "MB", pick("full"));
  put(`RSS settled, ${what}`, "MB", pick("settled"));
  put(`per history line, ${what}`, "KB", pick("perLineKB"));
  put(`kill-server, ${what}`, "s", pick("teardown"));
  put(`peak RSS during kill-server, ${what}`, "MB", pick("peak"));
}

console.log("\n| | ws | tmux | ws/tmux |\n|---|---|---|---|");
const fmt = (n: number) => (Math.abs(n) >= 100 ? n.toFixed(0) : Math.abs(n) >= 1 ? n.toFixed(2) : n.toFixed(3));
for (const r of rows) console.log(`| ${r.what}${r.unit ? ` (${r.unit})` : ""} | ${fmt(r.ws)} | ${fmt(r.tmux)} | ${(r.ws / r.tmux).toFixed(2)} |`);
