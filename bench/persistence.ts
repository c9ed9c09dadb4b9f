// Save and restore time for 100 panes holding 10,000 lines of scrollback each.
//   bun bench/persistence.ts            (WS_BIN=dist/ws for the compiled binary)
// Prints: `ws session save` (server time and wall time), `ws kill-server --keep`, the restore on
// the next `ws start` (until it answers, and until every pane shows its old scrollback), the save
// file's size. Beside it, tmux: tmux has no save of its own; tmux-resurrect (a plugin) is what
// people use, and its save is one `tmux capture-pane -S -N` per pane written to files. Where tmux
// is installed we time exactly that capture for the same panes, and say whether resurrect is here.
import { existsSync, readFileSync, statSync, writeFileSync, mkdtempSync, rmSync } from "node:fs";
import { cpus, homedir, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { TestServer, waitFor } from "../test/harness";

const WORKSPACES = Number(process.env.BENCH_WORKSPACES ?? 10);
const TABS = Number(process.env.BENCH_TABS ?? 10);
const LINES = Number(process.env.BENCH_LINES ?? 10_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const PANES = WORKSPACES * TABS;
const FILL = `seq -f 'scrollback line %05g: the quick brown fox jumps over the lazy dog 0123456' 1 ${LINES}`;
const LAST = `scrollback line ${String(LINES).padStart(5, "0")}:`;

/** CPU time (user + system) a process has used, in ms, from /proc (Linux; NaN elsewhere). */
function cpuMs(pid: number): number {
  try {
    const f = readFileSync(`/proc/${pid}/stat`, "utf8");
    const rest = f.slice(f.lastIndexOf(")") + 2).split(" ");
    return ((Number(rest[11]) + Number(rest[12])) * 1000) / 100; // fields 14, 15 in USER_HZ (100)
  } catch {
    return NaN;
  }
}
const daemonPid = (s: TestServer): number => JSON.parse(readFileSync(join(s.socketDir, "default.info.json"), "utf8")).pid;
const cpu = (n: number) => (Number.isNaN(n) ? "" : `, daemon CPU ${n.toFixed(0)} ms`);

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
const ms = (n: number) => `${n.toFixed(0).padStart(6)} ms`;

async function allPanes(s: TestServer): Promise<number[]> {
  return (await s.list()).flatMap((w) => w.tabs.flatMap((t) => t.panes));
}

async function main() {
  const s = new TestServer({ env: { HISTFILE: "/dev/null", WS_SCROLLBACK: String(LINES) } });
  try {
    await s.start();
    console.log(`machine: ${cpus().length} CPUs, load average ${loadavg().map((x) => x.toFixed(1)).join(" ")} (figures scale with load)`);
    console.log(`building ${PANES} panes (${WORKSPACES} workspaces × ${TABS} tabs), ${LINES} lines of scrollback each …`);
    const t0 = performance.now();
    for (let w = 0; w < WORKSPACES; w++) {
      const name = w === 0 ? "main" : `ws${w}`;
      if (w > 0) await s.request({ v: 2, type: "workspace_new", name });
      for (let t = 1; t < TABS; t++) await s.request({ v: 2, type: "tab_new", workspace: name, cwd: s.root, command: [] });
    }
    const panes = await allPanes(s);
    if (panes.length !== PANES) throw new Error(`expected ${PANES} panes, have ${panes.length}`);
    for (const p of panes) await s.request({ v: 2, type: "pane_send", pane: p, text: FILL, enter: true });
    for (const p of panes) await s.waitScreen(p, LAST, 300_000);
    console.log(`filled in ${((performance.now() - t0) / 1000).toFixed(1)} s\n`);

    const path = join(s.env.XDG_STATE_HOME!, "ws", "default.session");
    const server: number[] = [];
    const wall: number[] = [];
    const cpuFull: number[] = [];
    const pid = daemonPid(s);
    for (let i = 0; i < RUNS; i++) {
      const a = performance.now();
      const c0 = cpuMs(pid);
      const out = await s.run(["--json", "session", "save", "--full"]);
      cpuFull.push(cpuMs(pid) - c0);
      if (out.code !== 0) {
        console.log(`  run ${i + 1}: session save --full failed after ${(performance.now() - a).toFixed(0)} ms: ${out.stderr.trim().split("\n").pop()}`);
        continue;
      }
      const r = JSON.parse(out.stdout);
      wall.push(performance.now() - a);
      server.push(r.ms);
      if (r.phases) console.log(`  run ${i + 1}: capture ${r.phases.capture} ms, encode ${r.phases.encode} ms, write+fsync ${r.phases.write} ms`);
    }
    const cached: number[] = [];
    const cpuCached: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const c0 = cpuMs(pid);
      cached.push(JSON.parse(await s.ok(["--json", "session", "save"])).ms);
      cpuCached.push(cpuMs(pid) - c0);
    }
    await s.request({ v: 2, type: "pane_send", pane: panes[0]!, text: "echo one more line", enter: true });
    await s.waitScreen(panes[0]!, /^one more line$/m);
    const c1 = cpuMs(pid);
    const one = JSON.parse(await s.ok(["--json", "session", "save"]));
    const cpuOne = cpuMs(pid) - c1;
    const bytes = statSync(path).size;
    console.log(`ws session save --full (${PANES} panes, every pane's text taken again)`);
    if (!server.length) server.push(NaN), wall.push(NaN);
    console.log(`  server time              ${ms(median(server))}   (runs: ${server.join(", ")})`);
    console.log(`  wall time (CLI)          ${ms(median(wall))}${cpu(median(cpuFull))}`);
    console.log(`ws session save, no new output (text reused)   ${ms(median(cached))}   (runs: ${cached.join(", ")})${cpu(median(cpuCached))}`);
    console.log(`ws session save, one pane printed a line       ${ms(one.ms)}   (capture ${one.phases?.capture}, encode ${one.phases?.encode}, write+fsync ${one.phases?.write})${cpu(cpuOne)}`);
    console.log(`  file                     ${(bytes / 1024 / 1024).toFixed(1)} MB, ${PANES} panes, mode ${(statSync(path).mode & 0o777).toString(8)}`);

    const k0 = performance.now();
    await s.ok(["kill-server", "--keep"]);
    const keep = performance.now() - k0;
    console.log(`ws kill-server --keep      ${ms(keep)}   (save, then every pane stopped, server gone)`);

    const logPath = join(s.env.XDG_STATE_HOME!, "ws", "default.log");
    const logFrom = existsSync(logPath) ? statSync(logPath).size : 0;
    const r0 = performance.now();
    await s.ok(["start"]);
    const answering = performance.now() - r0;
    const l0 = performance.now();
    const restored = await waitFor("workspace_list during the restore", () => allPanes(s), 300_000, 5);
    const listLatency = performance.now() - l0;
    for (const p of restored) await waitFor(`pane ${p} to show its restored scrollback`, async () => (await s.screen(p)).includes("── restored (saved"), 300_000, 5);
    const shown = performance.now() - r0;
    const restoreCpu = cpuMs(daemonPid(s));
    const logged = readFileSync(logPath, "utf8").slice(logFrom).match(/restored .* in (\d+) ms/);
    console.log(`restore on ws start`);
    console.log(`  model rebuilt, ${restored.length} panes spawned ${logged ? ms(Number(logged[1])) : "       ?"}   (server log)`);
    console.log(`  start → server answers   ${ms(answering)}`);
    console.log(`  a workspace_list right after   ${ms(listLatency)}   (the server parses every pane's old scrollback meanwhile)`);
    console.log(`  start → every pane shows its old scrollback ${ms(shown)}${cpu(restoreCpu)} (all of it, from process start)`);
    const check = (await s.screen(restored[0]!, true)).split("\n").filter((l) => l.startsWith("scrollback line")).length;
    console.log(`  scrollback lines back in pane ${restored[0]}: ${check}`);
    const a = performance.now();
    const again = JSON.parse(await s.ok(["--json", "session", "save"]));
    console.log(`save after restore         ${ms(again.ms)} server, ${ms(performance.now() - a)} wall\n`);

    await tmuxSide(median(server));
  } finally {
    await s.stop();
  }
}

async function tmuxSide(wsSave: number): Promise<void> {
  const resurrect = [join(homedir(), ".tmux/plugins/tmux-resurrect"), join(homedir(), ".config/tmux/plugins/tmux-resurrect")].some(existsSync);
  const which = Bun.spawnSync(["sh", "-c", "command -v tmux"]).stdout.toString().trim();
  if (!which) {
    console.log("tmux: not installed, no comparison");
    return;
  }
  console.log(`tmux (${Bun.spawnSync(["tmux", "-V"]).stdout.toString().trim()}): no built-in save or restore. tmux-resurrect is ${resurrect ? "installed" : "not installed here"}; its save is one capture-pane per pane, timed below for the same ${PANES} panes.`);
  const dir = mkdtempSync(join(tmpdir(), "ws-bench-tmux-"));
  const sock = join(dir, "tmux.sock");
  const env = { ...process.env, TMUX: "" } as Record<string, string>;
  const tmux = (...args: string[]) => Bun.spawnSync(["tmux", "-S", sock, "-f", "/dev/null", ...args], { env });
  try {
    tmux("new-session", "-d", "-x", "80", "-y", "24", "sh");
    tmux("set-option", "-g", "history-limit", String(LINES + 100));
    for (let i = 1; i < PANES; i++) tmux("new-window", "-d", "sh");
    const ids = tmux("list-panes", "-a", "-F", "#{pane_id}").stdout.toString().trim().split("\n");
    for (const id of ids) tmux("send-keys", "-t", id, FILL, "Enter");
    for (const id of ids)
      await waitFor(`tmux pane ${id} to be filled`, () => tmux("capture-pane", "-p", "-t", id).stdout.toString().includes(LAST), 300_000, 50);
    const runs: number[] = [];
    for (let r = 0; r < RUNS; r++) {
      const t0 = performance.now();
      for (const id of ids) {
        const text = tmux("capture-pane", "-p", "-J", "-S", `-${LINES}`, "-t", id).stdout;
        writeFileSync(join(dir, `pane-${id.slice(1)}.txt`), text);
      }
      runs.push(performance.now() - t0);
    }
    const t = median(runs);
    console.log(`  tmux capture-pane × ${PANES} to files  ${ms(t)}   (runs: ${runs.map((x) => x.toFixed(0)).join(", ")})`);
    console.log(`  ws session save / tmux capture step: ${(wsSave / t).toFixed(2)} (ws also writes the layout, a checksum and fsyncs; resurrect's restore re-types the text, not timed)`);
  } finally {
    tmux("kill-server");
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
