// Running out of file descriptors: the daemon raises its soft RLIMIT_NOFILE to
// the hard one at start, refuses a pane the descriptors can't hold with `resource_exhausted` (the
// limit in the hint), keeps room for connections, and never spins on a failing `accept`. A real
// daemon started under `prlimit` with a low hard limit, real panes, the real socket.
import { afterEach, expect, test } from "bun:test";
import { readdirSync, readFileSync, readlinkSync } from "node:fs";
import { Conn, TestServer, waitFor, wsArgv } from "./harness";
import type { AnyReply } from "./replies";

const servers: TestServer[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.stop();
}, 60_000);

/** Descriptors a pane holds in a server `ws start` started: its PTY master (panes share one socket). */
const FDS_PER_PANE = 1;

/** The machine's Unix sockets by inode, and those listening (flag __SO_ACCEPTCON), from /proc/net/unix. */
function unixSockets(): { all: Set<string>; listening: Set<string> } {
  const all = new Set<string>();
  const listening = new Set<string>();
  for (const line of readFileSync("/proc/net/unix", "utf8").split("\n").slice(1)) {
    const f = line.trim().split(/\s+/);
    if (!f[6]) continue;
    all.add(f[6]);
    if (f[3] === "00010000") listening.add(f[6]);
  }
  return { all, listening };
}

/** Descriptors `pid` holds for its lifetime now. Left out, as they come and go on their own and
 * one counted in a baseline would never come back: files on /proc (the port watcher and the
 * process checks open one for a moment) and connected Unix sockets (a client's connection, which
 * the server closes when it goes idle). Listening sockets count: a socket per pane would show. */
function openFds(pid: number): number {
  const unix = unixSockets();
  let n = 0;
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    let target: string;
    try {
      target = readlinkSync(`/proc/${pid}/fd/${fd}`);
    } catch {
      continue; // closed while it was listed
    }
    if (target.startsWith("/proc/")) continue;
    const socket = /^socket:\[(\d+)\]$/.exec(target);
    if (socket && unix.all.has(socket[1]!) && !unix.listening.has(socket[1]!)) continue;
    n++;
  }
  return n;
}

/** `ws start` with the descriptor limits `soft:hard` (the daemon inherits them). */
async function startLimited(soft: number, hard: number): Promise<TestServer> {
  const s = new TestServer();
  servers.push(s);
  const proc = Bun.spawn(["prlimit", `--nofile=${soft}:${hard}`, "--", ...wsArgv(), "start"], { env: s.env, cwd: s.root, stdout: "pipe", stderr: "pipe" });
  const [err, code] = await Promise.all([new Response(proc.stderr).text(), proc.exited]);
  if (code !== 0) throw new Error(`ws start under prlimit exited ${code}: ${err}`);
  await waitFor("the server's info file", () => s.daemonPid());
  return s;
}

function openFileLimits(pid: number): { soft: number; hard: number } {
  const line = readFileSync(`/proc/${pid}/limits`, "utf8").split("\n").find((l) => l.startsWith("Max open files"))!;
  const [soft, hard] = line.replace("Max open files", "").trim().split(/\s+/).map(Number);
  return { soft: soft!, hard: hard! };
}

/** CPU time (user + system, in clock ticks of 10 ms) a process has used. */
function cpuTicks(pid: number): number {
  const f = readFileSync(`/proc/${pid}/stat`, "utf8");
  const rest = f.slice(f.lastIndexOf(")") + 2).split(" ");
  return Number(rest[11]) + Number(rest[12]);
}

/** A connection that holds a subscribe stream open (it stays until closed). */
async function holdStream(sock: string): Promise<{ close(): void; first: Promise<string> }> {
  const c = await Conn.open(sock);
  c.send({ v: 6, type: "subscribe", types: ["pane_created"] });
  return { close: () => c.close(), first: c.nextRaw(30000).catch((e: Error) => c.unread() || e.message) };
}

test("the soft limit is raised to the hard one at start", async () => {
  const s = await startLimited(128, 512);
  expect(openFileLimits(s.daemonPid()!)).toEqual({ soft: 512, hard: 512 });
}, 60_000);

test("a pane holds its PTY master and nothing else: N more panes are N more descriptors", async () => {
  const s = await startLimited(1024, 4096);
  const pid = s.daemonPid()!;
  const panes = () => s.list().then((w) => w.flatMap((x) => x.tabs.flatMap((t) => t.panes)));
  const before = openFds(pid);
  const made: number[] = [];
  for (let i = 0; i < 20; i++) made.push((await s.call({ type: "tab_new", command: ["cat"] })).pane as number);
  expect((await panes()).length).toBe(21);
  // Nothing short-lived is open between requests; a pidfd per process would make it 3 a pane.
  await waitFor("the daemon's descriptors to settle", () => openFds(pid) - before === 20 * FDS_PER_PANE || undefined, 5000);
  // Each pane types and reads through its one master.
  await s.v6({ type: "pane_send", pane: made[7]!, text: "fd-check", enter: true });
  await s.waitScreen(made[7]!, "fd-check\nfd-check", 10_000);
  // Closed, they leave nothing open.
  for (const p of made) await s.v6({ type: "pane_close", pane: p });
  await waitFor("the closed panes' descriptors to be closed", () => openFds(pid) === before || undefined, 10_000);
}, 60_000);

test("out of descriptors: panes are refused with resource_exhausted, connections still served, no spinning", async () => {
  // 128 descriptors: 32 for connections, 16 for ws itself, 16 for short-lived files, 64 for panes.
  const s = await startLimited(128, 128);
  const pid = s.daemonPid()!;
  // Panes until the descriptors are spoken for: each refused one says why, with the limit.
  let made = 0;
  let refusal: AnyReply | undefined;
  for (let i = 0; i < 100 && !refusal; i++) {
    const r = await s.v6({ type: "tab_new", command: ["cat"] });
    if (r.type === "error") refusal = r;
    else made++;
  }
  expect(refusal).toBeDefined();
  expect(refusal?.code).toBe("resource_exhausted");
  expect(refusal?.hint).toMatchObject({ limit: 128, panes: 64 / FDS_PER_PANE });
  expect(refusal?.message).toContain("RLIMIT_NOFILE");
  expect(made).toBe(64 / FDS_PER_PANE - 1);
  // The refusal left nothing behind: the panes made are all there is.
  const panes = () => s.list().then((w) => w.flatMap((x) => x.tabs.flatMap((t) => t.panes)).length);
  expect(await panes()).toBe(made + 1);
  // Idle streams on top (the audit's 20 idle connections), then more: each is served or refused
  // with a line; none makes the daemon spin or stop answering.
  const streams = await Promise.all(Array.from({ length: 20 }, () => holdStream(s.sock)));
  for (const st of streams) expect(await st.first).toMatch(/"type":"(ok|subscribed)"/);
  const before = cpuTicks(pid);
  const t0 = Date.now();
  for (let i = 0; i < 10; i++) {
    const a = Date.now();
    expect((await s.request({ v: 2, type: "workspace_list" })).type).toBe("workspaces");
    expect(Date.now() - a).toBeLessThan(2000);
  }
  await Bun.sleep(1000); // an interval to measure CPU over, not a synchronisation
  const busy = (cpuTicks(pid) - before) * 10 / (Date.now() - t0);
  console.log(`daemon CPU while out of pane room with 20 streams: ${Math.round(busy * 100)}%`);
  expect(busy).toBeLessThan(0.5);
  // Another pane is still refused cleanly; once panes close there is room again.
  expect((await s.v6({ type: "tab_new", command: ["cat"] })).code).toBe("resource_exhausted");
  const wss = await s.list();
  const last = wss[0]!.tabs.at(-1)!.panes[0];
  await s.v6({ type: "pane_close", pane: last! });
  expect((await s.v6({ type: "tab_new", command: ["cat"] })).type).not.toBe("error");
  for (const st of streams) st.close();
}, 120_000);

test("the kernel's EMFILE or ENFILE from a PTY, a spawn or an exec check is answered resource_exhausted", async () => {
  const { startError } = await import("../src/model/launch");
  for (const code of ["EMFILE", "ENFILE"]) {
    const e = startError("cat", Object.assign(new Error(`${code}: too many open files`), { code }));
    expect(e.code).toBe("resource_exhausted");
    expect(e.message).toContain(code);
    expect(e.message).toContain("RLIMIT_NOFILE");
  }
  expect(startError("cat", Object.assign(new Error("nope"), { code: "ENOENT" })).code).toBe("program_not_found");
});
