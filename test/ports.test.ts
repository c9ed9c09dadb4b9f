import { afterEach, describe, expect, test } from "bun:test";
import { PortWatch } from "../src/features/port-watch.ts";
import { _forceChildrenFiles, parseLsof, parseProcNetTcp, ProcPortScanner, scanPorts, type PaneProcess } from "../src/features/ports.ts";
import { waitFor } from "./harness.ts";

describe("parsers", () => {
  test("/proc/net/tcp LISTEN lines only", () => {
    const text = [
      "  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode",
      "   0: 00000000:07E8 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 1611 1 0 100 0 0 10 0",
      "   1: 0100007F:1F90 0100007F:C350 01 00000000:00000000 00:00000000 00000000  1000        0 2222 1 0 20 4 30 10 -1",
    ].join("\n");
    expect([...parseProcNetTcp(text)]).toEqual([["1611", 2024]]);
    const v6 = "  sl  local_address remote_address st ...\n   0: 00000000000000000000000001000000:1F90 00000000000000000000000000000000:0000 0A 00000000:00000000 00:00000000 00000000  1000        0 3333 1 0 100 0 0 10 0";
    expect([...parseProcNetTcp(v6)]).toEqual([["3333", 8080]]);
  });
  test("lsof -F pcn", () => {
    expect(parseLsof("p10\ncnode\nn*:3000\nn[::1]:3001\np11\ncpython3\nn127.0.0.1:8000\n")).toEqual([
      { pid: 10, port: 3000 },
      { pid: 10, port: 3001 },
      { pid: 11, port: 8000 },
    ]);
  });
});

// A shell whose child listens, like a dev server started from a pane's shell.
async function startServer() {
  // trap: killing the shell takes the server down too, so a failed test leaks nothing.
  const proc = Bun.spawn(["bash", "-c", "python3 -u -m http.server 0 --bind 127.0.0.1 & trap 'kill $!' TERM; wait"], {
    stdout: "pipe",
    stderr: "ignore",
  });
  const reader = proc.stdout.getReader();
  let text = "";
  const port = await waitFor("http.server to print its port", async () => {
    const { value } = await reader.read();
    text += new TextDecoder().decode(value);
    return Number(/port (\d+)/.exec(text)?.[1]) || undefined;
  });
  return { proc, port };
}

const started: { kill(): void }[] = [];
afterEach(() => {
  for (const p of started.splice(0)) p.kill();
  _forceChildrenFiles(undefined);
});

describe("scan a real process tree", () => {
  for (const [name, method, children] of [
    ["/proc, children files if present", "proc", undefined],
    ["/proc, ppid table", "proc", false],
    ["lsof and ps", "lsof", undefined],
  ] as const) {
    test(name, async () => {
      _forceChildrenFiles(children);
      const { proc, port } = await startServer();
      started.push(proc);
      const roots = new Map([[7, proc.pid], [8, 999_999_999]]); // pane 8: a process that does not exist
      const found = await waitFor("the port to show", async () => (await scanPorts(roots, method)).get(7));
      expect(found.map((p) => p.port)).toEqual([port]);
      expect(found[0]!.command).toContain("http.server");
      expect(found[0]!.pid).not.toBe(proc.pid); // the python child, not the shell
      // The server stops; its shell (the pane) lives on.
      process.kill(found[0]!.pid, "SIGTERM");
      await waitFor("the port to go", async () => !(await scanPorts(roots, method)).has(7));
    });
  }
});

test("PortWatch reports changes and serves sorted ports", async () => {
  const { proc, port } = await startServer();
  started.push(proc);
  const changes: number[][] = [];
  const w = new PortWatch(() => new Map([[3, proc.pid]]), { intervalMs: 100, onChange: (p) => changes.push(p) });
  w.start();
  try {
    await waitFor("watch to see the port", () => w.ports(3).length > 0);
    expect(w.ports(3)).toEqual([port]);
    expect(changes[0]).toEqual([3]);
    process.kill((await scanPorts(new Map([[3, proc.pid]]))).get(3)![0]!.pid, "SIGTERM");
    await waitFor("watch to see it go", () => w.ports(3).length === 0);
    expect(changes.length).toBe(2);
  } finally {
    w.stop();
  }
});

describe("the incremental /proc scanner", () => {
  /** A pane's process: a shell with a child that sleeps (an idle pane running something). */
  const idle = () => Bun.spawn(["bash", "-c", "sleep 100000 & trap 'kill $!' TERM; wait"], { stdin: "ignore", stdout: "ignore", stderr: "ignore" });

  /** Two scans in a row with no socket newly listening anywhere on the machine (another user's
   * server starting would send the scanner looking for its owner): the walks they made. */
  async function quietWalks(scanner: ProcPortScanner, panes: Map<number, PaneProcess>): Promise<number> {
    for (let tries = 0; tries < 5; tries++) {
      const { walks, searches } = { ...scanner.stats };
      await scanner.scan(panes);
      await scanner.scan(panes);
      if (scanner.stats.searches === searches) return scanner.stats.walks - walks;
    }
    throw new Error("a new listening socket appeared in every try");
  }

  test("idle panes are walked once; a changed foreground walks that pane alone; a new listener is found and a closed one dropped", async () => {
    const procs = Array.from({ length: 12 }, idle);
    started.push(...procs);
    // A pane whose shell starts a server once told to (a line on its input).
    const later = Bun.spawn(["bash", "-c", "read; python3 -u -m http.server 0 --bind 127.0.0.1 & trap 'kill $!' TERM; wait"], { stdin: "pipe", stdout: "pipe", stderr: "ignore" });
    started.push(later);
    const panes = new Map<number, PaneProcess>(procs.map((p, i) => [i + 1, { pid: p.pid, foreground: p.pid }]));
    panes.set(100, { pid: later.pid, foreground: later.pid });
    const scanner = new ProcPortScanner();
    expect((await scanner.scan(panes)).size).toBe(0);
    expect(scanner.stats.walks).toBeGreaterThanOrEqual(panes.size);
    // Nothing changed: nothing walked, however many scans.
    expect(await quietWalks(scanner, panes)).toBe(0);
    // One pane's foreground changed (a command started in it): that pane is walked, once.
    panes.set(3, { pid: procs[2]!.pid, foreground: procs[2]!.pid + 1 });
    expect(await quietWalks(scanner, panes)).toBe(1);
    // A server starts in a pane whose foreground the scanner doesn't know changed: the new socket
    // sends it looking, and it is placed in that pane.
    later.stdin.write("\n");
    later.stdin.flush();
    const reader = later.stdout.getReader();
    let text = "";
    const port = await waitFor("http.server to print its port", async () => {
      const { value } = await reader.read();
      text += new TextDecoder().decode(value);
      return Number(/port (\d+)/.exec(text)?.[1]) || undefined;
    });
    const found = await waitFor("the new listener", async () => (await scanner.scan(panes)).get(100));
    expect(found.map((p) => p.port)).toEqual([port]);
    expect(found[0]!.command).toContain("http.server");
    // Placed: later scans walk nothing for it.
    expect(await quietWalks(scanner, panes)).toBe(0);
    // It stops: gone from its pane, and still nothing is walked.
    process.kill(found[0]!.pid, "SIGTERM");
    await waitFor("the port to go", async () => !(await scanner.scan(panes)).has(100));
    expect(await quietWalks(scanner, panes)).toBe(0);
  }, 30_000);
});
