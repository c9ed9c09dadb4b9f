// The tmux shim: tools that drive tmux, replayed call by call under `ws tmux-shim` against real ws
// panes (Claude Code's agent teams, vim-tmux-navigator, vim-slime); formats and targets compared
// with a real tmux 3.3 on a private socket; and calls meant for a real tmux server reaching it.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { TestServer, waitFor, type RunResult } from "./harness";

let s: TestServer;
let lead: number;
let shimEnv: Record<string, string> & { PATH: string; TMUX: string };
let dir: string;
const REAL_TMUX = Bun.which("tmux");
// Every shim call is a ws process (from source unless WS_BIN): seconds each on a loaded 2-core box,
// so the tests that make many get deadlines to match (an unfinished one leaves panes behind that
// then fail the tests after it).

beforeAll(async () => {
  s = await new TestServer().start();
  lead = (await s.v6({ type: "pane_list" })).panes[0]!.pane;
  dir = realpathSync(mkdtempSync(join(s.root, "shim-")));
  // What `ws tmux-shim` gives its command, read back from inside.
  const r = await s.run(["tmux-shim", "--", "sh", "-c", 'printf "%s\\n" "$PATH" "$TMUX" "$TMUX_PANE"'], { env: { WS_PANE_ID: String(lead), WS_SOCKET: s.sock } });
  expect(r.code).toBe(0);
  const [path, tmuxVar, pane] = r.stdout.split("\n");
  shimEnv = { ...s.env, PATH: path!, TMUX: tmuxVar!, TMUX_PANE: pane!, WS_SOCKET: s.sock, WS_PANE_ID: String(lead) };
});
afterAll(() => s.stop());

/** Run `tmux` as a tool does: found on the PATH ws tmux-shim set, from pane `pane`. */
async function tmux(args: string[], o: { pane?: number; stdin?: string; env?: Record<string, string> } = {}): Promise<RunResult> {
  const pane = o.pane ?? lead;
  const proc = Bun.spawn([Bun.which("tmux", { PATH: shimEnv.PATH })!, ...args], {
    env: { ...shimEnv, TMUX_PANE: `%${pane}`, WS_PANE_ID: String(pane), ...o.env },
    cwd: dir,
    stdin: o.stdin !== undefined ? new Blob([o.stdin]) : "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { code, stdout, stderr };
}

async function ok(args: string[], o: Parameters<typeof tmux>[1] = {}): Promise<string> {
  const r = await tmux(args, o);
  if (r.code !== 0) throw new Error(`tmux ${args.join(" ")} exited ${r.code}: ${r.stderr}`);
  return r.stdout;
}

const paneList = async () => (await s.v6({ type: "pane_list" })).panes as { pane: number; cols: number; rows: number; tab: number; focused: boolean; name: string | null }[];
const info = (pane: number) => s.v6({ type: "pane_info", pane });

describe("ws tmux-shim", () => {
  test("puts a tmux that is ws first on PATH, in a private directory beside the socket, with TMUX and TMUX_PANE", () => {
    const shimDir = s.sock.replace(/\.sock$/, ".tmux");
    expect(shimEnv.PATH.split(":")[0]).toBe(shimDir);
    expect(statSync(shimDir).mode & 0o777).toBe(0o700);
    expect(existsSync(join(shimDir, "tmux"))).toBe(true);
    if (process.env.WS_BIN) expect(realpathSync(join(shimDir, "tmux"))).toBe(realpathSync(process.env.WS_BIN));
    if (process.env.WS_BIN) expect(lstatSync(join(shimDir, "tmux")).isSymbolicLink()).toBe(true);
    expect(shimEnv.TMUX).toMatch(new RegExp(`^${s.sock.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")},\\d+,\\d+$`));
    expect(shimEnv.TMUX.split(",")[1]).toBe(String(s.daemonPid()));
    expect(shimEnv.TMUX_PANE).toBe(`%${lead}`);
  });

  test("-V answers as tmux 3.3", async () => {
    expect(await ok(["-V"])).toMatch(/^tmux 3\.3/);
  });
});

describe("Claude Code v2.1.38's teammate calls", () => {
  test("display-message, list-panes, split-window -h -l 70% -P -F, send-keys, kill-pane", async () => {
    expect(await ok(["display-message", "-p", "#{pane_id}"])).toBe(`%${lead}\n`);
    const before = (await ok(["list-panes", "-F", "#{pane_id}"])).trim().split("\n");
    expect(before).toContain(`%${lead}`);
    const leadCols = (await info(lead)).cols as number;
    const out = await ok(["split-window", "-h", "-l", "70%", "-P", "-F", "#{pane_id}"]);
    expect(out).toMatch(/^%\d+\n$/);
    const mate = Number(out.slice(1));
    const panes = await paneList();
    const created = panes.find((p) => p.pane === mate)!;
    expect(created).toBeDefined();
    expect(created.tab).toBe(panes.find((p) => p.pane === lead)!.tab);
    expect(Math.abs(created.cols - Math.floor((leadCols * 70) / 100))).toBeLessThanOrEqual(1);
    expect((await ok(["list-panes", "-F", "#{pane_id}"])).trim().split("\n")).toEqual([...before, `%${mate}`]);
    // The teammate's pane is tmux to what runs in it.
    await ok(["send-keys", "-t", `%${mate}`, 'echo "mate=$TMUX_PANE tmux=${TMUX%%,*}"', "Enter"]);
    await s.waitScreen(mate, `mate=%${mate} tmux=${s.sock}`);
    await ok(["kill-pane", "-t", `%${mate}`]);
    expect((await paneList()).some((p) => p.pane === mate)).toBe(false);
    // Ids are never reused: the killed id names nothing now. display-message says so as tmux does
    // (an empty format, status 0); a command on it fails.
    expect(await tmux(["display-message", "-p", "-t", `%${mate}`, "#{pane_id}"])).toEqual({ code: 0, stdout: "\n", stderr: "" });
    expect(await tmux(["send-keys", "-t", `%${mate}`, "x"])).toEqual({ code: 1, stdout: "", stderr: `can't find pane: %${mate}\n` });
  }, 120_000);
});

describe("Claude Code v2.1.183's teammate calls", () => {
  test("show -Av mouse, show -gv focus-events, client_termtype, split-window -d -- cat, set-option -p, respawn-pane -k", async () => {
    expect(await ok(["show", "-Av", "mouse"])).toBe("off\n");
    expect(await ok(["show", "-gv", "focus-events"])).toBe("off\n");
    expect((await tmux(["display-message", "-p", "#{client_termtype}"])).code).toBe(0);
    const out = await ok(["split-window", "-d", "-h", "-t", `%${lead}`, "-P", "-F", "#{pane_id}", "--", "cat"]);
    const mate = Number(/^%(\d+)\n$/.exec(out)![1]);
    await waitFor("cat to run", async () => (await info(mate)).foreground?.argv?.[0] === "cat");
    expect((await paneList()).find((p) => p.pane === lead)!.focused).toBe(true); // -d: focus stays
    await ok(["set-option", "-p", "-t", `%${mate}`, "pane-border-format", "#{pane_title}"]);
    await ok(["set-option", "-p", "-t", `%${mate}`, "remain-on-exit", "on"]);
    await ok(["select-pane", "-t", `%${mate}`, "-T", "researcher"]);
    expect((await paneList()).find((p) => p.pane === mate)!.name).toBe("researcher");
    expect(await ok(["display-message", "-p", "-t", `%${mate}`, "#{pane_title}"])).toBe("researcher\n");
    await ok(["respawn-pane", "-k", "-t", `%${mate}`, "--", "sh", "-c", 'echo "respawned in $TMUX_PANE"; exec sleep 100']);
    await s.waitScreen(mate, `respawned in %${mate}`);
    expect((await paneList()).some((p) => p.pane === mate)).toBe(true);
    // Without -k a running pane is refused, as tmux does.
    const r = await tmux(["respawn-pane", "-t", `%${mate}`, "--", "true"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(`respawn pane failed: pane %${mate} still active\n`);
    await ok(["kill-pane", "-t", `%${mate}`]);
  }, 120_000);
});

describe("commands resolve and fail as in tmux", () => {
  test("an unknown command fails with tmux's text and status 1", async () => {
    const r = await tmux(["frobnicate", "-x"]);
    expect(r).toEqual({ code: 1, stdout: "", stderr: "unknown command: frobnicate\n" });
  });

  test("an ambiguous prefix names the candidates", async () => {
    const r = await tmux(["li"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toStartWith("ambiguous command: li, could be: link-window, list-buffers");
  });

  test("aliases and prefixes: display, capturep, splitw, send, list-p", async () => {
    expect(await ok(["display", "-p", "#{pane_id}"])).toBe(`%${lead}\n`);
    expect(await ok(["list-p", "-F", "#{pane_id}"])).toContain(`%${lead}`);
    const mate = Number((await ok(["splitw", "-d", "-P", "-F", "#{pane_id}", "--", "sh", "-c", "stty -echo; exec cat"])).trim().slice(1));
    await waitFor("cat to run", async () => (await info(mate)).foreground?.argv?.[0] === "cat");
    await ok(["send", "-t", `%${mate}`, "hello shim", "Enter"]);
    await s.waitScreen(mate, "hello shim");
    expect(await ok(["capturep", "-p", "-t", `%${mate}`, "-S", "0", "-E", "0"])).toBe("hello shim\n");
    const full = await ok(["capture-pane", "-p", "-t", `%${mate}`]);
    expect(full.split("\n").length - 1).toBe((await info(mate)).rows!);
    await ok(["kill-pane", "-t", `%${mate}`]);
  }, 120_000);

  test("a command the shim does not carry out fails, never a silent success", async () => {
    const r = await tmux(["choose-tree"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("choose-tree");
  });

  test("commands joined with ; run in order", async () => {
    expect(await ok(["display", "-p", "a", ";", "display", "-p", "b"])).toBe("a\nb\n");
  });
});

describe("vim-tmux-navigator and vim-slime", () => {
  test("navigator: -S $TMUX's socket, select-pane -t $TMUX_PANE -L/-R, the zoom flag and pane_at_*", async () => {
    const right = Number((await ok(["split-window", "-h", "-P", "-F", "#{pane_id}"])).trim().slice(1));
    const sockArg = shimEnv.TMUX.split(",")[0]!;
    expect(await ok(["-S", sockArg, "display-message", "-p", "#{window_zoomed_flag}"], { pane: right })).toBe("0\n");
    expect(await ok(["display-message", "-p", "#{pane_at_left} #{pane_at_right}"], { pane: right })).toBe("0 1\n");
    await ok(["-S", sockArg, "select-pane", "-t", `%${right}`, "-L"], { pane: right });
    await waitFor("the left pane focused", async () => (await paneList()).find((p) => p.pane === lead)!.focused);
    await ok(["-S", sockArg, "select-pane", "-t", `%${lead}`, "-R"]);
    await waitFor("the right pane focused", async () => (await paneList()).find((p) => p.pane === right)!.focused);
    await ok(["resize-pane", "-Z", "-t", `%${right}`]);
    expect(await ok(["display-message", "-p", "-t", `%${right}`, "#{window_zoomed_flag}"])).toBe("1\n");
    await ok(["resize-pane", "-Z", "-t", `%${right}`]);
    await ok(["kill-pane", "-t", `%${right}`]);
  }, 120_000);

  test("slime: -L default load-buffer from stdin, paste-buffer -d into the target, send-keys -X cancel", async () => {
    const target = Number((await ok(["split-window", "-d", "-P", "-F", "#{pane_id}", "--", "sh", "-c", "stty -echo; exec cat"])).trim().slice(1));
    await waitFor("cat to run", async () => (await info(target)).foreground?.argv?.[0] === "cat");
    await ok(["-L", "default", "send-keys", "-t", `%${target}`, "-X", "cancel"]);
    await ok(["-L", "default", "load-buffer", "-b", "slime", "-"], { stdin: "slimed text\n" });
    expect(await ok(["show-buffer", "-b", "slime"])).toBe("slimed text\n");
    await ok(["-L", "default", "paste-buffer", "-d", "-b", "slime", "-t", `%${target}`]);
    await s.waitScreen(target, "slimed text");
    const r = await tmux(["show-buffer", "-b", "slime"]);
    expect(r.code).toBe(1); // -d deleted it
    await ok(["kill-pane", "-t", `%${target}`]);
  }, 120_000);
});

describe("windows and layout", () => {
  test("new-window -P -F, resize-pane -x, swap-pane -D, select-layout, rename-window, kill-window", async () => {
    const ws = (await s.list())[0]!.name as string;
    const out = await ok(["new-window", "-d", "-n", "scratch", "-P", "-F", "#{window_index} #{window_name} #{pane_id}"]);
    const [index, name, paneRef] = out.trim().split(" ");
    expect([index, name]).toEqual(["1", "scratch"]);
    const first = Number(paneRef!.slice(1));
    const second = Number((await ok(["split-window", "-h", "-d", "-t", `${ws}:scratch`, "-P", "-F", "#{pane_id}"])).trim().slice(1));
    await ok(["resize-pane", "-t", `%${first}`, "-x", "30"]);
    expect((await info(first)).cols).toBe(30);
    await ok(["resize-pane", "-t", `%${second}`, "-x", "30"]);
    expect((await info(second)).cols).toBe(30);
    await ok(["swap-pane", "-D", "-t", `%${first}`]);
    expect(await ok(["list-panes", "-t", `${ws}:1`, "-F", "#{pane_id}"])).toBe(`%${second}\n%${first}\n`);
    await ok(["select-layout", "-t", `${ws}:1`, "even-horizontal"]);
    await ok(["rename-window", "-t", `${ws}:1`, "renamed"]);
    expect(await ok(["list-windows", "-F", "#{window_index}:#{window_name}:#{window_panes}"])).toContain("1:renamed:2\n");
    await ok(["kill-window", "-t", `${ws}:renamed`]);
    expect((await ok(["list-windows", "-F", "#{window_index}"])).trim()).toBe("0");
    expect((await paneList()).some((p) => p.pane === first || p.pane === second)).toBe(false);
  }, 120_000);
});

describe("moving panes", () => {
  test("break-pane puts a pane in a window of its own, join-pane brings it back; same id, same program", async () => {
    const ws = (await s.list())[0]!.name as string;
    const mover = Number((await ok(["split-window", "-d", "-P", "-F", "#{pane_id}", "--", "sh", "-c", "echo moved-intact; exec sleep 100"])).trim().slice(1));
    await s.waitScreen(mover, "moved-intact");
    expect(await ok(["break-pane", "-d", "-s", `%${mover}`, "-n", "solo", "-P", "-F", "#{window_name} #{pane_id}"])).toBe(`solo %${mover}\n`);
    expect(await ok(["list-panes", "-t", `${ws}:solo`, "-F", "#{pane_id}"])).toBe(`%${mover}\n`);
    await ok(["join-pane", "-h", "-d", "-s", `%${mover}`, "-t", `%${lead}`]);
    expect(await ok(["list-panes", "-F", "#{pane_id}"])).toBe(`%${lead}\n%${mover}\n`);
    expect(await ok(["list-windows", "-F", "#{window_name}"])).not.toContain("solo");
    expect(await s.screen(mover)).toContain("moved-intact");
    await ok(["kill-pane", "-t", `%${mover}`]);
  }, 120_000);
});

describe("wait-for", () => {
  test("a waiter blocks until wait-for -S; a signal with nobody waiting wakes the next waiter", async () => {
    const waitDir = join(s.sock.replace(/\.sock$/, ".tmux"), "wait", Buffer.from("done").toString("hex"));
    const waiter = Bun.spawn([Bun.which("tmux", { PATH: shimEnv.PATH })!, "wait-for", "done"], { env: shimEnv, stdout: "ignore", stderr: "pipe" });
    let exited = false;
    void waiter.exited.then(() => (exited = true));
    await waitFor("the waiter to register", () => existsSync(waitDir) && readdirSync(waitDir).some((n) => !n.startsWith(".")));
    expect(exited).toBe(false);
    await ok(["wait-for", "-S", "done"]);
    expect(await waiter.exited).toBe(0);
    await ok(["wait-for", "-S", "done"]);
    await ok(["wait-for", "done"]); // returns at once: the signal was kept
  });

  test("-L/-U locks: held across calls, queued lockers served in turn (one that died skipped), -U on a free channel fails as in tmux", async () => {
    const server = shimEnv.TMUX.split(",")[1]!;
    const queue = join(s.sock.replace(/\.sock$/, ".tmux"), "lock", server, Buffer.from("build").toString("hex"));
    const queued = () => (existsSync(queue) ? readdirSync(queue).filter((n) => !n.startsWith(".")).length : 0);
    const locker = () => {
      const p = Bun.spawn([Bun.which("tmux", { PATH: shimEnv.PATH })!, "wait-for", "-L", "build"], { env: shimEnv, stdout: "ignore", stderr: "pipe" });
      const state = { exited: false };
      void p.exited.then(() => (state.exited = true));
      return { p, state };
    };
    expect(await tmux(["wait-for", "-U", "build"])).toEqual({ code: 1, stdout: "", stderr: "channel build not locked\n" });
    await ok(["wait-for", "-L", "build"]); // taken; this call has exited and the lock is still held
    const dead = locker();
    await waitFor("the first locker to queue", () => queued() === 1);
    const second = locker();
    await waitFor("the second locker to queue", () => queued() === 2);
    dead.p.kill("SIGKILL");
    await dead.p.exited;
    expect(second.state.exited).toBe(false);
    await ok(["wait-for", "-U", "build"]); // handed over: to the live locker, past the dead one
    expect(await second.p.exited).toBe(0);
    expect(queued()).toBe(0);
    const third = locker();
    await waitFor("the third locker to queue", () => queued() === 1);
    expect(third.state.exited).toBe(false); // the second holds it
    await ok(["wait-for", "-U", "build"]);
    expect(await third.p.exited).toBe(0);
    await ok(["wait-for", "-U", "build"]); // the third's lock freed
    expect((await tmux(["wait", "-U", "build"])).stderr).toBe("channel build not locked\n");
  });
});

describe("select-layout", () => {
  test("even-horizontal, even-vertical, main-vertical, main-horizontal, tiled arrange the same panes, running on; other names fail as in tmux", async () => {
    const first = Number((await ok(["new-window", "-d", "-P", "-F", "#{pane_id}", "--", "sleep", "1000"])).trim().slice(1));
    const ids: number[] = [first];
    for (let i = 0; i < 3; i++) ids.push(Number((await ok(["split-window", "-d", "-t", `%${first}`, "-P", "-F", "#{pane_id}", "--", "sleep", "1000"])).trim().slice(1)));
    const pids = await Promise.all(ids.map(async (id) => (await info(id)).pid));
    type Geo = { id: number; left: number; top: number; width: number; height: number };
    const geometry = async (): Promise<Geo[]> =>
      (await ok(["list-panes", "-t", `%${first}`, "-F", "#{pane_id} #{pane_left} #{pane_top} #{pane_width} #{pane_height}"]))
        .trim()
        .split("\n")
        .map((l) => l.split(" "))
        .map(([id, left, top, width, height]) => ({ id: Number(id!.slice(1)), left: Number(left), top: Number(top), width: Number(width), height: Number(height) }));
    const spread = (ns: number[]) => Math.max(...ns) - Math.min(...ns);

    const order = (await geometry()).map((p) => p.id); // tmux's pane order: each split right after the first
    expect(order).toEqual([ids[0]!, ids[3]!, ids[2]!, ids[1]!]);
    await ok(["select-layout", "-t", `%${first}`, "even-horizontal"]);
    let g = await geometry();
    expect(g.map((p) => p.id)).toEqual(order);
    expect(new Set(g.map((p) => p.top)).size).toBe(1);
    expect(spread(g.map((p) => p.width))).toBeLessThanOrEqual(1);

    await ok(["selectl", "-t", `%${first}`, "even-v"]); // a unique prefix, as tmux takes it
    g = await geometry();
    expect(new Set(g.map((p) => p.left)).size).toBe(1);
    expect(spread(g.map((p) => p.height))).toBeLessThanOrEqual(1);

    await ok(["set-option", "-g", "main-pane-width", "30"]);
    await ok(["select-layout", "-t", `%${first}`, "main-vertical"]);
    g = await geometry();
    expect(g[0]).toMatchObject({ left: 0, top: 0, width: 30 });
    expect(g.slice(1).every((p) => p.left === 31)).toBe(true);
    expect(new Set(g.slice(1).map((p) => p.top)).size).toBe(3);

    await ok(["select-layout", "-t", `%${first}`, "main-horizontal"]);
    g = await geometry();
    expect(g[0]).toMatchObject({ left: 0, top: 0 });
    expect(g.slice(1).every((p) => p.top === g[0]!.height + 1)).toBe(true);
    expect(spread(g.slice(1).map((p) => p.width))).toBeLessThanOrEqual(1);

    await ok(["select-layout", "-t", `%${first}`, "tiled"]);
    g = await geometry();
    expect(new Set(g.map((p) => p.left)).size).toBe(2); // 4 panes: a 2x2 grid
    expect(new Set(g.map((p) => p.top)).size).toBe(2);

    // The same panes, their programs still running.
    expect(await Promise.all(ids.map(async (id) => (await info(id)).pid))).toEqual(pids);
    // A layout string (what #{window_layout} gives) is accepted; other names fail as tmux says.
    const layout = (await ok(["display", "-p", "-t", `%${first}`, "#{window_layout}"])).trim();
    await ok(["select-layout", "-t", `%${first}`, layout]);
    expect(await tmux(["select-layout", "even"])).toEqual({ code: 1, stdout: "", stderr: "invalid layout: even\n" });
    expect(await tmux(["select-layout", "foo"])).toEqual({ code: 1, stdout: "", stderr: "invalid layout: foo\n" });
    await ok(["set-option", "-gu", "main-pane-width"]);
    await ok(["kill-window", "-t", `%${first}`]);
  }, 120_000);
});

describe("targets", () => {
  test("%N, @N, $N, session:window.pane, indexes and names; missing ones fail as tmux says", async () => {
    const ws = (await s.list())[0]!.name as string;
    const mate = Number((await ok(["split-window", "-d", "-P", "-F", "#{pane_id}"])).trim().slice(1));
    const ids = (await ok(["display", "-p", "#{session_id} #{window_id}"])).trim().split(" ");
    const f = "#{pane_id}";
    expect(await ok(["display", "-p", "-t", `%${mate}`, f])).toBe(`%${mate}\n`);
    expect(await ok(["display", "-p", "-t", `${ws}:0.1`, f])).toBe(`%${mate}\n`);
    expect(await ok(["display", "-p", "-t", `${ws}:0.0`, f])).toBe(`%${lead}\n`);
    expect(await ok(["display", "-p", "-t", ":.1", f])).toBe(`%${mate}\n`);
    expect(await ok(["display", "-p", "-t", `${ids[0]}:${ids[1]}.1`, f])).toBe(`%${mate}\n`);
    expect(await ok(["display", "-p", "-t", ids[1]!, "#{window_id}"])).toBe(`${ids[1]}\n`);
    expect(await ok(["has-session", "-t", ws])).toBe("");
    expect(await tmux(["has-session", "-t", "no-such-session"])).toEqual({ code: 1, stdout: "", stderr: "can't find session: no-such-session\n" });
    expect((await tmux(["capture-pane", "-p", "-t", `${ws}:7`])).stderr).toBe("can't find window: 7\n");
    expect(await ok(["list-panes", "-s", "-t", ws, "-F", "#{window_index}.#{pane_index} #{pane_id}"])).toContain(`0.1 %${mate}\n`);
    expect(await ok(["list-sessions", "-F", "#{session_name}"])).toContain(`${ws}\n`);
    await ok(["kill-pane", "-t", `%${mate}`]);
  }, 120_000);
});

// Formats and targets against a real tmux 3.3 with the same shape: one session named as ws's
// workspace, one window split once left|right, started in the same directory.
describe.skipIf(!REAL_TMUX)("the same output as a real tmux", () => {
  let tmuxEnv: Record<string, string>;
  const real = async (args: string[]) => {
    const proc = Bun.spawn([REAL_TMUX!, "-L", "shimcmp", ...args], { env: tmuxEnv, cwd: dir, stdout: "pipe", stderr: "pipe" });
    const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
    return { code, stdout: out, stderr: err };
  };
  let mate: number;
  let wsName: string;

  beforeAll(async () => {
    tmuxEnv = { ...s.env, TMUX_TMPDIR: s.root, SHELL: "/bin/sh" };
    delete (tmuxEnv as Record<string, string | undefined>).TMUX;
    wsName = (await s.list())[0]!.name;
    expect((await real(["-f", "/dev/null", "new-session", "-d", "-s", wsName, "-c", s.root])).code).toBe(0);
    expect((await real(["split-window", "-h", "-d", "-t", `${wsName}:0.0`, "-c", dir])).code).toBe(0);
    mate = Number((await ok(["split-window", "-h", "-d", "-P", "-F", "#{pane_id}", "-c", dir, "-t", `%${lead}`])).trim().slice(1));
  });
  afterAll(async () => {
    await real(["kill-server"]);
    await ok(["kill-pane", "-t", `%${mate}`]);
  });

  const FORMATS = [
    "#{session_name}",
    "#{window_index}.#{pane_index}",
    "#{?pane_active,active,inactive}",
    "#{?#{==:#{pane_index},1},second,first}",
    "#{==:#{session_name},#{session_name}} #{!=:a,b} #{<:a,b} #{>=:a,b}",
    "#{||:0,1} #{&&:1,0} #{&&:1,1}",
    "#{m:*a*,banana} #{m:x*,banana}",
    "#{e|+|:6,7} #{e|*|:6,7} #{e|-|:1,9}",
    "#{=3:session_name} #{=-2:session_name} #{n:session_name}",
    "#{b:pane_current_path} #{d:pane_current_path}",
    "#{s/[aeiou]/_/:session_name}",
    "#{l:#{pane_index}} ## #,",
    "#{window_panes} #{session_windows} #{pane_dead} #{window_zoomed_flag}",
    "#{?pane_at_left,L,-}#{?pane_at_right,R,-}",
    "#{no_such_variable}|#{?no_such_variable,yes,no}",
    "#S:#I.#P",
  ];
  const TARGETS = (name: string) => ["", ":0.0", ":0.1", ":.1", `${name}:0.1`, `=${name}:0`, "0.1"];

  test("formats, through display-message -p -t TARGET", async () => {
    // One call per target, the formats one a line (a process each would be slow).
    const f = FORMATS.join("\n");
    for (const t of TARGETS(wsName)) {
      const args = ["display-message", "-p", ...(t ? ["-t", t] : []), f];
      // A real tmux command client outside tmux has no current pane: "" targets the session's.
      const want = await real(t ? args : ["display-message", "-p", "-t", `${wsName}:0.0`, f]);
      const got = await tmux(args);
      expect(got.code).toBe(0);
      const wanted = want.stdout.split("\n");
      for (const [i, line] of got.stdout.split("\n").entries()) expect({ target: t, format: FORMATS[i], line }).toEqual({ target: t, format: FORMATS[i], line: wanted[i]! });
      expect(got).toEqual(want);
    }
  });

  test("list-panes -F, list-windows -F, errors for missing targets", async () => {
    const fmt = "#{window_index}.#{pane_index} #{pane_active} #{?pane_dead,dead,live}";
    expect(await tmux(["list-panes", "-F", fmt])).toEqual(await real(["list-panes", "-t", `${wsName}:0`, "-F", fmt]));
    expect(await tmux(["list-windows", "-F", "#{window_index} #{window_panes}"])).toEqual(await real(["list-windows", "-t", wsName, "-F", "#{window_index} #{window_panes}"]));
    for (const t of [`${wsName}:5`, "nosuch:0", `${wsName}:0.9`, "%999", "nosuch"]) {
      const args = ["capture-pane", "-p", "-S", "0", "-E", "0", "-t", t];
      expect({ t, ...(await tmux(args)) }).toEqual({ t, ...(await real(args)) });
    }
    for (const t of ["%999", "nosuch"]) expect(await tmux(["display", "-p", "-t", t, "x#{pane_id}"])).toEqual(await real(["display", "-p", "-t", t, "x#{pane_id}"]));
    expect(await tmux(["frob"])).toEqual(await real(["frob"]));
  });

  test("run-shell and if-shell: exit statuses, chosen commands, tmux's command parser, errors", async () => {
    const CASES = [
      ["run-shell", "exit 3"],
      ["run", "kill -9 $$"],
      ["run", "true"],
      ["run", "-d", "x", "true"],
      ["run", "-d", "0.05"],
      ["run", "-C", 'display -p "x y"; display -p z'],
      ["run", "-C", 'display -p "$HOME|${HOME}x|\\$y|~"'],
      ["run", "-C", "display -p ~"],
      ["run", "-C", "{ display -p x }"],
      ["run", "-C", "display -p 'unterminated"],
      ["run", "-C", 'display -p "unterminated'],
      ["run", "-C", "display -p ${HOME"],
      ["run", "-C", "display -p a\\"],
      ["if-shell", "true", "display -p yes", "display -p no"],
      ["if", "false", "display -p yes", "display -p no"],
      ["if", "exit 1", "display -p yes"],
      ["if", "kill $$", "display -p yes", "display -p killed"],
      ["if", "true", "display -p 'it''s' ; display -p \"a\\tb\" # a comment"],
      ["if", "-F", "#{==:#{pane_index},0}", "display -p first", "display -p other"],
      ["if", "-F", "0", "display -p yes"],
      ["if", "-F", "", "display -p yes", "display -p empty"],
      ["if", "true", "nosuch"],
      ["if", "true"],
      ["if", "a", "b", "c", "d"],
    ];
    // Each case is two process starts (the shim, the real tmux): 48 one after another took 41 s
    // on a loaded machine. The cases change nothing, so they run 6 at a time, each compared alone.
    const results: { args: string[]; got: RunResult; want: RunResult }[] = [];
    const queue = [...CASES];
    await Promise.all(
      Array.from({ length: 6 }, async () => {
        for (let args = queue.shift(); args; args = queue.shift()) {
          const [got, want] = await Promise.all([tmux(args), real(args)]);
          results.push({ args, got, want });
        }
      }),
    );
    for (const { args, got, want } of results) expect({ args, ...got }).toEqual({ args, ...want });
    expect(results).toHaveLength(CASES.length);
  }, 120_000);

  test("run-shell expands formats in its command; -b returns at once and the command runs on", async () => {
    const file = join(dir, "ran");
    await ok(["run", `echo '#{pane_id}' > ${file}`]);
    expect(readFileSync(file, "utf8")).toBe(`%${lead}\n`);
    // The background commands wait for a gate the test opens after the call returned: a call that
    // waited for them would never return.
    const bg = join(dir, "ran-in-background");
    const gate = join(dir, "run-gate");
    const waitGate = `while [ ! -e ${gate} ]; do sleep 0.05; done`;
    await ok(["run-shell", "-b", `${waitGate}; echo done > ${bg}`]);
    expect(existsSync(bg)).toBe(false);
    const marker = join(dir, "if-in-background");
    await ok(["if-shell", "-b", waitGate, `run 'echo yes > ${marker}'`]);
    expect(existsSync(marker)).toBe(false);
    writeFileSync(gate, "");
    expect(await waitFor("the background command to finish", () => existsSync(bg) && readFileSync(bg, "utf8"))).toBe("done\n");
    expect(await waitFor("if-shell -b to run its command", () => existsSync(marker) && readFileSync(marker, "utf8"))).toBe("yes\n");
  });

  test("calls for a real tmux server go to it: -L another name, and outside ws", async () => {
    // Through the shim's tmux, -L shimcmp names the real server above, not ws.
    const viaShim = await tmux(["-L", "shimcmp", "list-sessions", "-F", "#{session_name}:#{session_windows}"], { env: { TMUX_TMPDIR: s.root } });
    expect(viaShim).toEqual(await real(["list-sessions", "-F", "#{session_name}:#{session_windows}"]));
    expect(viaShim.stdout).toBe(`${wsName}:1\n`);
    // No ws socket in TMUX: everything is real tmux's.
    const outside = await tmux(["-L", "shimcmp", "display", "-p", "-t", `${wsName}:0.1`, "#{pane_index}"], { env: { TMUX: "", TMUX_TMPDIR: s.root } });
    expect(outside).toEqual({ code: 0, stdout: "1\n", stderr: "" });
    const version = Bun.spawnSync([REAL_TMUX!, "-V"]).stdout.toString();
    expect((await tmux(["-V"], { env: { TMUX: "" } })).stdout).toBe(version);
  });
});

describe("keys.toml tmux_shim = true", () => {
  test("every pane starts with TMUX, its own TMUX_PANE and the shim's tmux first on PATH", async () => {
    const t = new TestServer();
    mkdirSync(join(t.root, "config", "ws"), { recursive: true });
    writeFileSync(join(t.root, "config", "ws", "keys.toml"), "tmux_shim = true\n");
    await t.start();
    try {
      const script = 'echo "pane=$TMUX_PANE sock=${TMUX%%,*}"; tmux display -p -t "$TMUX_PANE" "shim=#{pane_id}"; exec sleep 100';
      const pane = Number((await t.ok(["tab", "new", "--", "sh", "-c", script])).trim());
      await t.waitScreen(pane, `shim=%${pane}`);
      expect(await t.screen(pane)).toContain(`pane=%${pane} sock=${t.sock}`);
    } finally {
      await t.stop();
    }
  });

  test("off by default: a pane has nothing of tmux", async () => {
    const pane = Number((await s.ok(["tab", "new", "--", "sh", "-c", 'echo "[${TMUX-unset}][${TMUX_PANE-unset}]"; exec sleep 100'])).trim());
    await s.waitScreen(pane, "[unset][unset]");
    await s.ok(["pane", "close", String(pane)]);
  });
});
