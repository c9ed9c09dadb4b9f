// ws on another machine through OpenSSH (docs/remote.md), over a real sshd on 127.0.0.1
// (test/ssh-rig.ts): the local ws reaches the "remote" one with -H, through `ssh … ws proxy`.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { chmodSync, existsSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT, TestServer, waitFor, wsArgv } from "./harness";
import { descendants, freePort, haveSshd, SshRig } from "./ssh-rig";
import { Tmux } from "./tmux-driver";

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** The compiled binary, rebuilt when any source is newer (ws remote install copies the binary itself). */
async function compiledWs(): Promise<string> {
  const dist = join(ROOT, "dist/ws");
  const newest = (dir: string): number =>
    Math.max(0, ...readdirSync(dir, { withFileTypes: true }).map((e) => (e.isDirectory() ? newest(join(dir, e.name)) : statSync(join(dir, e.name)).mtimeMs)));
  if (!existsSync(dist) || statSync(dist).mtimeMs < newest(join(ROOT, "src"))) {
    const b = Bun.spawn([process.execPath, "run", "build"], { cwd: ROOT, stdout: "ignore", stderr: "pipe" });
    if ((await b.exited) !== 0) throw new Error(`build failed: ${await new Response(b.stderr).text()}`);
  }
  return dist;
}

describe.skipIf(!haveSshd())("ws -H HOST over a real sshd", () => {
  let rig: SshRig;
  let local: TestServer;
  let H: string[];

  beforeAll(async () => {
    rig = await new SshRig().start();
    local = new TestServer({ env: rig.env });
    H = ["-H", rig.host];
  });
  afterAll(async () => {
    await local.stop();
    await rig.stop();
  });

  test("ws missing on the host: a clear error naming the host and where ws was looked for", async () => {
    const r = await local.run([...H, "workspace", "list"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`ws is not installed on ${rig.host}`);
    expect(r.stderr).toContain("~/.local/bin/ws");
    expect(r.stderr).toContain(`ws remote install ${rig.host}`);
  });

  test("ssh failing: the host named, with ssh's own message", async () => {
    const port = freePort(); // nothing listens there
    rig.addHost("closedhost", port);
    const r = await local.run(["-H", "closedhost", "workspace", "list"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("ssh to closedhost failed");
    expect(r.stderr).toMatch(/Connection refused/);
    // A host that ssh would read as an option is refused before ssh runs.
    const bad = await local.run(["-H", "-oProxyCommand=touch /tmp/x", "workspace", "list"]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain("not a host name");
  });

  test("a remote ws that speaks other protocol versions, or is too old for ws proxy: clear errors", async () => {
    const bin = join(rig.home, ".local/bin");
    mkdirSync(bin, { recursive: true });
    const fake = (script: string) => writeFileSync(join(bin, "ws"), `#!/bin/sh\n${script}\n`, { mode: 0o755 });
    // On PATH first (a system-wide install), then ~/.local/bin.
    writeFileSync(join(rig.binDir, "ws"), `#!/bin/sh\necho '{"ws_proxy":1,"min":7,"max":9,"build":"future"}'; cat >/dev/null\n`, { mode: 0o755 });
    // Taken back whatever happens: the rig's later tests would all meet this future ws.
    const future = await local.run([...H, "workspace", "list"]).finally(() => rmSync(join(rig.binDir, "ws"), { force: true }));
    expect(future.code).toBe(1);
    expect(future.stderr).toContain(`${rig.host}'s ws speaks protocol 7..9 (build future); this ws speaks 1..6`);
    expect(future.stderr).toContain(`ws remote install ${rig.host}`);
    fake(`echo "ws: unknown command proxy" >&2; exit 2`);
    const old = await local.run([...H, "workspace", "list"]);
    expect(old.code).toBe(1);
    expect(old.stderr).toContain(`ws proxy on ${rig.host} exited 2: ws: unknown command proxy`);
    rmSync(join(bin, "ws"));
  });

  test("ws remote install copies this binary to the host's ~/.local/bin/ws, atomically and executable", async () => {
    const bin = await compiledWs();
    const p = Bun.spawn([bin, "remote", "install", rig.host], { env: local.env, cwd: local.root, stdout: "pipe", stderr: "pipe" });
    const [out, err, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
    expect(err).toBe("");
    expect(code).toBe(0);
    expect(out).toContain(`on ${rig.host} at ~/.local/bin/ws`);
    const installed = join(rig.home, ".local/bin/ws");
    expect(statSync(installed).size).toBe(statSync(bin).size);
    expect(statSync(installed).mode & 0o777).toBe(0o755);
    // No temp file left beside it.
    expect(readdirSync(join(rig.home, ".local/bin"))).toEqual(["ws"]);
    const version = await rig.ssh("$HOME/.local/bin/ws --version");
    const localVersion = Bun.spawnSync([bin, "--version"]).stdout.toString();
    expect(version.stdout).toBe(localVersion);
    // Another OS or CPU there: refused, nothing copied.
    const before = statSync(installed).mtimeMs;
    writeFileSync(join(rig.binDir, "uname"), "#!/bin/sh\necho Linux riscv64\n", { mode: 0o755 });
    try {
      const p2 = Bun.spawn([bin, "remote", "install", rig.host], { env: local.env, cwd: local.root, stdout: "pipe", stderr: "pipe" });
      const [err2, code2] = await Promise.all([new Response(p2.stderr).text(), p2.exited]);
      expect(code2).toBe(1);
      expect(err2).toContain(`${rig.host} is Linux riscv64, this ws is built for ${Bun.spawnSync(["uname", "-sm"]).stdout.toString().trim()}; nothing was copied`);
      expect(statSync(installed).mtimeMs).toBe(before);
    } finally {
      rmSync(join(rig.binDir, "uname"));
    }
    // From sources (not one file) there is nothing to copy: a clear refusal.
    if (wsArgv().length > 1) {
      const r = await local.run(["remote", "install", rig.host]);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain("copies the compiled ws binary");
    }
  }, 120_000);

  test("start, tab new, pane send and pane read run against the host's server", async () => {
    // The remote ws is this test's ws (sources or WS_BIN), so both ends are the same build.
    rig.installWsShim();
    const none = await local.run([...H, "workspace", "list"]);
    expect(none.code).toBe(1);
    expect(none.stderr).toContain(`no ws server on ${rig.host}`);
    expect(none.stderr).toContain(`ws start -H ${rig.host}`);

    await local.ok([...H, "start"]);
    // The server runs on the far side (its socket in the remote XDG_RUNTIME_DIR), none here.
    expect(rig.remoteDaemonPid()).toBeGreaterThan(0);
    expect(existsSync(local.sock)).toBe(false);

    const pane = Number((await local.ok([...H, "tab", "new"])).trim());
    expect(pane).toBeGreaterThan(1);
    await local.ok([...H, "pane", "send", String(pane), "echo over-ssh-$((6*7))", "--enter"]);
    await waitFor("the remote pane to show the output", async () => (await local.ok([...H, "pane", "read", String(pane)])).includes("over-ssh-42"), 15000);
    const tabs = JSON.parse(await local.ok([...H, "--json", "tab", "list"]));
    expect(tabs.tabs.flatMap((t: { panes: number[] }) => t.panes)).toContain(pane);
    // A handler that speaks the protocol itself (pane list) goes through the bridge too.
    const panes = JSON.parse(await local.ok([...H, "--json", "pane", "list"]));
    expect(JSON.stringify(panes)).toContain(`"pane":${pane}`);
    // WS_HOST does what -H does.
    const viaEnv = await local.ok(["--json", "tab", "list"], { env: { WS_HOST: rig.host } });
    expect(JSON.parse(viaEnv).tabs.length).toBe(tabs.tabs.length);
    // Panes there get the remote server's panes' socket as WS_SOCKET, and ws inside them talks to it.
    await local.ok([...H, "pane", "send", String(pane), 'echo "sock=$WS_SOCKET"', "--enter"]);
    const shown = await waitFor("WS_SOCKET in the remote pane", async () => {
      const t = await local.ok([...H, "pane", "read", String(pane)]);
      return t.includes("sock=/") ? t : undefined;
    }, 15000);
    expect(shown).toContain(`sock=${join(rig.runtime, "ws", "default.panes", "panes.sock")}`);
    // ws run: the command's output and exit status, from the remote pane's shell.
    const ran = await local.run([...H, "run", String(pane), "--", "echo ran-$((40+2)); (exit 3)"]);
    expect(ran.stdout).toContain("ran-42");
    expect(ran.code).toBe(3);
  }, 60_000);

  test("a long XDG_RUNTIME_DIR, or macOS's long TMPDIR: ssh's master socket gets a short hashed path, and -H still works", async () => {
    // Both leave ws's own socket directory too deep for `DIR/%C` plus the suffix ssh binds first.
    const deep = join(local.root, "r".repeat(70), "s".repeat(40));
    mkdirSync(deep, { recursive: true, mode: 0o700 });
    const short = `/tmp/ws-ssh-${process.getuid!()}`;
    const before = new Set(existsSync(short) ? readdirSync(short) : []);
    for (const env of [{ XDG_RUNTIME_DIR: deep }, { XDG_RUNTIME_DIR: "", TMPDIR: deep }] as Record<string, string>[]) {
      const r = await local.run([...H, "--json", "workspace", "list"], { env });
      expect(r.stderr).toBe("");
      expect(r.code).toBe(0);
      expect(JSON.parse(r.stdout).type).toBe("workspaces");
    }
    // The master listens in the short private directory, under a short hashed name, and is reused.
    expect(statSync(short).mode & 0o777).toBe(0o700);
    const made = readdirSync(short).filter((n) => !before.has(n));
    expect(made.length).toBeGreaterThanOrEqual(1);
    for (const name of made) {
      expect(name).toMatch(/^[0-9a-f]{20}$/);
      expect(`${short}/${name}`.length + 17).toBeLessThan(104);
    }
    const check = Bun.spawnSync(["ssh", "-F", rig.sshConfig, "-o", `ControlPath=${short}/${made[0]}`, "-O", "check", rig.host], { stderr: "pipe" });
    expect(check.stderr.toString()).toContain("Master running");
  }, 60_000);

  test("the host's server stopped (SIGSTOP): requests give up at --timeout naming the host; doctor there says it is stopped", async () => {
    const pid = rig.remoteDaemonPid()!;
    process.kill(pid, "SIGSTOP");
    try {
      const started = Date.now();
      const r = await local.run([...H, "--timeout", "1500", "pane", "list"]);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(`the ws server on ${rig.host} did not answer within 1.5 s`);
      // Not a socket path of either machine: the host is what the user named.
      expect(r.stderr).not.toContain(".sock");
      expect(Date.now() - started).toBeLessThan(1500 + 15_000);
      const doc = await local.run([...H, "doctor", "--timeout", "1000"]);
      expect(doc.code).toBe(1);
      expect(doc.stdout).toContain(`takes connections but does not answer: it is stopped (resume it: kill -CONT ${pid})`);
    } finally {
      process.kill(pid, "SIGCONT");
    }
    await waitFor("the host's server to answer again", async () => (await local.run([...H, "workspace", "list"])).code === 0, 20_000);
  }, 60_000);

  test("a big reply comes through the bridge byte for byte", async () => {
    const pane = Number((await local.ok([...H, "tab", "new", "--", "sh", "-c", "seq -f '%g: a long line, so that the history a pane keeps makes a big reply' 1 40000; echo seq-done; exec sleep 600"])).trim());
    await waitFor("seq to finish", async () => (await local.ok([...H, "pane", "read", String(pane)])).includes("seq-done"), 20000);
    const read = ["--json", "pane", "read", String(pane), "--source", "recent"];
    const through = await local.ok([...H, ...read]);
    // The same request straight to the host's socket (it is this machine, after all).
    const direct = await local.ok(read, { env: { XDG_RUNTIME_DIR: rig.runtime } });
    expect(through.length).toBeGreaterThan(50_000);
    expect(through).toBe(direct);
  }, 60_000);

  test("a stream (ws events) and ws call work through the bridge", async () => {
    const reply = JSON.parse(await local.ok([...H, "call", "workspace_list"]));
    expect(reply.type).toBe("workspaces");
    const events = Bun.spawn([...wsArgv(), ...H, "events", "--types", "tab_created"], { env: local.env, cwd: local.root, stdout: "pipe", stderr: "pipe" });
    try {
      let out = "";
      let err = "";
      const dec = new TextDecoder();
      (async () => {
        for await (const c of events.stderr) err += dec.decode(c);
      })();
      (async () => {
        for await (const c of events.stdout) out += dec.decode(c);
      })();
      await waitFor("the subscription", () => err.includes("# subscribed"), 15000);
      const pane = (await local.ok([...H, "tab", "new", "--name", "streamed"])).trim();
      await waitFor("the tab_created event", () => out.includes("tab_created") && out.includes("name=streamed"), 15000);
      expect(pane).toMatch(/^\d+$/);
    } finally {
      events.kill();
    }
  }, 40_000);

  describe("attach through the bridge, in a real terminal", () => {
    let tmux: Tmux;
    const PREFIX = "C-Space";
    beforeAll(() => {
      tmux = new Tmux(local.env);
    });
    afterAll(async () => {
      await tmux.kill();
    });

    async function attached(name: string) {
      await tmux.open(name, `sh -c '${wsArgv().join(" ")} -H ${rig.host} attach; echo "[ws exited $?]"; sleep 3600'`);
      return tmux.waitFor(name, /\[main\] tab \d+\/\d+/, 20000);
    }

    test("typing reaches the remote pane; detach; reattach finds it as it was", async () => {
      await attached("a");
      await tmux.text("a", "echo typed-$((20+3))");
      await tmux.keys("a", "Enter");
      await tmux.waitFor("a", "typed-23", 15000);
      await tmux.keys("a", PREFIX, "d");
      await tmux.waitFor("a", (s) => s.includes("detached") && s.includes("[ws exited 0]"), 15000);
      await attached("b");
      await tmux.waitFor("b", "typed-23", 15000);
    }, 90_000);

    test("a dropped connection: the terminal comes back, the client says so and exits non-zero; the remote server lives on", async () => {
      await tmux.waitFor("b", "[main]");
      const daemon = rig.remoteDaemonPid()!;
      // The ssh under this attach client (ssh runs as the client's child), killed as a network drop would.
      const shell = await tmux.panePid("b");
      const ssh = await waitFor("the attach client's ssh", () => descendants(shell).find((pid) => {
        try {
          return require("node:fs").readFileSync(`/proc/${pid}/comm`, "utf8").trim() === "ssh";
        } catch {
          return false;
        }
      }));
      process.kill(ssh, "SIGKILL");
      const s = await tmux.waitFor("b", "[ws exited", 15000);
      expect(s).toContain(`connection to ${rig.host} was lost`);
      expect(s).toMatch(/\[ws exited [1-9]\d*\]/);
      // The terminal is back: no status line of ws's, the shell prints plainly.
      expect(s).not.toContain("[main] tab");
      expect(alive(daemon)).toBe(true);
      // Everything is as it was.
      await attached("c");
      await tmux.waitFor("c", "typed-23", 15000);
      await tmux.keys("c", PREFIX, "d");
      await tmux.waitFor("c", "[ws exited 0]", 15000);
    }, 90_000);
  });

  test("the merged dashboard: every host's agents, each naming its host; a dead or silent host gets a row and blocks nobody", async () => {
    // An agent on the host reports through its own ws (as agent hooks do), to the remote server.
    const pane = 1;
    // (A stand-in agent that stays in the foreground: a status goes when its agent exits.)
    await local.ok([...H, "pane", "send", String(pane), `sh -c "echo '{}' | ~/.local/bin/ws report UserPromptSubmit --agent claude; echo reported-ok; exec sleep 600"`, "--enter"]);
    await waitFor("the report to land", async () => (await local.ok([...H, "pane", "read", String(pane)])).includes("reported-ok"), 15000);

    rig.addHost("deadhost", freePort());
    // A host that accepts the TCP connection and then says nothing: only the per-host timeout ends it.
    const silent = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
    rig.addHost("silenthost", silent.port);
    try {
      const started = Date.now();
      const r = await local.run(["--json", "-H", rig.host, "-H", "deadhost", "-H", "silenthost", "dashboard"], { env: { WS_HOST_TIMEOUT_MS: "2500" } });
      const took = Date.now() - started;
      expect(r.code).toBe(0);
      const d = JSON.parse(r.stdout);
      expect(d.hosts.find((h: { host: string }) => h.host === rig.host).ok).toBe(true);
      expect(d.hosts.find((h: { host: string }) => h.host === "deadhost")).toMatchObject({ ok: false });
      expect(d.hosts.find((h: { host: string }) => h.host === "silenthost").error).toContain("no answer");
      expect(d.agents).toContainEqual(expect.objectContaining({ host: rig.host, pane, status: "working" }));
      // The silent host cost its timeout, not more (and the others did not wait for it in turn).
      expect(took).toBeLessThan(2500 + 6000);

      const text = await local.run(["-H", rig.host, "-H", "deadhost", "dashboard"]);
      expect(text.stdout).toMatch(new RegExp(`${rig.host}\\s+working .* pane ${pane}`));
      expect(text.stdout).toMatch(/deadhost\s+unreachable: ssh to deadhost failed/);

      // --all-hosts: the hosts file lists them.
      const missing = await local.run(["--all-hosts", "dashboard"]);
      expect(missing.code).toBe(1);
      expect(missing.stderr).toContain(join(local.root, "config", "ws", "hosts"));
      mkdirSync(join(local.root, "config", "ws"), { recursive: true });
      writeFileSync(join(local.root, "config", "ws", "hosts"), `# build boxes\n${rig.host}\ndeadhost  # gone\n`);
      const all = JSON.parse(await local.ok(["--json", "--all-hosts", "dashboard"]));
      expect(all.hosts.map((h: { host: string }) => h.host)).toEqual([rig.host, "deadhost"]);
      expect(all.agents[0]).toMatchObject({ host: rig.host, pane });
    } finally {
      silent.stop(true);
    }
  }, 60_000);

  test("ws kill-server -H stops the host's server; bare ws -H and ws attach -H start it again and attach", async () => {
    const pid = rig.remoteDaemonPid()!;
    await local.ok([...H, "kill-server"]);
    await waitFor("the remote server to exit", () => !alive(pid), 10000);
    // A command run there whole fails as it would there: its message and exit status come back.
    const again = await local.run([...H, "kill-server"]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain(`no ws server on ${join(rig.runtime, "ws", "default.sock")}`);
    const tmux = new Tmux(local.env);
    try {
      await tmux.open("bare", `sh -c '${wsArgv().join(" ")} -H ${rig.host}; echo "[ws exited $?]"; sleep 3600'`);
      await tmux.waitFor("bare", /\[main\] tab \d+\/\d+/, 20000);
      const again = rig.remoteDaemonPid()!;
      expect(again).not.toBe(pid);
      expect(alive(again)).toBe(true);
      await tmux.keys("bare", "C-Space", "d");
      await tmux.waitFor("bare", "[ws exited 0]", 15000);
      await local.ok([...H, "kill-server"]);
      await waitFor("the remote server to exit", () => !alive(again), 10000);
      await tmux.open("attach", `sh -c '${wsArgv().join(" ")} -H ${rig.host} attach; echo "[ws exited $?]"; sleep 3600'`);
      await tmux.waitFor("attach", /\[main\] tab \d+\/\d+/, 20000);
      const third = rig.remoteDaemonPid()!;
      expect(third).not.toBe(again);
      expect(alive(third)).toBe(true);
      await tmux.keys("attach", "C-Space", "d");
      await tmux.waitFor("attach", "[ws exited 0]", 15000);
    } finally {
      await tmux.kill();
    }
  }, 90_000);
});

describe("ws proxy on its own (what ssh runs on the host)", () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await new TestServer().start();
  });
  afterAll(() => s.stop());

  async function proxy(input: string, args: string[] = [], env: Record<string, string> = {}): Promise<string[]> {
    const p = Bun.spawn([...wsArgv(), "proxy", ...args], { env: { ...s.env, ...env }, cwd: s.root, stdin: new Blob([input]), stdout: "pipe", stderr: "pipe" });
    const [out, code] = await Promise.all([new Response(p.stdout).text(), p.exited]);
    expect(code).toBe(0);
    return out.split("\n").filter(Boolean);
  }

  test("a preamble with the protocol range and build, then the server's bytes both ways; a big line gets through whole", async () => {
    const big = JSON.stringify({ v: 6, type: "workspace_list", id: 1, pad: "x".repeat(900_000) });
    const lines = await proxy(`${big}\n${JSON.stringify({ v: 6, type: "workspace_list", id: 2 })}\n`);
    const pre = JSON.parse(lines[0]!);
    expect(pre).toMatchObject({ ws_proxy: 1, min: 1, max: 6 });
    expect(pre.build).toBe(Bun.spawnSync([...wsArgv(), "--version"], { env: s.env }).stdout.toString().match(/\((\w+)\)/)![1]);
    // The big line reached the server whole (it answers only at a newline): refused for its
    // unknown field, and the next request on the same connection answered after it.
    expect(JSON.parse(lines[1]!)).toMatchObject({ type: "error", id: 1 });
    expect(JSON.parse(lines[2]!)).toMatchObject({ type: "workspaces", id: 2 });
  });

  test("backpressure: while nobody reads the proxy's stdout it stops reading the server, holding nothing", async () => {
    await s.request({ v: 2, type: "pane_send", pane: 1, text: "seq 1 60000; echo seq-done", enter: true });
    await waitFor("seq to finish", async () => (await s.screen(1)).includes("seq-done"), 20000);
    const rss = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(require("node:fs").readFileSync(`/proc/${pid}/status`, "utf8"))![1]);
    const p = Bun.spawn([...wsArgv(), "proxy"], { env: s.env, cwd: s.root, stdin: "pipe", stdout: "pipe", stderr: "pipe" });
    const N = 200; // each answer is the whole history, ~70 KB: ~14 MB asked for
    for (let i = 0; i < N; i++) p.stdin.write(JSON.stringify({ v: 6, type: "pane_read", pane: 1, source: "recent", id: i }) + "\n");
    p.stdin.flush();
    const reader = p.stdout.getReader();
    let text = new TextDecoder().decode((await reader.read()).value!);
    const before = rss(p.pid);
    // The server is answering; the proxy must not be taking it all in. (A check that something
    // does not happen needs a window: in 1.5 s a proxy that read without pausing would take in megabytes.)
    await Bun.sleep(1500);
    expect(rss(p.pid) - before).toBeLessThan(6 * 1024);
    p.stdin.end();
    const dec = new TextDecoder();
    for (;;) {
      const r = await reader.read();
      if (r.done) break;
      text += dec.decode(r.value, { stream: true });
    }
    const lines = text.split("\n").filter(Boolean);
    expect(lines.length).toBe(N + 1);
    expect(JSON.parse(lines[N]!)).toMatchObject({ type: "pane_text", id: N - 1 });
  }, 60_000);

  test("no server, or an unsafe socket directory: the preamble says so and nothing is sent", async () => {
    const [none] = await proxy("", ["-L", "nobody-here"]);
    expect(JSON.parse(none!)).toMatchObject({ ws_proxy: 1, code: "no_server" });
    chmodSync(s.socketDir, 0o755);
    try {
      const [unsafe] = await proxy(JSON.stringify({ v: 1, type: "workspace_list" }) + "\n");
      expect(JSON.parse(unsafe!)).toMatchObject({ code: "unsafe_socket" });
      expect(JSON.parse(unsafe!).error).toContain("expected 700");
    } finally {
      chmodSync(s.socketDir, 0o700);
    }
  });

  test("--exec runs one command line here; it won't run a proxy", async () => {
    // (A WS_HOST here does not send it on to another machine.)
    const lines = await proxy(JSON.stringify(["--json", "workspace", "list"]) + "\n", ["--exec"], { WS_HOST: "elsewhere.invalid" });
    expect(JSON.parse(lines[1]!).type).toBe("workspaces");
    const p = Bun.spawn([...wsArgv(), "proxy", "--exec"], { env: s.env, cwd: s.root, stdin: new Blob([JSON.stringify(["proxy"]) + "\n"]), stdout: "pipe", stderr: "pipe" });
    const [err, code] = await Promise.all([new Response(p.stderr).text(), p.exited]);
    expect(code).toBe(1);
    expect(err).toContain("does not run through a proxy");
    // Host flags in every spelling the CLI reads: none gets past the guard.
    for (const argv of [["--host=elsewhere", "workspace", "list"], ["--all-hosts", "dashboard"], ["-H", "elsewhere", "workspace", "list"], ["--json", "--host", "elsewhere", "doctor"]]) {
      const q = Bun.spawn([...wsArgv(), "proxy", "--exec"], { env: s.env, cwd: s.root, stdin: new Blob([JSON.stringify(argv) + "\n"]), stdout: "pipe", stderr: "pipe" });
      const [qerr, qcode] = await Promise.all([new Response(q.stderr).text(), q.exited]);
      expect({ argv, qcode, said: qerr.includes("does not run through a proxy") }).toEqual({ argv, qcode: 1, said: true });
    }
  });
});
