// The tmux keys people reach for, config reload, the status line, the
// dashboard's names and the habit traps, pressed as a person would: `ws attach` in a real tmux,
// attached to a real server, real shells.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { TestServer, waitFor } from "./harness";
import { Tmux, attachCommand, statusLine } from "./tmux-driver";
import { socketPath } from "../src/paths";

const P = "C-Space";
const sgr = (b: number, col: number, row: number, up = false) => `\x1b[<${b};${col + 1};${row + 1}${up ? "m" : "M"}`;
const panesOf = async (s: TestServer) => (await s.list()).flatMap((w) => w.tabs.flatMap((t) => t.panes));
/** The focused pane of the tab on screen. */
const focusedPane = async (s: TestServer) => {
  const snap = (await s.v6({ type: "session_snapshot" })) as unknown as { workspaces: { current: boolean; tabs: { active: boolean; focused: number }[] }[] };
  return snap.workspaces.find((w) => w.current)!.tabs.find((t) => t.active)!.focused;
};

describe("default keys", () => {
  let server: TestServer;
  let tmux: Tmux;
  beforeAll(async () => {
    server = await new TestServer().start();
    tmux = new Tmux(server.env);
    await tmux.open("a", attachCommand(), 120, 40);
    await tmux.waitFor("a", "[main] tab 1/1");
  });
  afterAll(async () => {
    await tmux.kill();
    await server.stop();
  });

  test("the status line's help hint names the prefix", async () => {
    expect(statusLine(await tmux.capture("a"))).toContain("C-Space ? help");
  });

  test("prefix ; goes back to the last pane, prefix l to the last tab", async () => {
    await tmux.keys("a", P, "%");
    await tmux.waitFor("a", "pane 2 ");
    await tmux.keys("a", P, "\\;");
    await tmux.waitFor("a", (s) => statusLine(s).includes("pane 1 "));
    await tmux.keys("a", P, "\\;");
    await tmux.waitFor("a", (s) => statusLine(s).includes("pane 2 "));
    await tmux.keys("a", P, "c");
    await tmux.waitFor("a", "new tab name");
    await tmux.keys("a", "Enter");
    await tmux.waitFor("a", "tab 2/2");
    await tmux.keys("a", P, "l");
    await tmux.waitFor("a", (s) => statusLine(s).includes("tab 1/2"));
    await tmux.keys("a", P, "l");
    await tmux.waitFor("a", (s) => statusLine(s).includes("tab 2/2"));
  });

  test("prefix & asks, then closes the tab and its panes", async () => {
    await tmux.keys("a", P, "&");
    await tmux.waitFor("a", /Close tab 2 \(.*\)\? \(y\/n\)/);
    await tmux.keys("a", "n");
    await tmux.waitFor("a", (s) => !s.includes("Close tab") && statusLine(s).includes("tab 2/2"));
    await tmux.keys("a", P, "&");
    await tmux.waitFor("a", "Close tab 2");
    await tmux.keys("a", "y");
    await tmux.waitFor("a", (s) => statusLine(s).includes("tab 1/1"));
    expect(await panesOf(server)).toEqual([1, 2]);
  });

  test("copy mode: V copies whole lines, Escape clears the selection before it leaves; prefix ] pastes", async () => {
    await tmux.keys("a", P, "o"); // pane 1
    await tmux.waitFor("a", (s) => statusLine(s).includes("pane 1 "));
    await tmux.text("a", "echo alpha-line-one");
    await tmux.keys("a", "Enter");
    await server.waitScreen(1, /^alpha-line-one/m);
    await tmux.keys("a", P, "[");
    await tmux.waitFor("a", "COPY");
    // Search puts the cursor on the output line.
    await tmux.text("a", "?");
    await tmux.waitFor("a", "search up:");
    await tmux.text("a", "alpha-line-one");
    await tmux.keys("a", "Enter");
    await tmux.waitFor("a", (s) => !statusLine(s).includes("search up:"));
    await tmux.text("a", "V");
    await tmux.keys("a", "Escape"); // clears the selection, stays in copy mode
    await tmux.waitFor("a", (s) => statusLine(s).includes("COPY"));
    await tmux.text("a", "Vy");
    await tmux.waitFor("a", /copied 14 characters/);
    // Paste it into the shell, as a command line: `echo ` + the copy.
    await tmux.text("a", "echo X");
    await tmux.keys("a", P, "]");
    await server.waitScreen(1, /echo Xalpha-line-one/);
    await tmux.keys("a", "C-u");
  });

  test("copy mode highlights what a search found", async () => {
    await tmux.keys("a", P, "[");
    await tmux.waitFor("a", "COPY");
    await tmux.text("a", "?");
    await tmux.waitFor("a", "search up:");
    await tmux.text("a", "alpha");
    await tmux.keys("a", "Enter");
    // tmux's capture with -e shows the inverse attribute where ws marked the match.
    const styled = await waitFor("the match drawn inverted", async () => {
      const s = await tmux.tmux("capture-pane", "-p", "-e", "-t", "=a:");
      return /\x1b\[[0-9;]*7m[^\x1b]*alpha/.test(s) ? s : undefined;
    });
    expect(styled).toContain("alpha");
    await tmux.text("a", "q");
    await tmux.waitFor("a", (s) => !statusLine(s).includes("COPY"));
  });

  test("dragging the mouse in a pane selects and copies; a double-click copies a word", async () => {
    await tmux.text("a", "clear; echo drag-me-word other");
    await tmux.keys("a", "Enter");
    const screen = await waitFor("the output line", async () => {
      const lines = await tmux.lines("a");
      const y = lines.findIndex((l) => l.startsWith("drag-me-word"));
      return y >= 0 ? { y } : undefined;
    });
    await tmux.text("a", sgr(0, 0, screen.y) + sgr(32, 3, screen.y) + sgr(0, 3, screen.y, true));
    await tmux.waitFor("a", /copied 4 characters/);
    await tmux.text("a", sgr(0, 15, screen.y) + sgr(0, 15, screen.y, true) + sgr(0, 15, screen.y) + sgr(0, 15, screen.y, true));
    await tmux.waitFor("a", /copied 5 characters/);
    await tmux.text("a", "echo =");
    await tmux.keys("a", P, "]");
    await server.waitScreen(1, /echo =other/);
    await tmux.keys("a", "C-u");
  });

  test("prefix : runs a ws command line, with Tab completion", async () => {
    await tmux.keys("a", P, ":");
    await tmux.waitFor("a", (s) => statusLine(s).includes("ws:"));
    await tmux.text("a", "spl");
    await tmux.keys("a", "Tab");
    await tmux.waitFor("a", (s) => /ws: split$/.test(statusLine(s)));
    await tmux.tmux("send-keys", "-t", "=a:", "-l", "--", "--bel");
    await tmux.keys("a", "Tab");
    await tmux.waitFor("a", (s) => /ws: split --below$/.test(statusLine(s)));
    await tmux.keys("a", "Enter");
    await waitFor("a third pane", async () => (await panesOf(server)).length === 3);
    // The split focuses its new pane, as prefix % does.
    expect(await focusedPane(server)).toBe(Math.max(...(await panesOf(server))));
    // Tab completes arguments too, as the shell completion does: a layout's name, a workspace
    // from the server's model, a template from ws's files.
    for (const [typed, done] of [["layout select ti", "layout select tiled"], ["workspace focus ma", "workspace focus main"], ["new rev", "new review"]]) {
      await tmux.keys("a", P, ":");
      await tmux.waitFor("a", (s) => statusLine(s).includes("ws:"));
      await tmux.text("a", typed!);
      await tmux.keys("a", "Tab");
      await tmux.waitFor("a", (s) => statusLine(s).includes(`ws: ${done}`));
      await tmux.keys("a", "Escape");
      await tmux.waitFor("a", (s) => !statusLine(s).includes("ws:"));
    }
    // tmux's own words work at the prompt as they do in tmux.
    await tmux.keys("a", P, ":");
    await tmux.text("a", "new-window");
    await tmux.keys("a", "Enter");
    await tmux.waitFor("a", (s) => statusLine(s).includes("tab 2/2"));
    await tmux.keys("a", P, ":");
    await tmux.text("a", "kill-window");
    await tmux.keys("a", "Enter");
    await tmux.waitFor("a", (s) => statusLine(s).includes("tab 1/1"));
    // A mistake is said on the status line, as the CLI would say it.
    await tmux.keys("a", P, ":");
    await tmux.text("a", "frobnicate");
    await tmux.keys("a", "Enter");
    await tmux.waitFor("a", (s) => /unknown/i.test(statusLine(s)) && statusLine(s).includes("frobnicate"));
    // Output of more than one line opens a view.
    await tmux.keys("a", P, ":");
    await tmux.text("a", "pane list");
    await tmux.keys("a", "Enter");
    await tmux.waitFor("a", "ws pane list");
    await tmux.keys("a", "q");
    await tmux.waitFor("a", (s) => !s.includes("ws pane list"));
  });

  test("synchronize-panes: prefix S types into every pane of the tab, with SYNC on the status line", async () => {
    await tmux.keys("a", P, "S");
    await tmux.waitFor("a", (s) => statusLine(s).includes("SYNC"));
    await tmux.text("a", "echo sync-$((40+2))");
    await tmux.keys("a", "Enter");
    for (const p of await panesOf(server)) await server.waitScreen(p, /^sync-42/m);
    await tmux.keys("a", P, "S");
    await tmux.waitFor("a", (s) => !statusLine(s).includes("SYNC"));
  });

  test("prefix w picks from a tree of workspaces, tabs and panes, with a preview; prefix N makes a workspace", async () => {
    await tmux.keys("a", P, "N");
    await tmux.waitFor("a", "new workspace name:");
    await tmux.text("a", "Other");
    await tmux.keys("a", "Enter");
    await tmux.waitFor("a", "[Other] tab 1/1");
    await tmux.keys("a", P, "w");
    await tmux.waitFor("a", "Choose a workspace, tab or pane");
    const tree = await tmux.capture("a");
    expect(tree).toContain("main");
    expect(tree).toMatch(/pane 1: /);
    expect(tree).toMatch(/── pane \d+ ──/);
    // Up to pane 1 of main, which previews its screen, then Enter goes there.
    await waitFor("pane 1 selected", async () => {
      const s = await tmux.capture("a");
      if (s.includes("── pane 1 ──")) return true;
      await tmux.keys("a", "Up");
      return false;
    });
    expect(await tmux.capture("a")).toContain("sync-42");
    await tmux.keys("a", "Enter");
    await tmux.waitFor("a", (s) => statusLine(s).includes("[main]") && statusLine(s).includes("pane 1 "));
    await tmux.keys("a", P, "?");
    await tmux.waitFor("a", "prefix N makes a new workspace");
    await tmux.keys("a", "q");
    await tmux.waitFor("a", (s) => !s.includes("prefix N makes"));
  });

  test("prefix W asks for TEMPLATE NAME with nothing filled in", async () => {
    await tmux.keys("a", P, "W");
    await tmux.waitFor("a", (s) => /new workstream: TEMPLATE NAME:$/.test(statusLine(s)));
    expect(statusLine(await tmux.capture("a"))).not.toContain("default");
    await tmux.keys("a", "Escape");
    await tmux.waitFor("a", (s) => !s.includes("TEMPLATE NAME"));
  });

  test("prefix g goes to the next blocked agent; the dashboard names workspace, tab and agent", async () => {
    await server.ok(["tab", "new", "--name", "beta", "--workspace", "main"]);
    const ids = await panesOf(server);
    const agentPane = Math.max(...ids);
    const r = await server.run(["report", "Notification", "--agent", "claude"], { env: { WS_PANE_ID: String(agentPane), WS_SOCKET: join(server.env.XDG_RUNTIME_DIR!, "ws", "default.sock") }, stdin: JSON.stringify({ message: "needs permission", notification_type: "permission_prompt" }) });
    expect(r.code).toBe(0);
    await waitFor("the agent blocked", async () => (await server.v6({ type: "dashboard" })).agents?.some((a) => a.status === "blocked"));
    await tmux.keys("a", P, "1");
    await tmux.keys("a", P, "g");
    await tmux.waitFor("a", (s) => statusLine(s).includes(`pane ${agentPane} `));
    await tmux.keys("a", P, "a");
    await tmux.waitFor("a", "Dashboard");
    expect(await tmux.capture("a")).toMatch(new RegExp(`pane ${agentPane}  main / beta · claude`));
    await tmux.keys("a", "q");
  });
});

describe("keys.toml: prefix, status line, bound command lines, reload", () => {
  let server: TestServer;
  let tmux: Tmux;
  let file: string;
  beforeAll(async () => {
    server = new TestServer();
    file = server.writeKeys('prefix = "C-b"\n[keys]\n"v" = "split --right --size 48"\n"e" = "layout select even-horizontal"\n');
    await server.start();
    tmux = new Tmux(server.env);
    await tmux.open("b", attachCommand(), 120, 40);
    await tmux.waitFor("b", "[main] tab 1/1");
  });
  afterAll(async () => {
    await tmux.kill();
    await server.stop();
  });

  test("the status line follows the prefix", async () => {
    const line = statusLine(await tmux.capture("b"));
    expect(line).toContain("C-b ? help");
    expect(line).not.toContain("C-Space");
  });

  test("a key bound to a command line with arguments runs it", async () => {
    await tmux.keys("b", "C-b", "v");
    await waitFor("a split", async () => (await panesOf(server)).length === 2);
    // A split from a bound line focuses its new pane, as prefix % does.
    await waitFor("the new pane focused", async () => (await focusedPane(server)) === Math.max(...(await panesOf(server))));
    const cols = async () => (await server.v6({ id: 1, type: "pane_list" })).panes?.map((p) => p.cols) ?? [];
    const before = await waitFor("two panes", async () => ((await cols()).length === 2 ? await cols() : undefined));
    expect(before[1]).toBe(48);
    await tmux.keys("b", "C-b", "e");
    await waitFor("even widths", async () => {
      const c = await cols();
      return c.length === 2 && Math.abs(c[0]! - c[1]!) <= 1;
    });
  });

  test("ws config reload reads keys.toml again: new prefix and status line, the client stays", async () => {
    writeFileSync(file, 'prefix = "C-a"\n[status]\nleft = "<{workspace}|{tab}|{pane}|{host}>"\nright = "{time} {prefix}"\n');
    const out = await server.ok(["config", "reload"]);
    expect(out).toContain("keys.toml read again");
    await tmux.waitFor("b", (s) => /<main\|[^|]+\|\d+\|[^>]+>/.test(statusLine(s)));
    expect(statusLine(await tmux.capture("b"))).toMatch(/\d\d:\d\d C-a/);
    // The new prefix works, the old one no longer does.
    await tmux.keys("b", "C-a", "%");
    await waitFor("a third pane", async () => (await panesOf(server)).length === 3);
    // prefix r does the same, and a mistake is reported with its line.
    writeFileSync(file, 'prefix = "C-a"\n[status]\nleft = "{nope}"\n');
    await tmux.keys("b", "C-a", "r");
    await tmux.waitFor("b", /keys\.toml:3: status left unknown field \{nope\}/);
    // Problems are reported and the reload exits non-zero, so a script notices.
    const reload = await server.run(["--json", "config", "reload"]);
    expect(reload.code).toBe(1);
    const json = JSON.parse(reload.stdout);
    expect(json.type).toBe("config_reloaded");
    expect(json.warnings[0]).toContain("unknown field {nope}");
  });
});

describe("habit traps", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await new TestServer().start();
  });
  afterAll(async () => {
    await server.stop();
  });

  test("tmux commands get a pointer to the ws command", async () => {
    const cases: [string[], string][] = [
      [["new-window"], "ws tab new"],
      [["send-keys", "x"], "ws pane keys"],
      [["capture-pane"], "ws pane read"],
      [["ls"], "ws workspace list"],
      [["kill-session"], "ws workspace close"],
      [["attach", "-t", "work"], "ws attach shows it"],
    ];
    for (const [argv, hint] of cases) {
      const r = await server.run(argv);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(hint);
    }
  });

  test("--local inside a --local server's pane means that server; elsewhere a private one", () => {
    expect(socketPath({ local: true }, { WS_SOCKET: "/run/u/ws/ws-4242.sock", XDG_RUNTIME_DIR: "/run/u" })).toBe("/run/u/ws/ws-4242.sock");
    expect(socketPath({ local: true }, { WS_SOCKET: "/run/u/ws/default.sock", XDG_RUNTIME_DIR: "/run/u" })).toBe(`/run/u/ws/ws-${process.pid}.sock`);
    expect(socketPath({ local: true }, { XDG_RUNTIME_DIR: "/run/u" })).toBe(`/run/u/ws/ws-${process.pid}.sock`);
  });

  test("ws dashboard --help lists -H and --all-hosts", async () => {
    const out = await server.ok(["dashboard", "--help"]);
    expect(out).toContain("-H HOST");
    expect(out).toContain("--all-hosts");
  });

  test("help speaks CLI: no protocol words in split's and open's help", async () => {
    expect(await server.ok(["split", "--help"])).not.toContain("Scripts pass false");
    expect(await server.ok(["open", "--help"])).not.toContain("as a request");
  });
});

describe("ws restart", () => {
  let server: TestServer;
  let tmux: Tmux;
  beforeAll(async () => {
    server = await new TestServer().start();
    tmux = new Tmux(server.env);
    await tmux.open("r", attachCommand(), 100, 30);
    await tmux.waitFor("r", "[main] tab 1/1");
  });
  afterAll(async () => {
    await tmux.kill();
    await server.stop();
  });

  test("an attached ws client attaches again by itself", async () => {
    await server.ok(["tab", "new", "--name", "kept", "--focus"]);
    await tmux.waitFor("r", "tab 2/2");
    const pid = server.daemonPid();
    await server.ok(["restart"]);
    await waitFor("a new server", () => server.daemonPid() !== pid && server.daemonPid() !== undefined, 20000);
    // Back on the restored layout, the client never having exited.
    await tmux.waitFor("r", (s) => statusLine(s).includes("tab 2/2") || statusLine(s).includes("tab 1/2"), 20000);
    expect(await tmux.capture("r")).not.toContain("[ws exited");
    // It is a live client of the new server: a key works.
    await tmux.keys("r", P, "%");
    await waitFor("a split on the new server", async () => (await panesOf(server)).length === 3, 15000);
  });
});
