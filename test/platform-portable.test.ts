// The portable platform layer (src/platform/: ps and lsof, as on macOS and the BSDs), forced on
// Linux with WS_PLATFORM=portable: the process look-ups, the port scan, a real daemon whose
// pane_info answers through them, and every platform function asked both ways, agreeing.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readdirSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { paneOfProcess } from "../src/features/approvals/peer";
import { scanPorts } from "../src/features/ports";
import { foregroundPid, foregroundProcess, processCwd } from "../src/model/process-info";
import { nativePtyAvailable } from "../src/model/pty-native";
import * as platform from "../src/platform";
import { platformKind } from "../src/platform";
import { statSync as procStat } from "../src/platform/linux";
import { TestServer, waitFor } from "./harness";

const saved = process.env.WS_PLATFORM;
let dir: string;
beforeAll(() => {
  process.env.WS_PLATFORM = "portable";
  dir = realpathSync(mkdtempSync(join(tmpdir(), "ws-portable-")));
});
afterAll(() => {
  if (saved === undefined) delete process.env.WS_PLATFORM;
  else process.env.WS_PLATFORM = saved;
  rmSync(dir, { recursive: true, force: true });
});

test("WS_PLATFORM picks the implementation; Linux reads /proc unless told otherwise", () => {
  expect(platformKind()).toBe("portable");
  expect(platformKind({})).toBe(process.platform === "linux" ? "linux" : "portable");
  expect(platformKind({ WS_PLATFORM: "portable" })).toBe("portable");
});

test("the PTY: ws's own on Linux (unless WS_PTY=bun), Bun's on the portable path", () => {
  if (process.platform === "linux" && nativePtyAvailable()) expect(platform.ptyKind({})).toBe("native");
  expect(platform.ptyKind({ WS_PTY: "bun" })).toBe("bun");
  expect(platform.ptyKind({ WS_PLATFORM: "portable" })).toBe("bun");
});

test("a process's cwd (lsof) and argv (ps); a process with no terminal is its own foreground; a gone one has none", async () => {
  const child = Bun.spawn(["sleep", "30"], { cwd: dir, stdin: "ignore", stdout: "ignore", stderr: "ignore" });
  try {
    expect(await processCwd(child.pid)).toBe(dir);
    expect(await foregroundProcess(child.pid)).toEqual({ pid: child.pid, argv: ["sleep", "30"] });
    expect(await foregroundPid(child.pid)).toBe(child.pid);
  } finally {
    child.kill();
    await child.exited;
  }
  expect(await processCwd(child.pid)).toBeUndefined();
  expect(await foregroundProcess(child.pid)).toBeNull();
});

test("the port scan's default is lsof and ps: a listener in the tree is found, and its going is seen", async () => {
  const proc = Bun.spawn(["bash", "-c", "python3 -u -m http.server 0 --bind 127.0.0.1 & trap 'kill $!' TERM; wait"], { stdout: "pipe", stderr: "ignore" });
  try {
    const reader = proc.stdout.getReader();
    let text = "";
    const port = await waitFor("http.server to print its port", async () => {
      const { value } = await reader.read();
      text += new TextDecoder().decode(value);
      return Number(/port (\d+)/.exec(text)?.[1]) || undefined;
    });
    const roots = new Map([[7, proc.pid]]);
    const found = await waitFor("the port to show", async () => (await scanPorts(roots)).get(7));
    expect(found.map((p) => p.port)).toEqual([port]);
    expect(found[0]!.command).toContain("http.server");
    process.kill(found[0]!.pid, "SIGTERM");
    await waitFor("the port to go", async () => !(await scanPorts(roots)).has(7));
  } finally {
    proc.kill();
    await proc.exited;
  }
}, 30_000);

test("a daemon on the portable path (Bun's PTY): pane_info names the foreground program (its terminal's group and argv from ps) and its cwd (lsof)", async () => {
  const s = await new TestServer({ env: { WS_PLATFORM: "portable" } }).start();
  try {
    await s.v6({ type: "pane_send", pane: 1, text: `cd ${dir} && sh -c 'sleep 60; true' 'x y'`, enter: true });
    const info = await waitFor("sh in the foreground, in the new directory", async () => {
      const i = await s.v6({ type: "pane_info", pane: 1 });
      return i.foreground?.argv?.[0] === "sh" && i.cwd === dir ? i : undefined;
    }, 20_000);
    // The shell stays the pane's process; sh leads the terminal's foreground group. Its argv is
    // ps's, split at every space (/proc would give ["sh", "-c", "sleep 60; true", "x y"]): the
    // daemon took the portable path.
    expect(info.foreground!.argv).toEqual(["sh", "-c", "sleep", "60;", "true", "x", "y"]);
    expect(info.foreground!.pid).not.toBe(info.pid);
  } finally {
    await s.stop();
  }
}, 60_000);

// Every platform function, asked both ways about the same real processes: a shell on its own PTY
// with a listener and a sleeper under it. Each answer is compared between the two, and with what
// the test knows to be true.
// Linux only: elsewhere there is no /proc to agree with (WS_PLATFORM=linux is then the portable path).
describe.skipIf(process.platform !== "linux")("the Linux and portable answers agree", () => {
  /** `fn` run with WS_PLATFORM=linux, then =portable (restored to the file's portable after). */
  async function both<T>(fn: () => T | Promise<T>): Promise<[T, T]> {
    process.env.WS_PLATFORM = "linux";
    try {
      const a = await fn();
      process.env.WS_PLATFORM = "portable";
      const b = await fn();
      return [a, b];
    } finally {
      process.env.WS_PLATFORM = "portable";
    }
  }
  async function agree<T>(fn: () => T | Promise<T>): Promise<T> {
    const [a, b] = await both(fn);
    expect(b).toEqual(a);
    return a;
  }

  let shell: ReturnType<typeof Bun.spawn>;
  let out = "";
  let tree: { listener: number; sleeper: number; port: number };
  beforeAll(async () => {
    const listen = "import socket,time; s=socket.socket(); s.bind(('127.0.0.1',0)); s.listen(); print('PORT', s.getsockname()[1], flush=True); time.sleep(300)";
    shell = Bun.spawn(["bash", "-c", `python3 -c "${listen}" & sleep 300 & echo "PIDS $! " $(jobs -p); wait`], {
      cwd: dir,
      env: { ...process.env, PS1: "" },
      terminal: { cols: 80, rows: 24, data: (_t, b) => (out += new TextDecoder().decode(b)) },
    });
    const port = await waitFor("the listener's port", () => Number(/PORT (\d+)/.exec(out)?.[1]) || undefined);
    const pids = await waitFor("the children's pids", () => /PIDS (\d+) +(\d+) +(\d+)/.exec(out));
    const [sleeper, a, b] = [Number(pids[1]), Number(pids[2]), Number(pids[3])];
    tree = { listener: a === sleeper ? b : a, sleeper, port };
  });
  afterAll(async () => {
    shell.kill("SIGHUP");
    for (const pid of [tree?.listener, tree?.sleeper]) if (pid) process.kill(pid, "SIGTERM");
    await shell.exited;
  });

  test("platformKind follows WS_PLATFORM both ways", async () => {
    expect(await both(() => platformKind())).toEqual(["linux", "portable"]);
  });

  test("cwd, name and argv", async () => {
    expect(await agree(() => platform.processCwd(shell.pid))).toBe(dir);
    expect(await agree(() => platform.processName(tree.sleeper))).toBe("sleep");
    expect(await agree(() => platform.processName(tree.listener))).toStartWith("python3");
    expect(await agree(() => platform.processArgv(tree.sleeper))).toEqual(["sleep", "300"]);
  });

  test("children, parent, session and state", async () => {
    const kids = await agree(async () => (await platform.childrenOf(shell.pid)).sort((x, y) => x - y));
    expect(kids).toEqual([tree.listener, tree.sleeper].sort((x, y) => x - y));
    expect(await agree(() => platform.childrenOf(tree.sleeper))).toEqual([]);
    const st = await agree(() => platform.processStateSync(tree.sleeper));
    expect(st).toEqual({ state: "S", ppid: shell.pid, session: shell.pid });
    expect(platform.sessionId(tree.listener)).toBe(shell.pid);
  });

  test("a process whose session is 0 (its leader outside this pid namespace, or a kernel thread) has session 0 both ways, not gone", async () => {
    const zero = readdirSync("/proc")
      .filter((d) => /^\d+$/.test(d))
      .map(Number)
      .find((pid) => procStat(pid)?.session === 0);
    if (zero === undefined) return; // none visible here (a container with no such process)
    expect((await agree(() => platform.processStateSync(zero)))?.session).toBe(0);
  });

  test("the approvals guard's ancestry walk (parent and session) finds the pane both ways", async () => {
    const panes = new Map([[shell.pid, 7]]);
    expect(await agree(() => paneOfProcess(tree.sleeper, panes))).toBe(7);
    expect(await agree(() => paneOfProcess(shell.pid, panes))).toBe(7);
    expect(await agree(() => paneOfProcess(process.pid, panes))).toBe("outside");
    const gone = Bun.spawn(["true"]);
    await gone.exited;
    expect(await agree(() => paneOfProcess(gone.pid, panes))).toBe("unknown");
  });

  test("the terminal: its foreground group, and which terminal a process runs on", async () => {
    // bash -c has no job control: its children stay in its group, the terminal's foreground.
    expect(await agree(() => platform.foregroundGroup(shell.pid))).toBe(shell.pid);
    expect(await agree(() => platform.foregroundGroup(tree.sleeper))).toBe(shell.pid);
    expect(await agree(() => platform.processTerminalSync(shell.pid))).toMatch(/^\/dev\/pts\/\d+$/);
  });

  test("listening ports: the listener's, and none for the sleeper", async () => {
    const ports = await agree(() => platform.listeningPorts([tree.listener, tree.sleeper]));
    expect(ports).toEqual([{ pid: tree.listener, port: tree.port }]);
  });

  test("a socket's peer is the process that connected", async () => {
    let fd: number | undefined;
    const server = Bun.listen({ unix: join(dir, "peer.sock"), socket: { open: (s) => void (fd = (s as unknown as { fd: number }).fd), data() {} } });
    const client = Bun.spawn(["python3", "-c", `import socket,time; s=socket.socket(socket.AF_UNIX); s.connect(${JSON.stringify(join(dir, "peer.sock"))}); time.sleep(30)`]);
    try {
      await waitFor("the connection", () => fd !== undefined);
      expect(await agree(() => platform.peerPid(fd))).toBe(client.pid);
    } finally {
      client.kill();
      await client.exited;
      server.stop(true);
    }
  });

  test("this process's own terminal and open files, asked from inside a PTY", async () => {
    const self = async (kind: string) => {
      let text = "";
      const p = Bun.spawn([process.execPath, join(import.meta.dir, "fixtures/platform-self.ts")], {
        env: { ...process.env, WS_PLATFORM: kind },
        terminal: { cols: 200, rows: 24, data: (_t, b) => (text += new TextDecoder().decode(b)) },
      });
      await p.exited;
      const line = await waitFor("the fixture's answer", () => /RESULT (.*)/.exec(text)?.[1]);
      return JSON.parse(line.trim()) as { kind: string; terminal: string | null; files: number | null };
    };
    const [a, b] = [await self("linux"), await self("portable")];
    expect([a.kind, b.kind]).toEqual(["linux", "portable"]);
    expect(a.terminal).toMatch(/^\/dev\/pts\/\d+$/);
    expect(b.terminal).toMatch(/^\/dev\/pts\/\d+$/);
    expect(a.files).toBeGreaterThan(2);
    expect(Math.abs(a.files! - b.files!)).toBeLessThanOrEqual(4);
  }, 30_000);

  test("a gone process: nothing, both ways", async () => {
    const p = Bun.spawn(["true"]);
    await p.exited;
    expect(await agree(() => platform.processCwd(p.pid))).toBeUndefined();
    expect(await agree(() => platform.processName(p.pid))).toBeUndefined();
    expect(await agree(() => platform.processArgv(p.pid))).toBeUndefined();
    expect(await agree(() => platform.foregroundGroup(p.pid))).toBeUndefined();
    expect(await agree(() => platform.childrenOf(p.pid))).toEqual([]);
    expect(await agree(() => platform.listeningPorts([p.pid]))).toEqual([]);
    expect(await agree(() => platform.processStateSync(p.pid))).toBeUndefined();
    expect(await agree(() => platform.processTerminalSync(p.pid))).toBe("");
  });
});
