// tmux's settings by their names in keys.toml, taking effect in a real server with `ws attach` in
// a real tmux: status = "off" (no bars; panes take every row), status-style (the bars' colours),
// renumber-windows = "off" (a tab keeps its number), mode-keys (copy mode's vi or emacs keys); and
// ws config import-tmux writing keys.toml from a tmux.conf that the server then runs on.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { TestServer, waitFor } from "./harness";
import { Tmux, attachCommand, statusLine } from "./tmux-driver";

const panesOf = async (s: TestServer) => (await s.list()).flatMap((w) => w.tabs.flatMap((t) => t.panes));
const paneRows = async (s: TestServer) => ((await s.v6({ id: 1, type: "pane_list" })).panes as { rows: number }[] | undefined)?.map((p) => p.rows) ?? [];

describe("keys.toml settings with tmux's names", () => {
  let server: TestServer;
  let tmux: Tmux;
  let file: string;
  beforeAll(async () => {
    server = new TestServer();
    file = server.writeKeys('status = "off"\n');
    await server.start();
    tmux = new Tmux(server.env);
    await tmux.open("s", attachCommand(), 100, 30);
  }, 60_000);
  afterAll(async () => {
    await tmux.kill();
    await server.stop();
  }, 30_000);

  test('status = "off": no tab bar nor status line, the pane has every row; a prompt still shows', async () => {
    await waitFor("the pane to take all 30 rows", async () => (await paneRows(server))[0] === 30);
    await server.ok(["pane", "send", "1", "echo top-row-$((6*7))", "--enter"]);
    const screen = await tmux.waitFor("s", "top-row-42");
    expect(screen).not.toContain("[main] tab");
    expect(screen).not.toContain("? help");
    // The prompt shows over the last row while it is open, as tmux's does with its status off.
    await tmux.keys("s", "C-Space", ":");
    await tmux.waitFor("s", (s) => statusLine(s).includes("ws:"));
    await tmux.keys("s", "Escape");
    await tmux.waitFor("s", (s) => !statusLine(s).includes("ws:"));
    // Back on: the bars return and the pane gives up their rows.
    writeFileSync(file, 'status = "on"\nstatus-style = "bg=colour22,fg=colour226"\nrenumber-windows = "off"\n');
    expect((await server.run(["config", "reload"])).code).toBe(0);
    await waitFor("the pane to give the bars their rows", async () => (await paneRows(server))[0] === 28);
    await tmux.waitFor("s", "[main] tab 1/1");
  }, 60_000);

  test("status-style colours the bars as tmux's does", async () => {
    const styled = await tmux.tmux("capture-pane", "-p", "-e", "-t", "=s:");
    const last = styled.trimEnd().split("\n").at(-1)!;
    expect(last).toMatch(/38;5;226/);
    expect(last).toMatch(/48;5;22/);
  });

  test('renumber-windows = "off": closing a tab leaves the others their numbers; a new tab takes the next', async () => {
    await server.ok(["tab", "new", "--name", "two"]);
    await server.ok(["tab", "new", "--name", "three"]);
    await tmux.waitFor("s", / 3:three /);
    await server.ok(["tab", "close", "two"]);
    await tmux.waitFor("s", (s) => s.includes(" 3:three ") && !s.includes(":two "));
    await server.ok(["tab", "new", "--name", "four"]);
    await tmux.waitFor("s", / 4:four /);
    // prefix 3 goes to the tab numbered 3.
    await tmux.keys("s", "C-Space", "1");
    await tmux.waitFor("s", (s) => statusLine(s).includes("tab 1/3"));
    await tmux.keys("s", "C-Space", "3");
    await tmux.waitFor("s", (s) => statusLine(s).includes("tab 3/3"));
  }, 60_000);

  test('mode-keys = "emacs": copy mode takes emacs\'s keys (C-Space, C-f, M-w), not vi\'s', async () => {
    // emacs's C-Space is ws's default prefix: this keys.toml takes tmux's C-b instead.
    writeFileSync(file, 'prefix = "C-b"\nmode-keys = "emacs"\n');
    expect((await server.run(["config", "reload"])).code).toBe(0);
    await server.ok(["tab", "new", "--name", "emacs", "--", "sh", "-c", "echo emacs-words here; exec cat"]);
    await tmux.waitFor("s", / 4:emacs /);
    await tmux.keys("s", "C-b", "4");
    await tmux.waitFor("s", /emacs-words here/);
    await tmux.keys("s", "C-b", "[");
    await tmux.waitFor("s", (s) => statusLine(s).includes("COPY"));
    // M-< to the top (the line), vi's v does nothing in emacs's table; C-Space starts the
    // selection, C-f moves, M-w copies.
    await tmux.keys("s", "M-<");
    await tmux.keys("s", "v");
    await tmux.keys("s", "C-Space");
    for (let i = 0; i < 4; i++) await tmux.keys("s", "C-f");
    await tmux.keys("s", "M-w");
    await tmux.waitFor("s", /copied 5 characters/);
  }, 60_000);
});

describe("ws config import-tmux", () => {
  let server: TestServer;
  let tmux: Tmux;
  let conf: string;
  let keys: string;
  beforeAll(() => {
    server = new TestServer();
    conf = join(server.env.HOME!, ".tmux.conf");
    keys = join(server.env.XDG_CONFIG_HOME!, "ws", "keys.toml");
    tmux = new Tmux(server.env);
    writeFileSync(
      conf,
      [
        "unbind C-b",
        "set -g prefix C-a",
        "bind C-a send-prefix",
        "set -g mouse off",
        "setw -g mode-keys vi",
        "set -g history-limit 50000",
        "set -g base-index 1",
        "set -g status-style 'bg=colour235,fg=colour136'",
        "set -g default-terminal screen-256color",
        'bind | split-window -h -c "#{pane_current_path}"',
        "bind -r H resize-pane -L 5",
        "bind -n M-Left select-pane -L",
        "bind -T copy-mode-vi v send -X begin-selection",
        "run '~/.tmux/plugins/tpm/tpm'",
      ].join("\n"),
    );
  });
  afterAll(async () => {
    await tmux.kill();
    await server.stop();
  }, 30_000);

  test("--print shows the keys.toml and what it left out, and writes nothing", async () => {
    const r = await server.run(["config", "import-tmux", "--print"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('prefix = "C-a"');
    expect(r.stdout).toContain("mouse = false");
    expect(r.stdout).toContain('mode-keys = "vi"');
    expect(r.stdout).toContain("history-limit = 50000");
    expect(r.stdout).toContain('status-style = "fg=colour136,bg=colour235"');
    expect(r.stdout).toContain('"|" = "split-right"');
    expect(r.stdout).toContain('"H" = "resize-pane -L 5"');
    expect(r.stdout).toMatch(/\[root\][^\n]*\n"M-Left" = "focus-left"/);
    expect(r.stderr).toContain(`${conf}:9: set -g default-terminal screen-256color: default-terminal: ws has no such setting`);
    expect(r.stderr).toContain(`${conf}:13: bind -T copy-mode-vi`);
    expect(r.stderr).toContain(`${conf}:14: run '~/.tmux/plugins/tpm/tpm'`);
    expect(existsSync(keys)).toBe(false);
  }, 30_000);

  test("the first start says once that ws doesn't read ~/.tmux.conf, and names import-tmux", async () => {
    const first = await server.run(["start"]);
    expect(first.code).toBe(0);
    expect(first.stderr).toContain(`ws doesn't read ${conf}; ws config import-tmux writes keys.toml from it`);
    expect((await server.run(["kill-server"])).code).toBe(0);
    const second = await server.run(["start"]);
    expect(second.code).toBe(0);
    expect(second.stderr).not.toContain("doesn't read");
    expect((await server.run(["kill-server"])).code).toBe(0);
  }, 60_000);

  test("writes keys.toml, never over one that is there without --force; the server runs on it", async () => {
    expect((await server.run(["config", "import-tmux"])).code).toBe(0);
    const written = readFileSync(keys, "utf8");
    writeFileSync(keys, 'prefix = "C-q"\n');
    const again = await server.run(["config", "import-tmux"]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain("exists and was left as it is: --force replaces it");
    expect(readFileSync(keys, "utf8")).toBe('prefix = "C-q"\n');
    expect((await server.run(["config", "import-tmux", "--force", conf])).code).toBe(0);
    expect(readFileSync(keys, "utf8")).toBe(written);
    // A server on it: no problems, the prefix and the binds are tmux's.
    await server.start();
    expect((await server.run(["config", "reload"])).code).toBe(0);
    const list = await server.ok(["keys", "--list"]);
    expect(list).toContain("prefix: C-a");
    expect(list).toMatch(/split-right\s+C-a %, C-a \|/);
    await tmux.open("i", attachCommand(), 100, 30);
    await tmux.waitFor("i", "[main] tab 1/1");
    await tmux.keys("i", "C-a", "|");
    await waitFor("a split from C-a |", async () => (await panesOf(server)).length === 2);
  }, 60_000);
});
