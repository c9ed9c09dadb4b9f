// Every v1–v5 message the core implements, over the real socket, with its replies and errors.
import { sharedPaneSocketPath } from "../src/paths";
import { describe, expect, test } from "bun:test";
import { TestServer, useServer, waitFor } from "./harness";
import type { Replies } from "./replies";

const s = useServer();

const ws = (name: string) => s.list().then((l) => l.find((w) => w.name === name));

describe("workspace_new / workspace_list / workspace_close / workspace_focus", () => {
  test("creates a workspace in the background with one shell tab", async () => {
    expect(await s.request({ v: 2, type: "workspace_new", name: "Games" })).toEqual({ v: 5, type: "ok" });
    const games = await ws("Games");
    expect(games!.current).toBe(false);
    expect(games!.tabs).toHaveLength(1);
    expect(games!.tabs[0]!.active).toBe(true);
    expect(games!.tabs[0]!.panes).toHaveLength(1);
  });

  test("a taken name (ignoring case) is an error unless exists_ok", async () => {
    const r = await s.request({ v: 2, type: "workspace_new", name: "games" });
    expect(r.type).toBe("error");
    expect(r.message).toContain("Games");
    expect(await s.request({ v: 2, type: "workspace_new", name: "GAMES", exists_ok: true })).toEqual({ v: 5, type: "ok" });
    expect((await s.list()).filter((w) => w.name.toLowerCase() === "games")).toHaveLength(1);
  });

  test("errors name what exists", async () => {
    await s.request({ v: 2, type: "workspace_new", name: "Design System" });
    const r = await s.request({ v: 5, type: "workspace_focus", name: "Gmaes" });
    expect(r).toEqual({ v: 5, type: "error", message: 'no workspace "Gmaes" (have: main, Games, Design System)' });
  });

  test("workspace_focus switches the current workspace, exact then ignoring case", async () => {
    expect((await s.request({ v: 5, type: "workspace_focus", name: "design system" })).type).toBe("ok");
    expect((await s.list()).find((w) => w.current)!.name).toBe("Design System");
    expect((await s.request({ v: 5, type: "workspace_focus", name: "main" })).type).toBe("ok");
    expect((await s.list()).find((w) => w.current)!.name).toBe("main");
  });

  test("workspace_close closes it and its panes; the only workspace can't be closed", async () => {
    const panes = (await ws("Design System"))!.tabs.flatMap((t) => t.panes);
    expect((await s.request({ v: 2, type: "workspace_close", name: "Design System" })).type).toBe("ok");
    expect(await ws("Design System")).toBeUndefined();
    const r = await s.request({ v: 5, type: "pane_focus", pane: panes[0] });
    expect(r.type).toBe("error");
    const solo = await new TestServer().start();
    try {
      const e = await solo.request({ v: 2, type: "workspace_close", name: "main" });
      expect(e.type).toBe("error");
      expect(e.message).toContain("only workspace");
      expect((await solo.list()).map((w) => w.name)).toEqual(["main"]);
    } finally {
      await solo.stop();
    }
  });
});

describe("tab_new / tab_close / open_tab", () => {
  test("tab_new opens a tab in a named workspace and replies with its pane", async () => {
    await s.ok(["project", "new", "tetris"]); // an unknown slug is an error (test/projects.test.ts)
    const r = await s.request<Replies["tab_new"]>({ v: 2, type: "tab_new", workspace: "Games", name: "Tetris", cwd: "/tmp", project: "tetris", command: ["sh", "-c", "pwd; exec cat"] });
    expect(r.type).toBe("pane");
    const games = await ws("Games");
    const tab = games!.tabs.find((t) => t.name === "Tetris");
    expect(tab).toEqual({ name: "Tetris", project: "tetris", panes: [r.pane], active: false });
    await s.waitScreen(r.pane, "/tmp");
  });

  test("tab_new defaults to the workspace on screen, focus switches to it", async () => {
    const r = await s.request<Replies["tab_new"]>({ v: 2, type: "tab_new", name: "Here", cwd: "/tmp", focus: true });
    const main = await ws("main");
    expect(main!.current).toBe(true);
    expect(main!.tabs.find((t) => t.active)!.panes).toEqual([r.pane]);
  });

  test("tab_new into a missing workspace is an error naming the workspaces", async () => {
    const r = await s.request({ v: 2, type: "tab_new", workspace: "Nope", cwd: "/tmp" });
    expect(r.type).toBe("error");
    expect(r.message).toBe('no workspace "Nope" (have: main, Games)');
  });

  test("tab_close by name and by 1-based number", async () => {
    await s.request<Replies["tab_new"]>({ v: 2, type: "tab_new", workspace: "Games", name: "One", cwd: "/tmp" });
    await s.request<Replies["tab_new"]>({ v: 2, type: "tab_new", workspace: "Games", name: "Two", cwd: "/tmp" });
    expect((await s.request({ v: 2, type: "tab_close", workspace: "Games", tab: "One" })).type).toBe("ok");
    let names = (await ws("Games"))!.tabs.map((t) => t.name);
    expect(names).not.toContain("One");
    const n = names.indexOf("Two") + 1;
    expect((await s.request({ v: 2, type: "tab_close", workspace: "Games", tab: String(n) })).type).toBe("ok");
    names = (await ws("Games"))!.tabs.map((t) => t.name);
    expect(names).not.toContain("Two");
    const e = await s.request({ v: 2, type: "tab_close", workspace: "Games", tab: "Zzz" });
    expect(e.type).toBe("error");
    expect(e.message).toStartWith('no tab "Zzz" in workspace "Games" (have: ');
  });

  test("open_tab (v1) answers plain ok and then opens and shows the tab", async () => {
    const line = await s.rawLine(JSON.stringify({ v: 1, type: "open_tab", cwd: "/tmp", command: [], name: "Review" }) + "\n");
    expect(line).toBe("ok");
    const main = await waitFor("the Review tab", async () => (await ws("main"))!.tabs.find((t) => t.name === "Review"));
    expect(main.active).toBe(true);
  });
});

describe("split", () => {
  test("split right and below with size in cells", async () => {
    const t = await s.request<Replies["tab_new"]>({ v: 2, type: "tab_new", workspace: "main", name: "Splits", cwd: "/tmp", command: ["sh", "-c", "exec cat"], focus: true });
    const right = await s.request<Replies["split"]>({ v: 1, type: "split", pane: t.pane, right: true, cwd: "/tmp", command: ["sh", "-c", "while :; do stty size; read x; done"], focus: false, size: 30 });
    expect(right.type).toBe("pane");
    await s.waitScreen(right.pane, / 30$/m);
    const below = await s.request<Replies["split"]>({ v: 1, type: "split", pane: t.pane, right: false, cwd: "/tmp", command: ["sh", "-c", "while :; do stty size; read x; done"], size: 7 });
    await s.waitScreen(below.pane, /^7 /m);
    const tab = (await ws("main"))!.tabs.find((x) => x.name === "Splits");
    expect(tab!.panes.sort()).toEqual([t.pane, right.pane, below.pane].sort());
  });

  test("right defaults to true and focus to true (split as the spec gives it)", async () => {
    const t = await s.request<Replies["tab_new"]>({ v: 2, type: "tab_new", workspace: "Games", cwd: "/tmp", command: ["sh", "-c", "exec cat"] });
    const r = await s.request<Replies["split"]>({ v: 1, type: "split", pane: t.pane, cwd: "/tmp", command: [] });
    expect(r.type).toBe("pane");
    const games = await ws("Games");
    expect(games!.current).toBe(true); // focus shows the new pane's workspace
    await s.request({ v: 5, type: "workspace_focus", name: "main" });
  });

  test("split of a missing pane names the panes that exist", async () => {
    const r = await s.request({ v: 1, type: "split", pane: 999, cwd: "/tmp", command: [] });
    expect(r.type).toBe("error");
    expect(r.message).toMatch(/^no pane 999 \(have: 1, /);
  });

  test("a size below 1 is refused", async () => {
    const r = await s.request({ v: 1, type: "split", pane: 1, cwd: "/tmp", command: [], size: 0 });
    expect(r.type).toBe("error");
  });

  test("unknown fields are ignored (older servers ignore newer fields)", async () => {
    const r = await s.request<Replies["split"]>({ v: 1, type: "split", pane: 1, cwd: "/tmp", command: ["sh", "-c", "exec cat"], focus: false, brand_new_field: { x: 1 } });
    expect(r.type).toBe("pane");
    await s.request({ v: 2, type: "pane_close", pane: r.pane });
  });
});

describe("pane_send / pane_close / pane_focus", () => {
  test("pane_send types text and Enter", async () => {
    const t = await s.request<Replies["tab_new"]>({ v: 2, type: "tab_new", workspace: "Games", cwd: "/tmp", command: ["sh", "-c", "while read l; do echo \"got:$l\"; done"] });
    expect(await s.request({ v: 2, type: "pane_send", pane: t.pane, text: "hello world", enter: true })).toEqual({ v: 5, type: "ok" });
    await s.waitScreen(t.pane, "got:hello world");
  });

  test("pane_send is bracketed when the program enabled bracketed paste", async () => {
    // The program turns on bracketed paste, then shows exactly the bytes it receives.
    const prog = `import os,sys,tty
tty.setraw(0); os.write(1,b"\\x1b[?2004hready\\r\\n"); b=b""
while not (b.endswith(b"END") or b.endswith(b"\\x1b[201~")): b+=os.read(0,100)
os.write(1,repr(b).encode()+b"\\r\\n"); os.read(0,1)`;
    const t = await s.request<Replies["tab_new"]>({ v: 2, type: "tab_new", workspace: "Games", cwd: "/tmp", command: ["python3", "-c", prog] });
    await s.waitScreen(t.pane, "ready");
    await s.request({ v: 2, type: "pane_send", pane: t.pane, text: "abc END" });
    await s.waitScreen(t.pane, "b'\\x1b[200~abc END\\x1b[201~'");
  });

  test("pane_send with empty text and enter just presses Enter", async () => {
    const t = await s.request<Replies["tab_new"]>({ v: 2, type: "tab_new", workspace: "Games", cwd: "/tmp", command: ["sh", "-c", "read l; echo \"empty:[$l]\"; exec cat"] });
    await s.request({ v: 2, type: "pane_send", pane: t.pane, text: "", enter: true });
    await s.waitScreen(t.pane, "empty:[]");
  });

  test("pane_focus shows the pane's workspace and tab", async () => {
    const t = await s.request<Replies["tab_new"]>({ v: 2, type: "tab_new", workspace: "Games", name: "Focus me", cwd: "/tmp" });
    expect((await s.request({ v: 5, type: "pane_focus", pane: t.pane })).type).toBe("ok");
    const games = await ws("Games");
    expect(games!.current).toBe(true);
    expect(games!.tabs.find((x) => x.active)!.name).toBe("Focus me");
    expect((await s.request({ v: 5, type: "pane_focus", pane: 4242 })).message).toMatch(/^no pane 4242/);
    await s.request({ v: 5, type: "workspace_focus", name: "main" });
  });

  test("pane_close stops the program; an emptied tab closes", async () => {
    const t = await s.request<Replies["tab_new"]>({ v: 2, type: "tab_new", workspace: "Games", name: "Doomed", cwd: "/tmp", command: ["sleep", "1000"] });
    expect((await s.request({ v: 2, type: "pane_close", pane: t.pane })).type).toBe("ok");
    expect((await ws("Games"))!.tabs.map((x) => x.name)).not.toContain("Doomed");
    expect((await s.request({ v: 2, type: "pane_close", pane: t.pane })).type).toBe("error");
  });

  test("closing the last pane in ws is an error", async () => {
    const solo = await new TestServer().start();
    try {
      const e = await solo.request({ v: 2, type: "pane_close", pane: 1 });
      expect(e.type).toBe("error");
      expect(e.message).toContain("last pane");
      const t = await solo.request({ v: 2, type: "tab_close", tab: "1" });
      expect(t.type).toBe("error");
      expect((await solo.list())[0]!.tabs[0]!.panes).toEqual([1]);
    } finally {
      await solo.stop();
    }
  });
});

describe("project_renamed / project_attach", () => {
  test("tabs linked to the old slug link to the new one", async () => {
    for (const slug of ["a11y", "other"]) await s.ok(["project", "new", slug]);
    const t = await s.request<Replies["tab_new"]>({ v: 2, type: "tab_new", workspace: "Games", name: "Proj", cwd: "/tmp", project: "a11y" });
    expect(await s.rawLine(JSON.stringify({ v: 2, type: "project_renamed", from: "a11y", to: "buttons" }) + "\n")).toBe("ok");
    await waitFor("the project rename", async () => (await ws("Games"))!.tabs.find((x) => x.name === "Proj")?.project === "buttons");
    expect(await s.rawLine(JSON.stringify({ v: 1, type: "project_attach", pane: t.pane, slug: "other" }) + "\n")).toBe("ok");
    await waitFor("the project link", async () => (await ws("Games"))!.tabs.find((x) => x.name === "Proj")?.project === "other");
  });
});

describe("panes", () => {
  test("panes get WS_SOCKET (the panes' socket), WS_PANE_ID and WS_WORKSPACE, and no BUN_BE_BUN", async () => {
    const t = await s.request<Replies["tab_new"]>({ v: 2, type: "tab_new", workspace: "Games", cwd: "/tmp", command: ["sh", "-c", 'echo "S=$WS_SOCKET"; echo "P=$WS_PANE_ID W=$WS_WORKSPACE B=${BUN_BE_BUN:-none} T=$TERM"; exec cat'] });
    await s.waitScreen(t.pane, `S=${sharedPaneSocketPath(s.sock)}\nP=${t.pane} W=Games B=none T=xterm-256color`);
  });

  test("a pane whose process exits closes, with its tab", async () => {
    const t = await s.request<Replies["tab_new"]>({ v: 2, type: "tab_new", workspace: "Games", name: "Short", cwd: "/tmp", command: ["sh", "-c", "read x"] });
    await s.request({ v: 2, type: "pane_send", pane: t.pane, text: "", enter: true });
    await waitFor("the exited pane's tab to close", async () => !(await ws("Games"))!.tabs.some((x) => x.name === "Short"));
  });

  test("an empty command runs the user's shell ($SHELL)", async () => {
    const t = await s.request<Replies["tab_new"]>({ v: 2, type: "tab_new", workspace: "Games", cwd: "/tmp", command: [] });
    await s.request({ v: 2, type: "pane_send", pane: t.pane, text: "echo shell=$0", enter: true });
    await s.waitScreen(t.pane, /shell=\/bin\/bash/);
  });
});
