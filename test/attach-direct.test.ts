// The server driving the attached client's own terminal (attach's v6 `tty`): the screen written
// to the terminal and keys read from it by the daemon, no OUTPUT frames on the socket; a path it
// may not drive refused quietly (frames as before); a terminal that hangs up drops that client
// and nothing else; `ws attach` in a real terminal (tmux) uses it unless WS_ATTACH_DIRECT=0.
import { describe, expect, test } from "bun:test";
import { readdirSync, readlinkSync, statSync } from "node:fs";
import { waitFor, wsArgv } from "./harness";
import { RawAttach } from "./raw-attach";
import { serverWithTmux } from "./tmux-driver";
import { ttyId } from "../src/protocol/tty-id";
import { libc, openPtyPair } from "../src/platform/pty-libc";

/** The drop's deadline here (5 s by default): every client of this server is dropped after it. */
const SLOW_MS = 2000;
const { s, tmux } = serverWithTmux({ env: { WS_SLOW_CLIENT_MS: String(SLOW_MS) } });

/** Whether the daemon has `path` open. */
function daemonHolds(path: string): boolean {
  const dir = `/proc/${s.daemonPid()}/fd`;
  return readdirSync(dir).some((fd) => {
    try {
      return readlinkSync(`${dir}/${fd}`) === path;
    } catch {
      return false; // closed meanwhile
    }
  });
}

/** A real PTY whose terminal a stand-in client has put in raw mode, as `ws attach` does before it
 * names its terminal. `screen` is what the terminal was sent. */
async function terminal() {
  let screen = "";
  const dec = new TextDecoder();
  const proc = Bun.spawn(["sh", "-c", "stty raw -echo; echo raw-ready; exec sleep 600"], {
    terminal: { cols: 100, rows: 30, data: (_t, d) => void (screen += dec.decode(d, { stream: true })) },
  });
  await waitFor("the terminal in raw mode", () => screen.includes("raw-ready"));
  const path = readlinkSync(`/proc/${proc.pid}/fd/0`);
  return {
    path,
    proc,
    screen: () => screen,
    type: (text: string) => proc.terminal!.write(text),
  };
}

const attachLine = (tty: string, tty_id?: string) => ({ v: 6, type: "attach", cols: 100, rows: 30, tty, ...(tty_id ? { tty_id } : {}) });

describe("the server drives the client's terminal", () => {
  test("the screen goes to the terminal, keys come from it, the socket carries no OUTPUT; detach lets go of it", async () => {
    const t = await terminal();
    const c = await RawAttach.open(s.sock, attachLine(t.path, ttyId(statSync(t.path))));
    await waitFor("the DIRECT frame", () => c.direct || c.closed || c.refusal);
    expect(c.direct).toBe(true);
    await waitFor("the status line on the terminal", () => t.screen().includes("[main]"));
    expect(daemonHolds(t.path)).toBe(true);

    t.type("echo direct-$((6*7))\r");
    await waitFor("the command's output on the terminal", () => t.screen().includes("direct-42"));
    expect(c.outputBytes).toBe(0);

    t.type("\x00d"); // C-Space d: detach
    await waitFor("EXIT", () => c.exit);
    expect(c.exit?.reason).toBe("detached");
    await waitFor("the daemon to close the terminal", () => !daemonHolds(t.path));
    expect(c.outputBytes).toBe(0);
    t.proc.kill();
  });

  test("a path it may not drive is refused quietly: the stream is as without `tty`", async () => {
    for (const tty of ["/dev/null", "/etc/passwd", "/dev/pts/../../etc/passwd", "pts/0", "/dev/pts/9999999", ""]) {
      const c = await RawAttach.open(s.sock, attachLine(tty));
      await c.firstFrame();
      expect({ tty, direct: c.direct, refusal: c.refusal }).toEqual({ tty, direct: false, refusal: "" });
      expect(c.outputBytes).toBeGreaterThan(0);
      c.close();
    }
    expect(daemonHolds("/etc/passwd")).toBe(false);
    // The right terminal with another identity: as a server in another mount namespace would see a
    // different terminal of the same name.
    const t = await terminal();
    const c = await RawAttach.open(s.sock, attachLine(t.path, "1:2"));
    await c.firstFrame();
    expect(c.direct).toBe(false);
    expect(c.outputBytes).toBeGreaterThan(0);
    expect(daemonHolds(t.path)).toBe(false);
    c.close();
    t.proc.kill();
  });

  test("a terminal that hangs up drops its client; the server and its panes go on", async () => {
    const before = await s.v6({ type: "pane_list" });
    const t = await terminal();
    const c = await RawAttach.open(s.sock, attachLine(t.path));
    await waitFor("the status line on the terminal", () => t.screen().includes("[main]"));
    t.proc.kill("SIGKILL");
    t.proc.terminal!.close(); // the last open master: the terminal hangs up
    await waitFor("the client to be dropped", () => c.closed);
    await waitFor("the daemon to close the terminal", () => !daemonHolds(t.path));
    expect(await s.v6({ type: "pane_list" })).toEqual(before);
  });
});

test("a terminal that takes no output is dropped after SLOW_CLIENT_MS; the server answers meanwhile and lets go of it", async () => {
  // A PTY whose master nobody reads: the server's writes fill it, then wait in its queue.
  const c = libc()!;
  const { master, slave } = openPtyPair(c, 100, 30);
  const path = readlinkSync(`/proc/self/fd/${slave}`);
  try {
    // Random text: every frame redraws the whole pane, so the terminal's buffer fills at once.
    const flood = (await s.request({ v: 2, type: "split", pane: 1, right: true, focus: false, cwd: "/tmp", command: ["base64", "/dev/urandom"] })).pane;
    const client = await RawAttach.open(s.sock, attachLine(path, ttyId(statSync(path))));
    await waitFor("the DIRECT frame", () => client.direct || client.closed);
    expect(client.direct).toBe(true);
    const t0 = Date.now();
    const q0 = performance.now();
    await s.v6({ type: "pane_list" });
    expect(performance.now() - q0).toBeLessThan(1000);
    await waitFor("the client to be dropped", () => client.closed, 20_000);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(SLOW_MS - 100);
    await waitFor("the daemon to close the terminal", () => !daemonHolds(path));
    await s.request({ v: 2, type: "pane_close", pane: flood });
  } finally {
    c.close(master);
    c.close(slave);
  }
}, 40_000);

describe("ws attach in a real terminal", () => {
  const WS = wsArgv().join(" ");
  const ttyOf = async (name: string) => (await tmux.tmux("display-message", "-p", "-t", `=${name}:`, "#{pane_tty}")).trim();

  /** `ws attach` in tmux window `name` (run with `env`): whether the daemon holds its terminal,
   * then a typed command's output on screen, then detach. */
  async function attachAndType(name: string, env: string, daemonDrives: boolean, word: string) {
    await tmux.open(name, `${env}${WS} attach; echo "[ws exited $?]"; sleep 3600`);
    await tmux.waitFor(name, /\[main\] tab \d+\/\d+/);
    expect(daemonHolds(await ttyOf(name))).toBe(daemonDrives);
    await tmux.text(name, `echo ${word}-$((40+2))`);
    await tmux.keys(name, "Enter");
    await tmux.waitFor(name, `${word}-42`);
    await tmux.keys(name, "C-Space", "d");
    await tmux.waitFor(name, "[ws exited 0]");
  }

  test("names its terminal and the server drives it", async () => {
    await attachAndType("d", "", true, "typed");
    expect(daemonHolds(await ttyOf("d"))).toBe(false);
  });

  test("WS_ATTACH_DIRECT=0: the client pumps its terminal itself", async () => {
    await attachAndType("r", "WS_ATTACH_DIRECT=0 ", false, "relayed");
  });
});
