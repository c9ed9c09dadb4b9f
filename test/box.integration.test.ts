// Boxes end to end (src/model/box.ts): a real daemon starts panes in real bubblewrap, and what runs
// inside tries the person's secrets, their home, /tmp, their tmux server, ws's runtime directory
// and the network, and talks to ws through the panes' socket, as itself. A box that can't be made refuses to
// start, never starting unboxed.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { chmodSync, copyFileSync, cpSync, existsSync, mkdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT, TestServer, waitFor, wsArgv } from "./harness";
import { probeBwrap } from "../src/model/box";

const bwrapWorks = existsSync("/usr/bin/bwrap") && probeBwrap("/usr/bin/bwrap") === undefined;
const describeBox = bwrapWorks ? describe : describe.skip;
if (!bwrapWorks) console.warn("box tests skipped: bubblewrap is missing or can't make a sandbox here (apt install bubblewrap)");

/** ws's command line for a program inside a box. A box makes /tmp and /var/tmp private, so a
 * checkout there (a fresh clone in CI) is out of the box's sight: then this runs a copy of ws's
 * program made in `home`, which the box shows read-only, as an installed ws in ~/.local would be. */
function wsInBox(home: string): string {
  let argv = wsArgv();
  const hidden = ["/tmp", "/var/tmp"].map((d) => realpathSync(d));
  const underHidden = (p: string) => hidden.some((d) => realpathSync(p).startsWith(`${d}/`));
  if (argv.some((a) => existsSync(a) && underHidden(a))) {
    const copy = join(home, "ws-program");
    mkdirSync(copy, { recursive: true });
    // The compiled binary (WS_BIN) is the whole program.
    if (argv.length === 1) {
      copyFileSync(argv[0]!, join(copy, "ws"));
      chmodSync(join(copy, "ws"), 0o755);
      return `'${join(copy, "ws")}'`;
    }
    for (const f of ["src", "node_modules", "package.json", "tsconfig.json", "bunfig.toml"].filter((f) => existsSync(join(ROOT, f)))) {
      // Hard links where they can be made (the same filesystem), else a copy.
      if (Bun.spawnSync(["cp", "-al", join(ROOT, f), copy]).exitCode !== 0) cpSync(join(ROOT, f), join(copy, f), { recursive: true });
    }
    argv = argv.map((a) => (a.startsWith(`${ROOT}/`) ? join(copy, a.slice(ROOT.length + 1)) : a));
  }
  return argv.map((a) => `'${a}'`).join(" ");
}

/** Run `script` (bash) in a boxed tab in `dir`; what it writes to $PWD/result, as KEY=VALUE lines. */
async function boxed(s: TestServer, dir: string, script: string, extra: Record<string, unknown> = {}, then = ""): Promise<Record<string, string>> {
  const result = join(dir, "result");
  rmSync(result, { force: true });
  const r = await s.v6({ type: "tab_new", cwd: dir, box: true, keep: true, command: ["bash", "-c", `${script}\necho END=1 >> result\n${then}`], ...extra });
  if (r.type !== "pane") throw new Error(`tab_new: ${JSON.stringify(r)}`);
  await waitFor("the boxed script to finish", () => readFileSync(result, "utf8").includes("END=1"), 20_000);
  const out: Record<string, string> = {};
  for (const line of readFileSync(result, "utf8").split("\n")) {
    const i = line.indexOf("=");
    if (i > 0) out[line.slice(0, i)] = line.slice(i + 1);
  }
  out.PANE = String(r.pane);
  return out;
}

/** The name of the program in a pane's foreground, as ws sees it. */
async function foreground(s: TestServer, pane: number): Promise<string | undefined> {
  const info = (await s.v6({ type: "pane_info", pane })) as { foreground?: { argv?: string[] } | null };
  return info.foreground?.argv?.[0]?.split("/").pop();
}

describeBox("a boxed pane", () => {
  let s: TestServer;
  let proj: string;
  const realTmp = `/tmp/ws-box-probe-${process.pid}`;
  const tmuxName = `ws-box-${process.pid}`;
  let listener: Bun.TCPSocketListener | undefined;

  beforeAll(async () => {
    s = new TestServer({ env: { SSH_AUTH_SOCK: "/tmp/ssh-agent-of-the-person.sock", DBUS_SESSION_BUS_ADDRESS: "unix:path=/run/user/0/bus", WS_TEST_WS: "" } });
    s.env.WS_TEST_WS = wsInBox(s.root);
    proj = join(s.root, "proj");
    mkdirSync(join(s.root, ".ssh"), { recursive: true });
    writeFileSync(join(s.root, ".ssh", "id_test"), "SECRET-KEY\n");
    writeFileSync(join(s.root, ".netrc"), "machine x password SECRET-NETRC\n");
    mkdirSync(proj, { recursive: true });
    writeFileSync(realTmp, "outside\n");
    // The person's tmux server, on its default socket directory (/tmp/tmux-UID).
    const env: Record<string, string> = { ...(process.env as Record<string, string>) };
    delete env.TMUX;
    delete env.TMUX_TMPDIR;
    Bun.spawnSync(["tmux", "-L", tmuxName, "new-session", "-d", "sleep 300"], { env });
    await s.start();
  }, 30_000);

  afterAll(async () => {
    listener?.stop(true);
    Bun.spawnSync(["tmux", "-L", tmuxName, "kill-server"]);
    rmSync(realTmp, { force: true });
    await s.stop();
  }, 30_000);

  test("hides secrets, keeps $HOME read-only, /tmp private, the person's sockets gone; its checkout and socket work", async () => {
    const uid = process.getuid!();
    const r = await boxed(
      s,
      proj,
      [
        // Unmounting what hides it first (a root program keeps no capability in a box).
        'umount ~/.ssh 2>/dev/null; cat ~/.ssh/id_test >/dev/null 2>&1 && echo SSH=read >> result || echo SSH=hidden >> result',
        'grep -q SECRET ~/.netrc 2>/dev/null && echo NETRC=read >> result || echo NETRC=hidden >> result',
        'touch ~/outside 2>/dev/null && echo HOME=written >> result || echo HOME=readonly >> result',
        `test -e ${realTmp} && echo TMP=shared >> result || echo TMP=private >> result`,
        `test -e /tmp/tmux-${uid}/${tmuxName} && echo TMUX_SOCKET=there >> result || echo TMUX_SOCKET=absent >> result`,
        `tmux -L ${tmuxName} has-session 2>/dev/null && echo TMUX=reached >> result || echo TMUX=unreachable >> result`,
        'echo "SSH_AUTH_SOCK=${SSH_AUTH_SOCK-unset}" >> result; echo "DBUS=${DBUS_SESSION_BUS_ADDRESS-unset}" >> result',
        'echo "RUNTIME=$(ls -A "$(dirname "$WS_SOCKET")" | tr "\\n" " ")" >> result',
        // The main socket, the person's: not in the box, and not reachable by its path.
        `test -e ${s.sock} && echo MAIN_SOCKET=there >> result || echo MAIN_SOCKET=absent >> result`,
        `echo "MAIN_DIR=$(ls -A ${s.socketDir} | tr "\\n" " ")" >> result`,
        `WS_SOCKET=${s.sock} eval "$WS_TEST_WS workspace list" >/dev/null 2>&1 && echo MAIN_REQUEST=answered >> result || echo MAIN_REQUEST=failed >> result`,
        // What it starts is boxed too, and it can't ask otherwise; it holds self, not the person's control.
        `eval "$WS_TEST_WS split -- sh -c 'echo BOXED=\\$WS_BOXED > child'"` + ' >/dev/null && echo SPLIT=started >> result',
        'eval "$WS_TEST_WS --json split --box=false -- true" 2>&1 | grep -q forbidden && echo UNBOX=forbidden >> result || echo UNBOX=allowed >> result',
        'eval "$WS_TEST_WS --json pane grants" > grants.json',
        // A person's verb on the panes' socket is refused.
        'eval "$WS_TEST_WS --json approve 1" 2>&1 | grep -q forbidden && echo APPROVE=forbidden >> result || echo APPROVE=not-forbidden >> result',
        'echo written > inside && echo CHECKOUT=writable >> result',
        // The person's keys, their other panes' terminals, ws's processes.
        'mkdir -p "$XDG_CONFIG_HOME/ws" 2>/dev/null; echo "[root]" >> "$XDG_CONFIG_HOME/ws/keys.toml" 2>/dev/null && echo KEYS=written >> result || echo KEYS=readonly >> result',
        'echo "PTS=$(ls /dev/pts | tr "\\n" " ")" >> result',
        `test -e /proc/${"$"}{WS_TEST_DAEMON} && echo DAEMON_PROC=visible >> result || echo DAEMON_PROC=hidden >> result`,
        `kill -0 ${"$"}{WS_TEST_DAEMON} 2>/dev/null && echo DAEMON_SIGNAL=reached >> result || echo DAEMON_SIGNAL=unreachable >> result`,
        'echo MARK-$WS_PANE_ID-ON-SCREEN',
        'eval "$WS_TEST_WS pane read $WS_PANE_ID" | grep -q "MARK-$WS_PANE_ID-ON-SCREEN" && echo PANE_READ=ok >> result || echo PANE_READ=failed >> result',
        `echo '{"session_id":"box"}' | eval "$WS_TEST_WS report SessionStart --agent claude" && echo REPORT=sent >> result`,
      ].join("\n"),
      { env: { WS_TEST_DAEMON: String(s.daemonPid()) } },
      // The agent's status lasts while its program runs.
      "sleep 60",
    );
    expect(r).toMatchObject({ KEYS: "readonly", PTS: "ptmx ", DAEMON_PROC: "hidden", DAEMON_SIGNAL: "unreachable", SSH: "hidden", NETRC: "hidden", HOME: "readonly", TMP: "private", TMUX_SOCKET: "absent", TMUX: "unreachable", SSH_AUTH_SOCK: "unset", DBUS: "unset", CHECKOUT: "writable", PANE_READ: "ok", REPORT: "sent" });
    // Of ws's runtime directory, only the panes' socket (where it is its own pane); the main socket
    // is neither there nor reachable, and a person's verb is refused on the panes'.
    expect(r.RUNTIME!.trim()).toBe("panes.sock");
    expect(r).toMatchObject({ MAIN_SOCKET: "absent", MAIN_REQUEST: "failed", APPROVE: "forbidden", SPLIT: "started", UNBOX: "forbidden" });
    expect(JSON.parse(readFileSync(join(proj, "grants.json"), "utf8"))).toMatchObject({ type: "pane_grants", pane: Number(r.PANE), level: "self" });
    await waitFor("the split's program to write", () => readFileSync(join(proj, "child"), "utf8").trim() === "BOXED=1");
    expect(r.MAIN_DIR!.trim()).toBe(`${s.sock.split("/").pop()!.replace(/\.sock$/, "")}.panes`);
    expect(existsSync(s.sock)).toBe(true);
    expect(existsSync(join(s.root, "outside"))).toBe(false);
    expect(readFileSync(join(proj, "inside"), "utf8")).toBe("written\n");
    // The report reached ws as this pane's agent.
    await waitFor("the boxed pane's agent report", async () => {
      const d = await s.v6({ type: "dashboard" });
      return (d.agents as { pane: number }[] | undefined)?.some((a) => a.pane === Number(r.PANE));
    });
  }, 30_000);

  test("network = false: no network; the default box has it", async () => {
    const server = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {}, open(sock) { sock.end(); } } });
    listener = server;
    const probe = `(exec 3<>/dev/tcp/127.0.0.1/${server.port}) 2>/dev/null && echo NET=connected >> result || echo NET=none >> result`;
    expect((await boxed(s, proj, probe)).NET).toBe("connected");
    expect((await boxed(s, proj, probe, { network: false })).NET).toBe("none");
  }, 30_000);

  test("TIOCSTI can't push input into the terminal from a box", async () => {
    const r = await boxed(s, proj, `/usr/bin/python3 -c 'import fcntl, termios, sys
try:
    fcntl.ioctl(0, termios.TIOCSTI, b"x")
    print("TIOCSTI=pushed")
except OSError as e:
    print("TIOCSTI=" + ("refused" if e.errno == 1 else str(e)))' >> result`);
    expect(r.TIOCSTI).toBe("refused");
  }, 30_000);

  test("a boxed shell keeps its terminal: job control, Ctrl-C, tty; its label is its program, not bwrap", async () => {
    const r = await s.v6({ type: "tab_new", cwd: proj, box: true });
    const pane = r.pane as number;
    await s.waitScreen(pane, /[$#] $/m, 15_000);
    await s.v6({ type: "pane_send", pane, text: "tty; sleep 300", enter: true });
    await waitFor("sleep in the foreground", async () => (await foreground(s, pane)) === "sleep");
    await s.v6({ type: "pane_send_keys", pane, keys: ["C-z"] });
    await s.waitScreen(pane, /Stopped\s+sleep 300/);
    await s.v6({ type: "pane_send", pane, text: "fg", enter: true });
    await waitFor("sleep back in the foreground", async () => (await foreground(s, pane)) === "sleep");
    await s.v6({ type: "pane_send_keys", pane, keys: ["C-c"] });
    await s.v6({ type: "pane_send", pane, text: "echo after-$?", enter: true });
    const screen = await s.waitScreen(pane, "after-130");
    expect(screen).not.toContain("not a tty");
    expect(screen).toMatch(/^\/dev\/(console|pts\/\d+)$/m);
    await waitFor("bash back in the foreground", async () => (await foreground(s, pane)) === "bash");
  }, 40_000);

  test("a boxed pane stays boxed: respawned, exported as a layout and applied again", async () => {
    const r = await boxed(s, proj, 'echo "BOXED=${WS_BOXED-no}" >> result', { network: false });
    expect(r.BOXED).toBe("1");
    const pane = Number(r.PANE);
    const exported = await s.v6({ type: "layout_export", pane });
    expect(exported.root).toMatchObject({ type: "pane", box: true, network: false });
    rmSync(join(proj, "result"), { force: true });
    await s.call({ type: "pane_respawn", pane });
    await waitFor("the respawned program's result", () => readFileSync(join(proj, "result"), "utf8").includes("BOXED=1"));
    rmSync(join(proj, "result"), { force: true });
    await s.call({ type: "layout_apply", root: exported.root });
    await waitFor("the applied layout's result", () => readFileSync(join(proj, "result"), "utf8").includes("BOXED=1"));
  }, 30_000);

  test("a box whose directory would be the home directory is refused, and nothing starts", async () => {
    const before = (await s.v6({ type: "pane_list" })).panes.length;
    const r = await s.v6({ type: "tab_new", cwd: s.root, box: true, command: ["true"] });
    expect(r).toMatchObject({ type: "error", code: "box_refused" });
    expect((await s.v6({ type: "pane_list" })).panes.length).toBe(before);
  });
});

describeBox("boxes that can't be made", () => {
  test("bwrap missing: a boxed pane refuses to start, naming what to install; unboxed ones still start", async () => {
    const s = new TestServer({ env: { WS_BWRAP: "/nonexistent/bwrap" } });
    try {
      await s.start();
      mkdirSync(join(s.root, "proj"));
      const before = (await s.v6({ type: "pane_list" })).panes.length;
      const r = await s.v6({ type: "tab_new", cwd: join(s.root, "proj"), box: true, command: ["true"] });
      expect(r).toMatchObject({ type: "error", code: "box_unavailable", hint: { command: "ws doctor" } });
      expect(r.message).toContain("bubblewrap");
      expect(r.message).toContain("apt install bubblewrap");
      const split = await s.v6({ type: "split", pane: 1, cwd: join(s.root, "proj"), command: [], box: true });
      expect(split).toMatchObject({ type: "error", code: "box_unavailable" });
      expect((await s.v6({ type: "pane_list" })).panes.length).toBe(before);
      expect((await s.v6({ type: "tab_new", cwd: join(s.root, "proj"), command: ["true"] })).type).toBe("pane");
      const doctor = await s.run(["doctor"]);
      expect(doctor.stdout).toContain("boxes don't work here");
    } finally {
      await s.stop();
    }
  }, 30_000);
});

describeBox("keys.toml", () => {
  test("box_agents: `claude` typed in a plain shell pane starts the real one (further down PATH) in a box", async () => {
    const s = new TestServer();
    try {
      mkdirSync(join(s.root, "config", "ws"), { recursive: true });
      writeFileSync(join(s.root, "config", "ws", "keys.toml"), "box_agents = true\n");
      mkdirSync(join(s.root, ".ssh"));
      writeFileSync(join(s.root, ".ssh", "id_test"), "SECRET-KEY\n");
      const bin = join(s.root, "bin");
      mkdirSync(bin);
      writeFileSync(join(bin, "claude"), '#!/bin/sh\necho "stand-in claude boxed=${WS_BOXED-no} args=$*"\ncat ~/.ssh/id_test 2>/dev/null || echo "no ssh key"\n', { mode: 0o755 });
      s.env.PATH = `${bin}:${s.env.PATH}`;
      await s.start();
      mkdirSync(join(s.root, "proj"));
      const r = await s.v6({ type: "tab_new", cwd: join(s.root, "proj"), command: [] });
      const pane = r.pane as number;
      await s.waitScreen(pane, /[$#] $/m, 15_000);
      await s.v6({ type: "pane_send", pane, text: "claude one two", enter: true });
      const screen = await s.waitScreen(pane, "no ssh key");
      expect(screen).toContain("stand-in claude boxed=1 args=one two");
      expect(screen).not.toContain("SECRET-KEY");
      // The shell itself is not boxed.
      await s.v6({ type: "pane_send", pane, text: "cat ~/.ssh/id_test", enter: true });
      await s.waitScreen(pane, "SECRET-KEY");
    } finally {
      await s.stop();
    }
  }, 40_000);

  test("box = true: a new pane is boxed unless asked otherwise", async () => {
    const s = new TestServer();
    try {
      mkdirSync(join(s.root, "config", "ws"), { recursive: true });
      writeFileSync(join(s.root, "config", "ws", "keys.toml"), "box = true\n");
      await s.start();
      const proj = join(s.root, "proj");
      mkdirSync(proj);
      const probe = `echo "BOXED=\${WS_BOXED-no}" >> result`;
      expect((await boxed(s, proj, probe, { box: undefined })).BOXED).toBe("1");
      expect((await boxed(s, proj, probe, { box: false })).BOXED).toBe("no");
    } finally {
      await s.stop();
    }
  }, 40_000);
});

describeBox("saved sessions", () => {
  test("a boxed pane comes back boxed (network off included) after kill-server --keep; an unboxed one unboxed", async () => {
    const s = await new TestServer().start();
    try {
      const proj = join(s.root, "proj");
      mkdirSync(proj);
      const probe = 'echo "BOXED=${WS_BOXED-no}"; exec cat';
      const boxedPane = (await s.call({ type: "tab_new", cwd: proj, box: true, network: false, name: "boxed", command: ["bash", "-c", probe] })).pane;
      const plainPane = (await s.call({ type: "tab_new", cwd: proj, name: "plain", command: ["bash", "-c", probe] })).pane;
      await s.waitScreen(boxedPane, "BOXED=1");
      await s.waitScreen(plainPane, "BOXED=no");
      await s.ok(["pane", "rename", String(boxedPane), "was-boxed"]);
      await s.ok(["pane", "rename", String(plainPane), "was-plain"]);
      expect((await s.run(["kill-server", "--keep"])).code).toBe(0);
      await waitFor("the server to be gone", async () => (await s.run(["pane", "list"])).code !== 0, 20_000);
      await s.ok(["start"]);
      const panes = (await s.call({ type: "pane_list" })).panes;
      const again = (name: string) => panes.find((p) => p.name === name)!.pane;
      await s.waitScreen(again("was-boxed"), /BOXED=1[^]*BOXED=1/);
      await s.waitScreen(again("was-plain"), /BOXED=no[^]*BOXED=no/);
      expect((await s.v6({ type: "layout_export", pane: again("was-boxed") })).root).toMatchObject({ box: true, network: false });
    } finally {
      await s.stop();
    }
  }, 60_000);
});
