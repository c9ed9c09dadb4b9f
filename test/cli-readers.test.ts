// Every read the CLI makes from a file, a pipe or stdin has a size bound and never waits on a FIFO
// or reads a device: `ws report` and `ws approval-hook` with /dev/zero or an endless pipe on stdin,
// `ws session info` with the save replaced by /dev/zero or a FIFO, a FIFO as the hosts file of
// `ws dashboard --all-hosts`, `ws batch` and `ws layout apply -` reading /dev/zero, `ws hooks`
// with a huge settings file or a FIFO for its backup. Each runs the real CLI with a deadline, its
// memory watched while it runs: it ends in time, stays small and says why (or, for a hook, stays
// silent and exits 0, as a hook must).
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { TestServer, processAlive, rssKb, wsArgv } from "./harness";
import { savePath } from "../src/features/persistence/store";
import { MAX_HOOK_INPUT } from "../src/cli/report";
import { MAX_SETTINGS_BYTES } from "../src/features/agents/hooks-install";

const DEADLINE_MS = 20_000;
/** What a read may add to a CLI call's own memory: a bound's worth (1 MiB) and the runtime's
 * noise, far below what an unbounded read of /dev/zero reaches in its 1 s wait (hundreds of MB
 * to gigabytes). */
const READ_ALLOWANCE_KB = 48 * 1024;
/** A CLI call's memory when it reads nothing (`ws --version`), measured here; at least 64 MiB. */
let baselineKb = 64 * 1024;

let s: TestServer;
let pane: number;

beforeAll(async () => {
  s = await new TestServer().start();
  pane = (await s.v6({ type: "pane_list" })).panes[0]!.pane;
  baselineKb = Math.max(baselineKb, (await watched('exec "$@"', ["--version"])).peakKb);
});
afterAll(() => s.stop());

interface Watched {
  code: number | null;
  stdout: string;
  stderr: string;
  peakKb: number;
  killed: boolean;
}

/** Run ws with `args` through `sh -c` (so stdin can be a device, a FIFO or a pipeline), its memory
 * sampled until it ends; killed past the deadline. */
async function watched(script: string, args: string[], env: Record<string, string> = {}): Promise<Watched> {
  const p = Bun.spawn(["sh", "-c", script, "sh", ...wsArgv(), ...args], { env: { ...s.env, ...env }, cwd: s.root, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  let killed = false;
  // A deadline, not a wait: a reader that never ends is killed so the test fails instead of hanging.
  const timer = setTimeout(() => {
    killed = true;
    p.kill("SIGKILL");
  }, DEADLINE_MS);
  let peakKb = 0;
  const sample = setInterval(() => {
    // The ws process: sh itself, once it has exec'd, or its child in a pipeline.
    for (const pid of [p.pid, ...children(p.pid)]) if (processAlive(pid)) peakKb = Math.max(peakKb, safeRss(pid));
  }, 10);
  const [stdout, stderr, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
  clearTimeout(timer);
  clearInterval(sample);
  return { code, stdout, stderr, peakKb, killed };
}

function safeRss(pid: number): number {
  try {
    return rssKb(pid);
  } catch {
    return 0; // it ended between the check and the read
  }
}

function children(pid: number): number[] {
  try {
    return require("node:fs")
      .readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8")
      .split(" ")
      .filter(Boolean)
      .map(Number);
  } catch {
    return [];
  }
}

const inPane = () => ({ WS_SOCKET: s.sock, WS_PANE_ID: String(pane) });

function expectSmallAndInTime(r: Watched): void {
  expect(r.killed).toBe(false);
  expect(r.peakKb).toBeLessThan(baselineKb + READ_ALLOWANCE_KB);
}

test("ws report with /dev/zero on stdin: refused at once, the event still reported without it", async () => {
  const r = await watched('exec "$@" < /dev/zero', ["report", "Stop", "--agent", "claude"], { ...inPane(), WS_DEBUG: "1" });
  expectSmallAndInTime(r);
  expect(r.code).toBe(0); // a hook never fails the agent
  expect(r.stderr).toContain("stdin is a device");
  const agents = (await s.v6({ type: "dashboard" })).agents as { pane: number; status: string }[];
  expect(agents.find((a) => a.pane === pane)?.status).toBe("done");
}, 30_000);

test("ws report with an endless pipe on stdin: read up to its bound, no further", async () => {
  const r = await watched('yes | "$@"', ["report", "Stop", "--agent", "claude"], { ...inPane(), WS_DEBUG: "1" });
  expectSmallAndInTime(r);
  expect(r.code).toBe(0);
  expect(r.stderr).toContain(`over ${MAX_HOOK_INPUT} bytes`);
}, 30_000);

test("ws approval-hook with /dev/zero or an endless pipe: silent, exits 0, stays small", async () => {
  for (const script of ['exec "$@" < /dev/zero', 'yes | "$@"']) {
    const r = await watched(script, ["approval-hook", "--agent", "claude", "--timeout", "2000"], { ...inPane(), WS_DEBUG: "1" });
    expectSmallAndInTime(r);
    expect({ script, code: r.code, stdout: r.stdout }).toEqual({ script, code: 0, stdout: "" });
    expect(r.stderr).toContain("leaving the decision to the agent");
  }
}, 60_000);

test("ws session info with the save replaced by /dev/zero or a FIFO: refused at once, by name", async () => {
  // The save of a server name nobody runs: a running server could save over the FIFO or the link
  // (its periodic save) between the test putting it there and the CLI reading it.
  const name = "no-server-here";
  const save = savePath(join(dirname(s.sock), `${name}.sock`), s.env);
  mkdirSync(dirname(save), { recursive: true });
  try {
    rmSync(save, { force: true });
    symlinkSync("/dev/zero", save);
    let r = await watched('exec "$@"', ["-L", name, "session", "info", "--json"]);
    expectSmallAndInTime(r);
    expect(r.code).toBe(1);
    expect(r.stdout + r.stderr).toContain("file_refused");
    expect(r.stdout + r.stderr).toContain("character device");
    rmSync(save);
    r = await watched('exec "$@"', ["-L", name, "session", "info", "--json"]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ type: "session_info", exists: false });
    expect(Bun.spawnSync(["mkfifo", save]).exitCode).toBe(0);
    r = await watched('exec "$@"', ["-L", name, "session", "info"]);
    expectSmallAndInTime(r);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("is not a regular file (a FIFO)");
  } finally {
    rmSync(save, { force: true });
  }
}, 60_000);

test("a FIFO as the hosts file of ws dashboard --all-hosts: refused at once, by name", async () => {
  const hosts = join(s.env.XDG_CONFIG_HOME!, "ws/hosts");
  mkdirSync(dirname(hosts), { recursive: true });
  expect(Bun.spawnSync(["mkfifo", hosts]).exitCode).toBe(0);
  try {
    const r = await watched('exec "$@"', ["dashboard", "--all-hosts"]);
    expectSmallAndInTime(r);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`${hosts} is not a regular file (a FIFO)`);
  } finally {
    rmSync(hosts, { force: true });
  }
}, 30_000);

test("ws batch and ws layout apply - with /dev/zero on stdin: refused at once", async () => {
  for (const args of [["batch"], ["layout", "apply", "-"]]) {
    const r = await watched('exec "$@" < /dev/zero', args);
    expectSmallAndInTime(r);
    expect({ args, code: r.code }).toEqual({ args, code: 1 });
    expect(r.stderr).toContain("stdin is a character device");
  }
  // An endless line on a pipe: refused once it passes a request line's size.
  const r = await watched('yes x | tr -d "\\n" | "$@"', ["batch"]);
  expectSmallAndInTime(r);
  expect(r.code).toBe(1);
  expect(r.stderr).toContain("a line on stdin is longer than 1 MiB");
}, 60_000);

test("ws hooks: a settings file past its bound, and a FIFO where the backup is, are refused at once", async () => {
  const file = join(s.root, "claude-settings.json");
  writeFileSync(file, JSON.stringify({ padding: "x".repeat(MAX_SETTINGS_BYTES) }));
  let r = await watched('exec "$@"', ["hooks", "install", "claude", "--file", file]);
  expectSmallAndInTime(r);
  expect(r.code).toBe(1);
  expect(r.stderr).toContain("is too big");
  // Installed over a small file (which makes the backup), then the backup replaced by a FIFO.
  writeFileSync(file, "{}\n");
  expect((await watched('exec "$@"', ["hooks", "install", "claude", "--file", file])).code).toBe(0);
  rmSync(`${file}.ws-backup`, { force: true });
  expect(Bun.spawnSync(["mkfifo", `${file}.ws-backup`]).exitCode).toBe(0);
  r = await watched('exec "$@"', ["hooks", "uninstall", "claude", "--file", file]);
  expectSmallAndInTime(r);
  expect(r.code).toBe(1);
  expect(r.stderr).toContain("ws-backup is not a regular file (a FIFO)");
}, 60_000);
