// Another client's latency while panes start, ws beside tmux, same run, same box:
//  - one client starts PANES panes one by one (ws: `tab_new` on one connection; tmux: control
//    mode `new-window -d`), each running `cat`;
//  - meanwhile another client asks for the list over and over (ws: `workspace_list` on its own
//    connection; tmux: control mode `list-windows`), and its answer times are kept;
//  - ws only: a `session_restore` of PANES panes (10 to a tab) in one request, same probe.
// Prints p50/p99/max of the probe for each, and how long the panes took to start.
// BENCH_PANES (default 100). Needs dist/ws (bun run build) and tmux.
import { writeFileSync } from "node:fs";
import { BenchEnv, jsonLines, report } from "./lib";
import { encode } from "../src/features/persistence/format";
import type { Layout } from "../src/model/layout";

const PANES = Number(process.env.BENCH_PANES ?? 100);
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))]!;

/** A tmux control-mode client: command() resolves when its %end (or %error) arrives. */
function tmuxConn(sock: string) {
  const p = Bun.spawn(["tmux", "-S", sock, "-C", "attach"], { stdin: "pipe", stdout: "pipe", stderr: "ignore" });
  const waiting: (() => void)[] = [];
  void (async () => {
    let buf = "";
    for await (const chunk of p.stdout) {
      buf += Buffer.from(chunk).toString();
      let nl;
      while ((nl = buf.indexOf("\n")) >= 0) {
        const line = buf.slice(0, nl);
        buf = buf.slice(nl + 1);
        if (/^%(end|error) /.test(line)) waiting.shift()?.();
      }
    }
  })();
  // The attach itself answers with one %begin/%end pair first.
  const ready = new Promise<void>((r) => waiting.push(r));
  return {
    ready,
    command(line: string): Promise<void> {
      return new Promise((r) => {
        waiting.push(r);
        p.stdin.write(line + "\n");
        p.stdin.flush();
      });
    },
    close() {
      p.stdin.end();
      p.kill();
    },
  };
}

/** Run `probe` in a loop while `work` runs; the probe's times in ms and the work's duration. */
async function whileProbing(probe: () => Promise<unknown>, work: () => Promise<void>) {
  const times: number[] = [];
  let stop = false;
  const loop = (async () => {
    while (!stop) {
      const a = performance.now();
      await probe();
      times.push(performance.now() - a);
      await Bun.sleep(2);
    }
  })();
  const t0 = performance.now();
  await work();
  const took = performance.now() - t0;
  stop = true;
  await loop;
  return { times, took };
}

function line(what: string, r: { times: number[]; took: number }) {
  console.log(`${what.padEnd(40)} start ${r.took.toFixed(0).padStart(6)} ms; probe p50 ${pct(r.times, 0.5).toFixed(1)} ms, p99 ${pct(r.times, 0.99).toFixed(1)} ms, max ${Math.max(...r.times).toFixed(1)} ms (${r.times.length} answers)`);
}

const env = new BenchEnv();
try {
  await env.start();
  const creator = jsonLines(env.wsSock);
  const prober = jsonLines(env.wsSock);
  const ws = await whileProbing(
    () => prober.request({ v: 2, type: "workspace_list" }),
    async () => {
      for (let i = 0; i < PANES; i++) await creator.request({ v: 6, type: "tab_new", command: ["cat"] });
    },
  );
  line(`ws: ${PANES} tab_new`, ws);

  const tc = tmuxConn(env.tmuxSock);
  const tp = tmuxConn(env.tmuxSock);
  await Promise.all([tc.ready, tp.ready]);
  const tmux = await whileProbing(
    () => tp.command("list-windows"),
    async () => {
      for (let i = 0; i < PANES; i++) await tc.command("new-window -d cat");
    },
  );
  line(`tmux: ${PANES} new-window`, tmux);
  report(`another client's p99 while ${PANES} panes start`, "ms", pct(ws.times, 0.99), pct(tmux.times, 0.99));
  tc.close();
  tp.close();

  // A restore of PANES panes in one request (ws only: tmux has none). Fresh connections: the server
  // closes one idle for 2 s, and the two above were idle through the tmux part.
  await creator.close();
  await prober.close();
  const restorer = jsonLines(env.wsSock);
  const restoreProber = jsonLines(env.wsSock);
  // A save now, answered once written: no background save is left to land on the file written next.
  const saved = JSON.parse(await restorer.request({ v: 6, type: "session_save" }));
  if (saved.type !== "session_saved") throw new Error(`session_save: ${JSON.stringify(saved)}`);
  const file = saved.path as string;
  const tabs = Math.ceil(PANES / 10);
  const tab = (t: number) => {
    const ids = Array.from({ length: Math.min(10, PANES - t * 10) }, (_, i) => t * 10 + i + 1);
    const chain = (i: number): Layout => (i === ids.length - 1 ? { kind: "pane", pane: ids[i]! } : { kind: "split", dir: i % 2 ? "below" : "right", ratio: 0.5, a: { kind: "pane", pane: ids[i]! }, b: chain(i + 1) });
    return { layout: chain(0), focused: ids[0]!, panes: ids.map((id) => ({ id, command: ["cat"], argv: ["cat"], cwd: "/tmp", env: {}, scrollback: "" })) };
  };
  const body = { size: { cols: 200, rows: 60 }, current: 0, workspaces: Array.from({ length: tabs }, (_, t) => ({ name: `bench${t}`, active: 0, tabs: [tab(t)] })) };
  writeFileSync(file, encode(body, { ws: "bench", server: "default" }), { mode: 0o600 });
  let reply: { type?: string; panes?: Record<string, unknown> } | undefined;
  const restore = await whileProbing(
    () => restoreProber.request({ v: 2, type: "workspace_list" }),
    async () => void (reply = JSON.parse(await restorer.request({ v: 6, type: "session_restore" }))),
  );
  // Only a restore that started every pane counts.
  const started = reply?.type === "session_restored" ? Object.keys(reply.panes ?? {}).length : 0;
  if (started !== PANES) throw new Error(`session_restore started ${started} of ${PANES} panes: ${JSON.stringify(reply).slice(0, 500)}`);
  line(`ws: session_restore of ${PANES} panes`, restore);
  await restorer.close();
  await restoreProber.close();
} finally {
  await env.stop();
}
