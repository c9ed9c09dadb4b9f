// What a client does before it trusts a socket, what the CLI prints to a terminal, and what it says
// at the connection limit (docs/security.md). Real binary or sources
// (WS_BIN), real sockets; another user is played by uid 65534, which root can give files to.
import { afterAll, describe, expect, test } from "bun:test";
import { chmodSync, chownSync, lchownSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Conn, TestServer, waitFor, wsArgv } from "./harness";
import type { AnyReply } from "./replies";
import { Tmux } from "./tmux-driver";
import { RESERVED_SLOTS } from "../src/server/listener";
import { safeJson, safeText } from "../src/safe-text";

const OTHER_UID = 65534;
const isRoot = process.getuid!() === 0;
/** What must never reach a terminal raw: C0 but tab/newline, DEL, C1, bidi controls. */
const UNSAFE = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;
const NASTY = "x\x1b]52;c;cHduZWQ=\x07\x1bP+q544e\x1b\\\u202eevil\u009b31m\r";

const cleanups: (() => unknown)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

/** A stand-in server that records every connection and byte; `answer` replies to each line. */
function fakeServer(path: string, answer?: (msg: AnyReply) => string) {
  const rec = { connections: 0, bytes: "" };
  const srv = Bun.listen({
    unix: path,
    socket: {
      open() {
        rec.connections++;
      },
      data(s, b) {
        rec.bytes += b.toString();
        if (!answer) return;
        for (const line of rec.bytes.split("\n").slice(0, -1)) {
          s.write(answer(JSON.parse(line)));
          s.end();
        }
        rec.bytes = "";
      },
    },
  });
  cleanups.push(() => srv.stop(true));
  return {
    rec,
    /** Connect once ourselves and wait until it is accepted: any client's earlier connect was accepted first. */
    async settle(): Promise<void> {
      const before = rec.connections;
      const c = await Conn.open(path);
      await waitFor("the marker connection to be accepted", () => rec.connections > before);
      c.close();
    },
  };
}

function scratch(): TestServer {
  const s = new TestServer();
  cleanups.push(() => rmSync(s.root, { recursive: true, force: true }));
  return s;
}

/** Every client path, pointed at an unsafe socket: each must refuse with a clear error and send nothing. */
async function expectEveryClientRefuses(s: TestServer, sock: string, fake: ReturnType<typeof fakeServer>, env: Record<string, string> = {}) {
  const list = await s.run(["workspace", "list"], { env });
  expect(list.code).toBe(1);
  expect(list.stderr).toContain("refusing to use it");
  expect(list.stderr).toContain("nothing was sent");
  expect(list.stderr).not.toContain("no ws server");

  for (const args of [["pane", "info", "1"], ["events"], ["call", "hello"], ["session", "save"], ["kill-server"]]) {
    const r = await s.run(args, { env });
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain("refusing to use it");
  }

  // A hook: still silent and exit 0 (a hook must never break the agent), says why under WS_DEBUG.
  const hook = { WS_SOCKET: sock, WS_PANE_ID: "1", ...env };
  expect(await s.run(["report", "Stop", "--agent", "claude"], { env: hook, stdin: "{}" })).toEqual({ code: 0, stdout: "", stderr: "" });
  const debug = await s.run(["report", "Stop"], { env: { ...hook, WS_DEBUG: "1" }, stdin: "{}" });
  expect(debug.code).toBe(0);
  expect(debug.stderr).toContain("refusing to use it");

  await fake.settle();
  expect(fake.rec.connections).toBe(1); // the marker only
  expect(fake.rec.bytes).toBe("");
}

describe.if(isRoot)("another user posing as the server", () => {
  test("control: the same stand-in in a private directory of ours does get the request", async () => {
    const s = scratch();
    mkdirSync(s.socketDir, { mode: 0o700 });
    const fake = fakeServer(s.sock, () => '{"v":5,"type":"workspaces","workspaces":[]}\n');
    const r = await s.run(["workspace", "list"]);
    expect(r).toMatchObject({ code: 0, stderr: "" });
    expect(fake.rec.connections).toBe(1);
  });

  test("a socket directory owned by another user", async () => {
    const s = scratch();
    mkdirSync(s.socketDir, { mode: 0o700 });
    const fake = fakeServer(s.sock);
    chownSync(s.sock, OTHER_UID, OTHER_UID);
    chownSync(s.socketDir, OTHER_UID, OTHER_UID);
    await expectEveryClientRefuses(s, s.sock, fake);
    const list = await s.run(["workspace", "list"]);
    expect(list.stderr).toContain(`is owned by uid ${OTHER_UID}, not you`);
    const doctor = await s.run(["doctor"]);
    expect(doctor.code).toBe(1);
    expect(doctor.stdout).toContain(`error socket directory ${s.socketDir} is owned by uid ${OTHER_UID}`);
  });

  test("a socket directory of ours that others can write to (mode 0777)", async () => {
    const s = scratch();
    mkdirSync(s.socketDir);
    chmodSync(s.socketDir, 0o777);
    const fake = fakeServer(s.sock);
    await expectEveryClientRefuses(s, s.sock, fake);
    expect((await s.run(["workspace", "list"])).stderr).toContain("has mode 777, expected 700");
    expect((await s.run(["doctor"])).stdout).toContain("has mode 777, expected 700");
  });

  test("a symlinked socket directory", async () => {
    const s = scratch();
    const real = realpathSync(mkdtempSync(join(tmpdir(), "ws-elsewhere-")));
    cleanups.push(() => rmSync(real, { recursive: true, force: true }));
    const fake = fakeServer(join(real, "default.sock"));
    symlinkSync(real, s.socketDir);
    await expectEveryClientRefuses(s, s.sock, fake);
    expect((await s.run(["workspace", "list"])).stderr).toContain("is a symlink");
  });

  test("a socket owned by another user in our own directory, and a symlinked socket", async () => {
    const s = scratch();
    mkdirSync(s.socketDir, { mode: 0o700 });
    const fake = fakeServer(s.sock);
    lchownSync(s.sock, OTHER_UID, OTHER_UID);
    await expectEveryClientRefuses(s, s.sock, fake);
    expect((await s.run(["workspace", "list"])).stderr).toContain(`socket ${s.sock} is owned by uid ${OTHER_UID}`);

    const t = scratch();
    mkdirSync(t.socketDir, { mode: 0o700 });
    const other = realpathSync(mkdtempSync(join(tmpdir(), "ws-elsewhere-")));
    cleanups.push(() => rmSync(other, { recursive: true, force: true }));
    const fake2 = fakeServer(join(other, "x.sock"));
    symlinkSync(join(other, "x.sock"), t.sock);
    await expectEveryClientRefuses(t, t.sock, fake2);
    expect((await t.run(["workspace", "list"])).stderr).toContain(`socket ${t.sock} is a symlink`);
  });

  test("the /tmp/ws-<uid> fallback (XDG_RUNTIME_DIR unset) taken by another user", async () => {
    const s = scratch();
    const tmp = join(s.root, "tmp");
    mkdirSync(tmp, { mode: 0o1777 });
    chmodSync(tmp, 0o1777);
    delete s.env.XDG_RUNTIME_DIR;
    s.env.TMPDIR = tmp;
    const dir = join(tmp, `ws-${process.getuid!()}`);
    mkdirSync(dir, { mode: 0o700 });
    const fake = fakeServer(join(dir, "default.sock"));
    chownSync(join(dir, "default.sock"), OTHER_UID, OTHER_UID);
    chownSync(dir, OTHER_UID, OTHER_UID);
    await expectEveryClientRefuses(s, join(dir, "default.sock"), fake);
    // Bare `ws` would start a server there: it refuses before that, too.
    const start = await s.run(["start"]);
    expect(start.code).toBe(1);
    expect(start.stderr).toContain(`${dir} is owned by uid ${OTHER_UID}`);
    await fake.settle();
    expect(fake.rec).toEqual({ connections: 2, bytes: "" }); // the two markers
  });

  test("WS_SOCKET inside a pane pointing at another user's socket", async () => {
    const s = scratch();
    const dir = join(s.root, "theirs");
    mkdirSync(dir, { mode: 0o700 });
    const path = join(dir, "default.sock");
    const fake = fakeServer(path);
    chownSync(path, OTHER_UID, OTHER_UID);
    chownSync(dir, OTHER_UID, OTHER_UID);
    await expectEveryClientRefuses(s, path, fake, { WS_SOCKET: path, WS_PANE_ID: "1" });
  });

  test("ws attach and bare ws refuse in a terminal, and no keystroke reaches the stand-in", async () => {
    const s = scratch();
    mkdirSync(s.socketDir, { mode: 0o700 });
    const fake = fakeServer(s.sock);
    chownSync(s.sock, OTHER_UID, OTHER_UID);
    chownSync(s.socketDir, OTHER_UID, OTHER_UID);
    const tmux = new Tmux(s.env);
    cleanups.push(() => tmux.kill());
    const ws = wsArgv().map((a) => `'${a}'`).join(" ");
    for (const [name, args] of [["attach", "attach"], ["bare", ""]] as const) {
      await tmux.open(name, `${ws} ${args}; echo "exit=$?"; read line; echo "typed=$line"; sleep 30`);
      const screen = await tmux.waitFor(name, "exit=");
      expect(screen).toContain("refusing to use it");
      expect(screen).toContain("exit=1");
      // What the person types next goes to their shell, not to anyone's socket.
      await tmux.text(name, "hunter2");
      await tmux.keys(name, "Enter");
      await tmux.waitFor(name, "typed=hunter2");
    }
    await fake.settle();
    expect(fake.rec).toEqual({ connections: 1, bytes: "" });
  });
});

describe("names and titles reach the terminal safe", () => {
  /** Human output must carry none of the unsafe characters, but show them. */
  const expectSafe = (out: string) => expect(out).not.toMatch(UNSAFE);

  test("the printer: visible forms, tab and newline kept, SGR only when asked, JSON exact", () => {
    expect(safeText("a\tb\nc\x1b[31md\x7f\u0085\u2066")).toBe("a\tb\nc^[[31md^?<U+0085><U+2066>");
    expect(safeText("\x1b[1;31mred\x1b[0m\x1b]0;t\x07", { keepSgr: true })).toBe("\x1b[1;31mred\x1b[0m^[]0;t^G");
    for (const c of ["\x00", "\x1b", "\x7f", "\u009b", "\u200e", "\u2028", "\u202e", "\u2069"]) expect(safeText(c)).not.toMatch(UNSAFE);
    const json = safeJson(JSON.stringify({ name: NASTY }));
    expect(json).not.toMatch(UNSAFE);
    expect(JSON.parse(json).name).toBe(NASTY);
  });

  test("a stand-in server's nasty names, titles, messages and errors are printed visibly, --json exactly", async () => {
    const s = scratch();
    mkdirSync(s.socketDir, { mode: 0o700 });
    const tab = { name: `t${NASTY}`, project: `p${NASTY}`, panes: [1], active: true };
    const replies: Record<string, unknown> = {
      workspace_list: { v: 5, type: "workspaces", workspaces: [{ name: NASTY, current: true, tabs: [tab] }] },
      dashboard: {
        v: 5,
        type: "dashboard",
        agents: [{ pane: 1, workspace: NASTY, label: `l${NASTY}`, status: "blocked", detail: `d${NASTY}`, secs: 3 }],
        workstreams: [],
        ports: [{ port: 3000, pane: 1, workspace: NASTY, tab: tab.name, command: `c${NASTY}` }],
      },
      pane_info: { v: 6, type: "pane_info", pane: 1, workspace: NASTY, tab: 1, cols: 80, rows: 24, cursor: { x: 0, y: 0 }, title: `T${NASTY}`, label: `L${NASTY}`, cwd: `/w${NASTY}`, pid: 9, argv: ["sh", NASTY], foreground: { pid: 9, argv: [NASTY] } },
      hello: { v: 6, type: "hello", server: NASTY },
    };
    fakeServer(s.sock, (m) => (m.type === "workspace_close" ? `error: no workspace ${NASTY}\n` : JSON.stringify(replies[m.type] ?? { v: 6, type: "error", code: "x", message: `m${NASTY}` }) + "\n"));

    for (const args of [["workspace", "list"], ["tab", "list"], ["dashboard"], ["pane", "info", "1"], ["workspace", "close", "x"], ["pane", "read", "1"]]) {
      const r = await s.run(args);
      expectSafe(r.stdout + r.stderr);
      expect(r.stdout + r.stderr).toContain("^[]52;c;cHduZWQ=^G^[P+q544e^[\\<U+202E>evil<U+009B>31m^M");
    }
    const list = await s.run(["--json", "workspace", "list"]);
    expectSafe(list.stdout);
    expect(JSON.parse(list.stdout).workspaces[0].name).toBe(NASTY);
    const info = await s.run(["--json", "pane", "info", "1"]);
    expectSafe(info.stdout);
    expect(JSON.parse(info.stdout)).toEqual(replies.pane_info as object);
    // `ws call` prints the server's line: escaped, and still the same JSON.
    const call = await s.run(["call", "hello"]);
    expectSafe(call.stdout);
    expect(JSON.parse(call.stdout)).toEqual(replies.hello as object);
  });

  test("a title a pane's program sets and an agent hook's message, from a real server", async () => {
    const s = await new TestServer().start();
    cleanups.push(() => s.stop());
    // A title can carry a bidi override (the emulator ends a title at ESC or a C1 control).
    await s.ok(["pane", "send", "1", "printf '\\033]2;ab\\342\\200\\256cd\\007'", "--enter"]);
    const title = await waitFor("the title", async () => {
      const t = (await s.v6({ type: "pane_info", pane: 1 })).title as string;
      return t.includes("\u202e") ? t : undefined;
    });
    // A hook's payload is JSON: any character at all can arrive in an agent's detail.
    const hook = await s.run(["report", "PreToolUse", "--agent", "claude"], { env: { WS_SOCKET: s.sock, WS_PANE_ID: "1" }, stdin: JSON.stringify({ tool_name: NASTY }) });
    expect(hook.code).toBe(0);
    await waitFor("the agent on the dashboard", async () => (await s.request<{ agents: { secs: number }[] }>({ v: 2, type: "dashboard" })).agents.length === 1);

    for (const args of [["workspace", "list"], ["tab", "list"], ["pane", "info", "1"], ["dashboard"]]) {
      const r = await s.run(args);
      expect(r.code).toBe(0);
      expectSafe(r.stdout + r.stderr);
      expect(r.stdout).toContain("<U+202E>");
    }
    // --json is exactly what the server holds.
    expect(JSON.parse(await s.ok(["--json", "pane", "info", "1"])).title).toBe(title);
    const dash = JSON.parse(await s.ok(["--json", "dashboard"]));
    // (Without `secs`: the two calls may fall on either side of a second.)
    const bare = (agents: { secs: number }[]) => agents.map(({ secs: _secs, ...rest }) => rest);
    expect(bare(dash.agents)).toEqual(bare((await s.request<{ agents: { secs: number }[] }>({ v: 2, type: "dashboard" })).agents));
  });
});

describe("the connection limit", () => {
  test("with every ordinary slot held, the CLI and hooks still get through; when every slot is taken the CLI says so", async () => {
    const s = await new TestServer().start();
    cleanups.push(() => s.stop());
    const held: Conn[] = [];
    const tricklers: ReturnType<typeof setInterval>[] = [];
    cleanups.push(() => {
      for (const t of tricklers) clearInterval(t);
      for (const c of held) c.close();
    });
    // Streams take the ordinary slots (one program can take them all, as a runaway pane might).
    for (let i = 0; i < 1024 - RESERVED_SLOTS; i++) {
      const c = await Conn.open(s.sock);
      c.send({ v: 6, type: "subscribe", types: ["workspace_created"] });
      held.push(c);
      expect((await c.nextJson()).type).toBe("subscribed");
    }
    // The reserved slots take no stream, but short requests: the CLI and an agent hook get through.
    const more = await Conn.open(s.sock);
    held.push(more);
    more.send({ v: 6, type: "subscribe", types: ["workspace_created"] });
    expect(await more.next()).toMatchObject({ type: "error", code: "too_many_connections" });
    const events = await s.run(["events"]);
    expect(events.code).toBe(1);
    expect(events.stderr).toContain("too many connections");
    expect(JSON.parse(await s.ok(["--json", "workspace", "list"])).workspaces[0].name).toBe("main");
    expect((await s.run(["report", "Stop", "--agent", "claude"], { env: { WS_SOCKET: s.sock, WS_PANE_ID: "1" }, stdin: "{}" })).code).toBe(0);
    expect(JSON.parse(await s.ok(["--json", "dashboard"])).agents[0]).toMatchObject({ pane: 1, status: "done" });

    // A reserved slot is closed after 1 s idle: the refused subscriber has gone, by the server's hand.
    await waitFor("the server to close the idle reserved connection", () => more.closed);
    // Now every slot: the reserve held by connections that keep sending part of a line.
    for (let i = 0; i < RESERVED_SLOTS; i++) {
      const c = await Conn.open(s.sock);
      held.push(c);
      c.write("{");
      tricklers.push(setInterval(() => c.write(" "), 100));
    }
    expect(await s.rawAll('{"v":6,"type":"hello"}\n')).toStartWith("error: too many connections");
    const over = await s.run(["workspace", "list"]);
    expect(over.code).toBe(1);
    expect(over.stderr).toContain("too many connections (this ws serves at most 1024 at once)");
    expect(over.stderr).not.toContain("no ws server");
    // Once they stop, the CLI is served again.
    for (const t of tricklers.splice(0)) clearInterval(t);
    await waitFor("a slot to come free", async () => (await s.run(["workspace", "list"])).code === 0);
  }, 120_000);
});
