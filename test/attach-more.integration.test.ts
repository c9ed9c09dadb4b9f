// run_command, ws keys --list, mouse, copy mode and keys.toml, through a real
// terminal (tmux) attached to a real server.
import { beforeAll, describe, expect, test } from "bun:test";
import { Conn, wsArgv } from "./harness";
import { serverWithTmux } from "./tmux-driver";

const WS = wsArgv().join(" ");
const { s: server, tmux } = serverWithTmux();
// keys.toml is in place before the server starts (in serverWithTmux's beforeAll).
server.writeKeys('[keys]\n"v" = "split-right"\n"y" = "no-such-command"\n');

beforeAll(async () => {
  await tmux.open("ws", `${WS} attach; sleep 3600`, 120, 40);
  await tmux.waitFor("ws", "[main] tab 1/1");
}, 30_000);

const sgr = (b: number, col: number, row: number, up = false) => `\x1b[<${b};${col + 1};${row + 1}${up ? "m" : "M"}`;

describe("keys.toml", () => {
  test("a bad line is reported on screen with its line number; the rest applies", async () => {
    await tmux.waitFor("ws", /keys\.toml:3: "no-such-command" is not a command/);
    await tmux.keys("ws", "C-Space", "v"); // the user's own binding
    await tmux.waitFor("ws", /─ 2: bash/);
  });

  test("ws keys --list names every command with its keys", async () => {
    const out = await server.ok(["keys", "--list"]);
    expect(out).toMatch(/split-right\s+C-Space %, C-Space \|, C-Space v/);
    expect(out).toMatch(/detach\s+C-Space d/);
    expect(out).toContain("copy-mode");
  });
});

describe("run_command", () => {
  test("runs a command as if its key were pressed; unknown names are errors", async () => {
    const r = await server.request({ v: 5, type: "run_command", name: "split-below" });
    expect(r).toEqual({ v: expect.any(Number), type: "ok" });
    await tmux.waitFor("ws", /─ 3: bash/);
    const bad = await server.request({ v: 5, type: "run_command", name: "explode" });
    expect(bad.type).toBe("error");
    expect(bad.message).toContain("ws keys --list");
  });

  test("a command that asks opens its prompt on the server's screen", async () => {
    await server.request({ v: 5, type: "run_command", name: "rename-tab" });
    await tmux.waitFor("ws", "rename tab:");
    await tmux.keys("ws", "C-u");
    await tmux.text("ws", "Builds");
    await tmux.keys("ws", "Enter");
    await tmux.waitFor("ws", " 1:Builds ");
    expect((await server.list())[0]!.tabs[0]!.name).toBe("Builds");
  });
});

describe("rename-workspace", () => {
  test("renames the workspace on screen, publishes workspace_renamed and wakes a wait for the new name", async () => {
    const sub = await Conn.open(server.sock);
    sub.send({ v: 6, id: "sub", type: "subscribe", types: ["workspace_renamed"] });
    expect((await sub.nextJson()).type).toBe("subscribed");
    const wait = server.v6({ type: "wait_for", condition: "workspace_exists", workspace: "Renamed", timeout: 20000 });
    await server.request({ v: 5, type: "run_command", name: "rename-workspace" });
    await tmux.waitFor("ws", "rename workspace:");
    await tmux.keys("ws", "C-u");
    await tmux.text("ws", "Renamed");
    await tmux.keys("ws", "Enter");
    await tmux.waitFor("ws", "[Renamed] tab 1/1");
    expect(await sub.next()).toMatchObject({ type: "event", event: "workspace_renamed", workspace: "Renamed", from: "main" });
    expect(await wait).toMatchObject({ type: "wait_result", workspace: "Renamed" });
    expect((await server.list()).map((w) => w.name)).toEqual(["Renamed"]);
    sub.close();
    // Back, for the tests that follow.
    await server.request({ v: 5, type: "run_command", name: "rename-workspace" });
    await tmux.waitFor("ws", "rename workspace:");
    await tmux.keys("ws", "C-u");
    await tmux.text("ws", "main");
    await tmux.keys("ws", "Enter");
    await tmux.waitFor("ws", "[main] tab 1/1");
  });
});

describe("mouse", () => {
  test("a click focuses the pane under it", async () => {
    // Pane 1 is top-left; the client terminal sends SGR mouse reports as a real one would.
    await tmux.text("ws", sgr(0, 5, 5) + sgr(0, 5, 5, true));
    await tmux.waitFor("ws", "pane 1 ");
    await tmux.text("ws", sgr(0, 100, 5) + sgr(0, 100, 5, true));
    await tmux.waitFor("ws", "pane 2 ");
  });

  test("dragging the vertical border resizes the panes", async () => {
    const before = (await server.list())[0];
    const screen = await tmux.lines("ws");
    const col = screen[5]!.indexOf("│");
    expect(col).toBeGreaterThan(10);
    await tmux.text("ws", sgr(0, col, 5) + sgr(32, col - 10, 5) + sgr(0, col - 10, 5, true));
    await tmux.waitFor("ws", (s) => s.split("\n")[5]!.indexOf("│") === col - 10);
    expect(before!.tabs[0]!.panes.length).toBe(3);
  });

  test("the wheel scrolls a shell pane's history (copy mode), q leaves it", async () => {
    await server.request({ v: 2, type: "pane_send", pane: 1, text: "for i in $(seq 1 200); do echo hist-$i; done", enter: true });
    await server.waitScreen(1, "hist-200");
    await tmux.text("ws", sgr(0, 5, 5) + sgr(0, 5, 5, true));
    await tmux.waitFor("ws", "pane 1 ");
    for (let i = 0; i < 10; i++) await tmux.text("ws", sgr(64, 5, 5));
    const s = await tmux.waitFor("ws", "COPY");
    expect(s).not.toContain("hist-200");
    await tmux.text("ws", "q");
    await tmux.waitFor("ws", (s) => !s.includes("COPY") && s.includes("hist-200"));
  });
});

describe("copy mode", () => {
  test("search finds older output; y copies and leaves", async () => {
    await tmux.keys("ws", "C-Space", "[");
    await tmux.waitFor("ws", "COPY");
    await tmux.text("ws", "/");
    await tmux.waitFor("ws", "search down:");
    await tmux.text("ws", "hist-42");
    await tmux.keys("ws", "Enter");
    await tmux.waitFor("ws", (s) => s.includes("hist-42") && !s.includes("hist-200"));
    await tmux.text("ws", "vly");
    await tmux.waitFor("ws", /copied 2 characters/);
  });
});

describe("workspaces and help", () => {
  test("prefix N makes a workspace; prefix s picks one; prefix ? lists every binding", async () => {
    await tmux.keys("ws", "C-Space", "N");
    await tmux.waitFor("ws", "new workspace name:");
    await tmux.text("ws", "Games");
    await tmux.keys("ws", "Enter");
    await tmux.waitFor("ws", "[Games] tab 1/1");
    expect((await server.list()).map((w) => w.name)).toEqual(["main", "Games"]);
    await tmux.keys("ws", "C-Space", "s");
    await tmux.waitFor("ws", "Switch workspace");
    await tmux.text("ws", "1");
    await tmux.waitFor("ws", "[main] tab 1/1");
    await tmux.keys("ws", "C-Space", "?");
    const help = await tmux.waitFor("ws", "Keys (prefix is C-Space");
    expect(help).toContain("split-right");
    await tmux.text("ws", "q");
    await tmux.waitFor("ws", (s) => !s.includes("Keys (prefix"));
  });
});
