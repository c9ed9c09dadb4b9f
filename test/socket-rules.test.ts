// Socket discovery, modes, refusal of unsafe directories, stale sockets and doctor.
import { afterEach, describe, expect, test } from "bun:test";
import { chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sanitizeName, socketDir, socketPath } from "../src/paths";
import { TestServer, processAlive, waitFor } from "./harness";
import { processesCarrying } from "./processes";

const servers: TestServer[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.stop();
});
function server(opts?: ConstructorParameters<typeof TestServer>[0]) {
  const s = new TestServer(opts);
  servers.push(s);
  return s;
}

describe("discovery rules", () => {
  test("XDG_RUNTIME_DIR, else TMPDIR, else /tmp", () => {
    const uid = process.getuid!();
    expect(socketDir({ XDG_RUNTIME_DIR: "/run/user/5" })).toBe("/run/user/5/ws");
    expect(socketDir({ TMPDIR: "/var/tmp/" })).toBe(`/var/tmp/ws-${uid}`);
    expect(socketDir({})).toBe(`/tmp/ws-${uid}`);
  });

  test("-L names (tmux's, in the shim) map characters outside [A-Za-z0-9._-] to _; the CLI's own are refused instead", () => {
    expect(sanitizeName("my.proj/x y")).toBe("my.proj_x_y");
    expect(sanitizeName("ok-Name_9")).toBe("ok-Name_9");
    expect(socketPath({ name: "a.b" }, { XDG_RUNTIME_DIR: "/r" })).toBe("/r/ws/a.b.sock");
    expect(socketPath({}, { XDG_RUNTIME_DIR: "/r" })).toBe("/r/ws/default.sock");
  });

  test("WS_SOCKET wins unless -L is given", () => {
    expect(socketPath({}, { XDG_RUNTIME_DIR: "/r", WS_SOCKET: "/x/y.sock" })).toBe("/x/y.sock");
    expect(socketPath({ name: "other" }, { XDG_RUNTIME_DIR: "/r", WS_SOCKET: "/x/y.sock" })).toBe("/r/ws/other.sock");
  });
});

describe("a real server", () => {
  test("directory 0700, socket 0600", async () => {
    const s = await server().start();
    expect(statSync(s.socketDir).mode & 0o777).toBe(0o700);
    expect(statSync(s.sock).mode & 0o777).toBe(0o600);
    expect(statSync(s.sock).isSocket()).toBe(true);
  });

  test("-L NAME serves NAME.sock, the name as given; a name outside the rule is refused, not rewritten", async () => {
    const s = server({ name: "my.proj" });
    await s.start();
    expect(existsSync(join(s.socketDir, "my.proj.sock"))).toBe(true);
    const r = await s.run(["workspace", "list", "--json"]);
    expect(JSON.parse(r.stdout).type).toBe("workspaces");
    for (const name of ["bad/name", "", "a b", ".."]) {
      const bad = await s.run(["-L", name, "--json", "start"]);
      expect({ name, code: bad.code, error: JSON.parse(bad.stdout).code }).toEqual({ name, code: 2, error: "usage" });
    }
    expect(readdirSync(s.socketDir).filter((f) => f.endsWith(".sock"))).toEqual(["my.proj.sock"]);
  });

  test("TMPDIR is used when XDG_RUNTIME_DIR is unset", async () => {
    const s = server();
    const tmp = join(s.root, "tmp");
    mkdirSync(tmp, { mode: 0o700 });
    s.env.TMPDIR = tmp;
    delete s.env.XDG_RUNTIME_DIR;
    await s.start();
    const sock = join(tmp, `ws-${process.getuid!()}`, "default.sock");
    expect(existsSync(sock)).toBe(true);
    await s.ok(["kill-server"]);
  });

  test("a symlinked socket directory is refused with a clear message", async () => {
    const s = server();
    const real = mkdtempSync(join(tmpdir(), "ws-real-"));
    symlinkSync(real, s.socketDir);
    const r = await s.run(["server"]);
    expect(r.code).not.toBe(0);
    expect(r.stderr + r.stdout).toContain("is a symlink; refusing to use it");
    rmSync(real, { recursive: true, force: true });
  });

  test("a socket directory owned by someone else is refused", async () => {
    if (process.getuid!() !== 0) return; // only root can give a directory away
    const s = server();
    mkdirSync(s.socketDir, { mode: 0o700 });
    chownSync(s.socketDir, 12345, 12345);
    const r = await s.run(["server"]);
    expect(r.code).not.toBe(0);
    expect(r.stderr + r.stdout).toContain("is owned by uid 12345");
  });

  test("a second server on a live socket refuses and leaves the first alone", async () => {
    const s = await server().start();
    const r = await s.run(["server"]);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain("already running");
    expect((await s.list())[0]!.name).toBe("main");
  });

  test("after kill -9 the stale socket is reported by doctor, removed by --fix and by the next server", async () => {
    const s = await server().start();
    const pid = s.daemonPid()!;
    process.kill(pid, "SIGKILL");
    await waitFor("the daemon to die", () => !processAlive(pid));
    expect(existsSync(s.sock)).toBe(true);
    const d = await s.run(["doctor"]);
    expect(d.code).toBe(1);
    expect(d.stdout).toContain("default.sock: stale");
    const fixed = await s.run(["doctor", "--fix"]);
    expect(fixed.stdout).toContain("fixed: default.sock: stale");
    expect(existsSync(s.sock)).toBe(false);
    // Make it stale again and let a new server clean it up.
    await s.start();
    const pid2 = s.daemonPid()!;
    process.kill(pid2, "SIGKILL");
    await waitFor("the daemon to die", () => !processAlive(pid2));
    await s.start();
    expect((await s.list())[0]!.tabs[0]!.panes).toEqual([1]);
  });

  test("a server that fails after binding its socket leaves no socket, no info file and no pane, and ws start says so", async () => {
    const s = server({ env: { WS_TEST_FAULTS: "start" } });
    const r = await s.run(["start"]);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain("failed while starting");
    expect(existsSync(s.sock)).toBe(false);
    expect(existsSync(s.sock.replace(/\.sock$/, ".info.json"))).toBe(false);
    // Its first pane's shell went with it.
    await waitFor("the failed server's shell to end", () => processesCarrying(`XDG_RUNTIME_DIR=${s.root}`).length === 0);
  });

  test("doctor reports wrong modes and a build mismatch", async () => {
    const s = await server().start();
    const infoFile = join(s.socketDir, "default.info.json");
    const info = JSON.parse(await Bun.file(infoFile).text());
    writeFileSync(infoFile, JSON.stringify({ ...info, build: "someotherbuild" }));
    require("node:fs").chmodSync(s.socketDir, 0o755);
    const d = await s.run(["doctor"]);
    expect(d.stdout).toContain("has mode 755, expected 700");
    expect(d.stdout).toContain("server build someotherbuild differs");
    expect(d.code).toBe(1);
  });
});
