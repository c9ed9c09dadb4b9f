// The portable platform layer (src/platform/: ps and lsof, as on macOS and the BSDs), forced on
// Linux with WS_PLATFORM=portable: the process look-ups, the port scan, and a real daemon whose
// pane_info answers through them.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { scanPorts } from "../src/features/ports";
import { foregroundPid, foregroundProcess, processCwd } from "../src/model/process-info";
import { platformKind } from "../src/platform";
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

test("a daemon on the portable path: pane_info names the foreground program (its terminal's group and argv from ps) and its cwd (lsof)", async () => {
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
    expect(info.foreground.argv).toEqual(["sh", "-c", "sleep", "60;", "true", "x", "y"]);
    expect(info.foreground.pid).not.toBe(info.pid);
  } finally {
    await s.stop();
  }
}, 60_000);
