// tmux's vocabulary at `prefix :`: a person at a real terminal (tmux) attached to a real server
// types tmux command lines at ws's prompt, and each does what tmux does, on the server's model
// (the tmux shim's parser and command table, dispatched inside the server, as the person).
import { beforeAll, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { waitFor } from "./harness";
import { serverWithTmux, PREFIX, attachCommand, statusLine } from "./tmux-driver";

const { s, tmux } = serverWithTmux();

beforeAll(async () => {
  await tmux.open("c", attachCommand(), 160, 40);
  await tmux.waitFor("c", (t) => statusLine(t).includes("pane 1"));
}, 60_000);

interface SnapTab { id: number; name: string; active: boolean; focused: number; zoomed: number | null; panes: number[] }
const snapshot = async () => (await s.v6({ type: "session_snapshot" })) as unknown as { workspaces: { name: string; current: boolean; tabs: SnapTab[] }[] };
const currentTab = async () => {
  const ws = (await snapshot()).workspaces.find((w) => w.current)!;
  return ws.tabs.find((t) => t.active)!;
};
const tabs = async () => (await snapshot()).workspaces.find((w) => w.current)!.tabs;

async function prompt(line: string): Promise<void> {
  await tmux.keys("c", PREFIX, ":");
  await tmux.waitFor("c", (t) => statusLine(t).startsWith(" ws:"));
  await tmux.text("c", line);
  await tmux.keys("c", "Enter");
}

test("split-window -h splits the focused pane and focuses the new one, as prefix % does", async () => {
  const before = (await currentTab()).panes;
  await prompt("split-window -h");
  const tab = await waitFor("the new pane", async () => {
    const t = await currentTab();
    return t.panes.length === before.length + 1 ? t : undefined;
  });
  const added = tab.panes.find((p) => !before.includes(p))!;
  expect(tab.focused).toBe(added);
}, 30_000);

test("resize-pane -Z zooms and unzooms; select-layout tiled; next-layout; swap-pane -U", async () => {
  await prompt("resize-pane -Z");
  await waitFor("the zoom", async () => (await currentTab()).zoomed !== null);
  await prompt("resize-pane -Z");
  await waitFor("the unzoom", async () => (await currentTab()).zoomed === null);

  await prompt("split-window -v");
  await waitFor("three panes", async () => (await currentTab()).panes.length === 3);
  await prompt("select-layout tiled");
  await tmux.waitFor("c", (t) => statusLine(t).includes("pane"));
  const layout = async () => (await s.v6({ type: "layout_export" })) as unknown as { layout?: unknown };
  const tiled = JSON.stringify(await layout());
  await prompt("next-layout");
  await tmux.waitFor("c", "even-horizontal");
  expect(JSON.stringify(await layout())).not.toBe(tiled);

  const tab = await currentTab();
  const focused = tab.focused;
  const at = tab.panes.indexOf(focused);
  await prompt("swap-pane -U");
  await waitFor("the swap", async () => {
    const t = await currentTab();
    return t.panes.indexOf(focused) === (at + t.panes.length - 1) % t.panes.length;
  });
}, 60_000);

test("set -g mouse off stops ws's mouse reports (the terminal selects); on asks for them again", async () => {
  await prompt("set -g mouse off");
  await waitFor("mouse reports off", async () => (await tmux.tmux("display", "-p", "-t", "c", "#{mouse_any_flag}#{mouse_button_flag}#{mouse_standard_flag}#{mouse_sgr_flag}")).trim() === "0000");
  await prompt("set -g mouse on");
  await waitFor("mouse reports on", async () => (await tmux.tmux("display", "-p", "-t", "c", "#{mouse_button_flag}#{mouse_sgr_flag}")).trim() === "11");
}, 30_000);

test("setw synchronize-panes on: SYNC on the status line; off ends it", async () => {
  await prompt("setw synchronize-panes on");
  await tmux.waitFor("c", (t) => statusLine(t).includes("SYNC"));
  await prompt("setw synchronize-panes off");
  await tmux.waitFor("c", (t) => !statusLine(t).includes("SYNC"));
}, 30_000);

test("rename-window, display-message, list-keys, last-window", async () => {
  await prompt("rename-window built");
  await waitFor("the tab's name", async () => (await currentTab()).name === "built");
  await prompt("display-message 'hello #{window_name}'");
  await tmux.waitFor("c", (t) => statusLine(t).includes("hello built"));
  await prompt("list-keys");
  await tmux.waitFor("c", "bind-key -T prefix % split-right");
  await tmux.keys("c", "q");
  await tmux.waitFor("c", (t) => !t.includes("bind-key -T prefix"));

  const first = (await currentTab()).id;
  await prompt("new-window");
  await waitFor("the second tab", async () => (await currentTab()).id !== first);
  await prompt("last-window");
  await waitFor("back on the first tab", async () => (await currentTab()).id === first);
}, 60_000);

test("break-pane moves the pane to a tab of its own; join-pane -s 1 brings it back", async () => {
  const before = await tabs();
  const tab = await currentTab();
  const pane = tab.focused;
  await prompt("break-pane");
  await waitFor("a tab of its own", async () => {
    const t = await currentTab();
    return t.panes.length === 1 && t.panes[0] === pane && (await tabs()).length === before.length + 1;
  });
  // Back on the first tab (index 0), join window 2's pane (the one broken out) beside its pane.
  await prompt("select-window -t 0");
  await waitFor("the first tab", async () => (await currentTab()).id === tab.id);
  const index = (await tabs()).findIndex((t) => t.panes.includes(pane));
  await prompt(`join-pane -s ${index}`);
  await waitFor("the pane back", async () => (await currentTab()).panes.includes(pane));
}, 60_000);

test("send-keys types into the pane; source-file runs a file's commands; an unknown word says so", async () => {
  const pane = (await currentTab()).focused;
  await prompt("send-keys 'echo typed-by-send-keys' Enter");
  await waitFor("the echo", async () => String((await s.v6({ type: "pane_read", pane, lines: 50 })).text ?? "").includes("\ntyped-by-send-keys"));

  const dir = join(s.root, "conf");
  mkdirSync(dir, { recursive: true });
  const file = join(dir, "extra.conf");
  writeFileSync(file, "# a tmux.conf\nrename-window from-file\ndisplay-message sourced\n");
  await prompt(`source-file ${file}`);
  await waitFor("the file's rename", async () => (await currentTab()).name === "from-file");
  await tmux.waitFor("c", (t) => statusLine(t).includes("sourced"));

  await prompt("frobnicate-window");
  await tmux.waitFor("c", (t) => statusLine(t).includes("frobnicate-window"));
}, 60_000);

test("ws's own names still work at prefix :", async () => {
  await prompt("copy-mode");
  await tmux.waitFor("c", (t) => statusLine(t).includes("COPY"));
  await tmux.keys("c", "q");
  await tmux.waitFor("c", (t) => !statusLine(t).includes("COPY"));
  await prompt("help");
  await tmux.waitFor("c", "Keys (prefix is");
  await tmux.keys("c", "q");
}, 30_000);

test("prefix q shows the panes' numbers and a digit focuses that pane", async () => {
  for (let n = (await currentTab()).panes.length; n < 3; n++) {
    await prompt("split-window -h");
    await waitFor("another pane", async () => (await currentTab()).panes.length === n + 1);
  }
  const tab = await currentTab();
  await s.v6({ type: "pane_focus", pane: tab.panes[0] });
  await waitFor("the first pane focused", async () => (await currentTab()).focused === tab.panes[0]);
  // The numbers show for a second (tmux's display-panes-time): the digit goes with the keys.
  await tmux.keys("c", PREFIX, "q", "2");
  // The digit is the pane's index in the tab (tmux's display-panes).
  await waitFor("the pane of index 2 focused", async () => (await currentTab()).focused === tab.panes[2]);
}, 30_000);

test("keys.toml mouse = false leaves the mouse to the terminal; a mistake makes ws config reload exit 1 and keeps the rest", async () => {
  const dir = join(s.env.XDG_CONFIG_HOME!, "ws");
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "keys.toml"), 'mouse = false\n[keys]\n"Z" = "zoomm"\n');
  const r = await s.run(["config", "reload"]);
  expect(r.code).toBe(1);
  expect(r.stdout + r.stderr).toContain('did you mean "zoom"?');
  await waitFor("mouse reports off", async () => (await tmux.tmux("display", "-p", "-t", "c", "#{mouse_button_flag}#{mouse_standard_flag}#{mouse_sgr_flag}")).trim() === "000");
  writeFileSync(join(dir, "keys.toml"), "mouse = true\n");
  expect((await s.run(["config", "reload"])).code).toBe(0);
  await waitFor("mouse reports on", async () => (await tmux.tmux("display", "-p", "-t", "c", "#{mouse_button_flag}#{mouse_sgr_flag}")).trim() === "11");
}, 30_000);

test("ws tmux COMMAND… runs a tmux command line through the same parser; -h is tmux's, \\; chains", async () => {
  const before = (await currentTab()).panes.length;
  const r = await s.run(["tmux", "split-window", "-h", ";", "display-message", "-p", "#{window_panes}"]);
  expect(r.code).toBe(0);
  expect(r.stdout.trim()).toBe(String(before + 1));
  const bad = await s.run(["tmux", "frobnicate"]);
  expect(bad.code).toBe(1);
  expect(bad.stderr).toContain("unknown command: frobnicate");
}, 30_000);

test("ws doctor says ws doesn't read ~/.tmux.conf, when there is one", async () => {
  const home = join(s.root, "home-with-tmux-conf");
  mkdirSync(home, { recursive: true });
  const without = await s.run(["doctor"], { env: { HOME: home } });
  expect(without.stdout).not.toContain(".tmux.conf");
  writeFileSync(join(home, ".tmux.conf"), "set -g mouse on\n");
  const r = await s.run(["doctor"], { env: { HOME: home } });
  expect(r.stdout).toContain(`ws doesn't read ${join(home, ".tmux.conf")}`);
}, 30_000);
