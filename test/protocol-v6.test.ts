// Protocol v6 over the real socket: the envelope (id echo, order), structured errors and their
// codes and hints, and each v6 message.
import { beforeAll, describe, expect, test } from "bun:test";
import { Conn, TestServer, useServer, waitFor } from "./harness";
import type { PaneNode, SplitNode } from "./replies";
import type { TreeNode } from "../src/model/tree";

const s = useServer();

const tabOf = async (pane: number) => (await s.v6({ type: "pane_info", pane })).tab as number;

describe("envelope", () => {
  test("hello says who the server is", async () => {
    const r = await s.v6({ id: 1, type: "hello", client: "test" });
    expect(r).toMatchObject({ v: 6, id: 1, type: "hello", protocol: 6, min_protocol: 1, legacy_reply_version: 5, server_version: expect.any(String), build: expect.any(String) });
    expect(Number.isInteger(r.pid) && r.pid > 0).toBe(true);
    expect(r.boot_id).toMatch(/^[0-9a-f-]{36}$/);
  });

  test("id (number or string) is echoed, right after v; replies come in order on one connection", async () => {
    const c = await Conn.open(s.sock);
    c.write('{"v":6,"id":"a","type":"hello"}\n{"v":6,"id":2,"type":"pane_read","pane":1}\n{"v":6,"type":"hello"}\n{"v":6,"id":3,"type":"nope"}\n');
    const raw = await c.nextRaw();
    expect(raw.startsWith('{"v":6,"id":"a","type":"hello"')).toBe(true);
    expect(await c.next()).toMatchObject({ id: 2, type: "pane_text" });
    const third = await c.nextJson();
    expect(third.type).toBe("hello");
    expect("id" in third).toBe(false);
    expect(await c.next()).toMatchObject({ id: 3, type: "error", code: "unknown_type" });
    c.close();
  });

  test("v1–v5 messages sent at v6 get v6 replies", async () => {
    expect(await s.v6({ id: 7, type: "workspace_list" })).toMatchObject({ v: 6, id: 7, type: "workspaces" });
    expect(await s.v6({ id: 8, type: "report", pane: 1, event: "Nothing" })).toEqual({ v: 6, id: 8, type: "ok" });
  });

  test("a v6-only message sent at v5 is refused in the v5 style", async () => {
    expect(await s.rawLine('{"v":5,"type":"hello"}\n')).toBe('error: invalid message: hello needs protocol version 6 (sent at "v":5)');
  });
});

describe("errors", () => {
  test("invalid_request: a bad id, and unreadable lines on a v6 connection", async () => {
    expect(await s.v6({ id: [1], type: "hello" })).toMatchObject({ type: "error", code: "invalid_request" });
    const c = await Conn.open(s.sock);
    c.write('{"v":6,"type":"hello"}\nnot json\n');
    await c.next();
    expect(await c.next()).toMatchObject({ v: 6, type: "error", code: "invalid_request", message: expect.stringContaining("JSON") });
    c.close();
  });

  test("unknown_type names the closest type", async () => {
    expect(await s.v6({ id: 1, type: "pane_raed", pane: 1 })).toEqual({
      v: 6,
      id: 1,
      type: "error",
      code: "unknown_type",
      message: 'unknown type "pane_raed"',
      hint: { param: "type", did_you_mean: "pane_read", command: "ws api describe" },
    });
  });

  test("invalid_params: an unknown field is refused, naming the accepted ones and the closest", async () => {
    const r = await s.v6({ type: "pane_read", pane: 1, lnes: 3 });
    expect(r.code).toBe("invalid_params");
    expect(r.message).toContain("`lnes`");
    expect(r.hint).toMatchObject({ param: "lnes", did_you_mean: "lines", accepted: ["pane", "source", "lines", "start", "end", "styled"] });
  });

  test("invalid_params: missing, ill-typed, out of range, not an accepted value", async () => {
    expect((await s.v6({ type: "pane_read" })).hint!.param).toBe("pane");
    expect(await s.v6({ type: "pane_read", pane: "1" })).toMatchObject({ code: "invalid_params", hint: { param: "pane" } });
    expect(await s.v6({ type: "pane_read", pane: 1, lines: -1 })).toMatchObject({ code: "invalid_params", hint: { param: "lines" } });
    expect(await s.v6({ type: "pane_read", pane: 1, source: "recnt" })).toMatchObject({ code: "invalid_params", hint: { param: "source", did_you_mean: "recent", accepted: ["visible", "recent", "recent-unwrapped"] } });
    expect(await s.v6({ type: "pane_read", pane: 1, start: 5, end: 2 })).toMatchObject({ code: "invalid_params", hint: { param: "end" } });
  });

  test("version_unsupported keeps the spec's plain form", async () => {
    expect(await s.rawLine('{"v":9,"id":1,"type":"hello"}\n')).toBe("error: protocol version 9 not supported (this ws speaks 1..=6)");
  });

  test("workspace_not_found names the closest workspace and the field", async () => {
    await s.v6({ type: "workspace_new", name: "Games" });
    const r = await s.v6({ type: "tab_new", workspace: "Gmaes", name: "T", cwd: "/tmp" });
    expect(r).toMatchObject({ code: "workspace_not_found", message: 'no workspace "Gmaes" (have: main, Games)', hint: { param: "workspace", did_you_mean: "Games", available: ["main", "Games"] } });
    expect((await s.v6({ type: "workspace_focus", name: "gamse" })).hint).toMatchObject({ param: "name", did_you_mean: "Games" });
  });

  test("tab_not_found, pane_not_found, workspace_exists", async () => {
    expect(await s.v6({ type: "tab_close", workspace: "Games", tab: "Nope" })).toMatchObject({ code: "tab_not_found", hint: { param: "tab", available: ["bash"] } });
    expect(await s.v6({ type: "pane_send", pane: 999, text: "" })).toMatchObject({ code: "pane_not_found", hint: { param: "pane" } });
    expect(await s.v6({ type: "layout_export", tab: 999 })).toMatchObject({ code: "tab_not_found", hint: { param: "tab" } });
    expect(await s.v6({ type: "workspace_new", name: "games" })).toMatchObject({ code: "workspace_exists", hint: { param: "exists_ok" } });
  });

  test("last_pane", async () => {
    const t = new TestServer();
    await t.start();
    try {
      expect(await t.request({ v: 6, type: "pane_close", pane: 1 })).toMatchObject({ code: "last_pane", message: "can't close the last pane in ws" });
    } finally {
      await t.stop();
    }
  });

  test("timeout", async () => {
    const r = await s.v6({ type: "wait_for", condition: "pane_exists", pane: 4242, timeout: 50 });
    expect(r).toMatchObject({ type: "error", code: "timeout" });
  });
});

describe("pane_read", () => {
  let pane: number;
  beforeAll(async () => {
    // 30 numbered lines, one 200-character line (soft-wrapped at 80 columns), one red word.
    const script = "for i in $(seq 1 30); do echo line-$i; done; printf 'W%.0s' $(seq 1 200); echo; printf '\\033[31mred\\033[0m\\n'; exec cat";
    pane = (await s.v6({ type: "tab_new", workspace: "Games", name: "reader", cwd: "/tmp", command: ["sh", "-c", script] })).pane;
    await waitFor("the script's output", async () => (await s.v6({ type: "pane_read", pane, source: "recent" })).text.includes("red"));
  });

  test("visible is the screen; recent adds the scrollback", async () => {
    const vis = await s.v6({ type: "pane_read", pane });
    const rec = await s.v6({ type: "pane_read", pane, source: "recent" });
    expect(vis.text).not.toContain("line-1\n");
    expect(rec.text.startsWith("line-1\nline-2\n")).toBe(true);
    expect(rec.total_lines).toBeGreaterThan(vis.total_lines);
  });

  test("recent-unwrapped joins soft-wrapped rows into their line", async () => {
    const wrapped = (await s.v6({ type: "pane_read", pane, source: "recent" })).text.split("\n").filter((l: string) => /^W+$/.test(l));
    expect(wrapped.length).toBeGreaterThan(1);
    const un = (await s.v6({ type: "pane_read", pane, source: "recent-unwrapped" })).text.split("\n").filter((l: string) => /^W+$/.test(l));
    expect(un).toEqual(["W".repeat(200)]);
  });

  test("lines and start/end", async () => {
    const last = await s.v6({ type: "pane_read", pane, source: "recent-unwrapped", lines: 2 });
    expect(last.text.split("\n")).toEqual(["W".repeat(200), "red"]);
    const r = await s.v6({ type: "pane_read", pane, source: "recent", start: 3, end: 5 });
    expect(r).toMatchObject({ text: "line-3\nline-4\nline-5", first_line: 3, line_count: 3 });
  });

  test("styled keeps SGR", async () => {
    const plain = await s.v6({ type: "pane_read", pane, lines: 1 });
    const styled = await s.v6({ type: "pane_read", pane, lines: 1, styled: true });
    expect(plain.text).toBe("red");
    expect(styled.text).toContain("\x1b[0;31mred");
  });
});

describe("pane_info", () => {
  test("size, cursor, title, cwd, pid, foreground process", async () => {
    const p = (await s.v6({ type: "tab_new", workspace: "Games", name: "info", cwd: "/tmp", command: ["sh", "-c", "printf '\\033]2;my-title\\007'; cd /usr && exec sleep 30"] })).pane;
    const info = await waitFor("the title", async () => {
      const r = await s.v6({ type: "pane_info", pane: p });
      return r.title === "my-title" && r.foreground?.argv?.[0] === "sleep" ? r : undefined;
    });
    expect(info).toMatchObject({ type: "pane_info", pane: p, workspace: "Games", label: "my-title", cwd: "/usr", start_cwd: "/tmp", exited: false, exit_code: null });
    expect(info.cols).toBeGreaterThan(10);
    expect(info.foreground?.argv).toEqual(["sleep", "30"]);
    expect(info.cursor).toEqual({ x: expect.any(Number), y: expect.any(Number) });
  });

  test("an exited pane reports its exit status", async () => {
    const p = (await s.v6({ type: "tab_new", workspace: "Games", cwd: "/tmp", command: ["sh", "-c", "read x; exit 7"] })).pane;
    await s.v6({ type: "pane_send", pane: p, text: "", enter: true });
    const r = await s.v6({ type: "wait_for", condition: "exit", pane: p, timeout: 10000 });
    expect(r).toMatchObject({ type: "wait_result", exit_code: 7 });
    // It failed at once, so it stays, held, showing its status (a closed one answers the same fields).
    expect(await s.v6({ type: "pane_info", pane: p })).toMatchObject({ v: 6, type: "pane_info", pane: p, exited: true, exit_code: 7, signal: null });
  });
});

describe("wait_for", () => {
  test("output that is already there matches at once; output that comes later wakes it", async () => {
    const p = (await s.v6({ type: "tab_new", workspace: "Games", cwd: "/tmp", command: ["cat"] })).pane;
    await s.v6({ type: "pane_send", pane: p, text: "first-thing", enter: true });
    expect(await s.v6({ type: "wait_for", condition: "output", pane: p, pattern: "first-(\\w+)" })).toMatchObject({ type: "wait_result", match: "first-thing", groups: ["thing"], line: 1 });
    const waiting = s.v6({ type: "wait_for", condition: "output", pane: p, pattern: "LATER (\\d+)", ignore_case: true, timeout: 10000 });
    await s.v6({ type: "pane_send", pane: p, text: "later 42", enter: true });
    expect(await waiting).toMatchObject({ match: "later 42", groups: ["42"] });
  });

  test("output: a bad regex and missing fields are invalid_params", async () => {
    expect(await s.v6({ type: "wait_for", condition: "output", pane: 1, pattern: "(" })).toMatchObject({ code: "invalid_params", hint: { param: "pattern" } });
    expect(await s.v6({ type: "wait_for", condition: "output", pane: 1 })).toMatchObject({ code: "invalid_params", hint: { param: "pattern" } });
    expect(await s.v6({ type: "wait_for", condition: "idle", pane: 1 })).toMatchObject({ code: "invalid_params", hint: { param: "idle_ms" } });
  });

  test("output of a pane that closes ends with pane_exited", async () => {
    const p = (await s.v6({ type: "tab_new", workspace: "Games", cwd: "/tmp", command: ["cat"] })).pane;
    const waiting = s.v6({ type: "wait_for", condition: "output", pane: p, pattern: "never", timeout: 10000 });
    await s.v6({ type: "pane_close", pane: p });
    expect(await waiting).toMatchObject({ code: "pane_exited" });
  });

  test("idle: ends only once the pane has been quiet for idle_ms", async () => {
    const p = (await s.v6({ type: "tab_new", workspace: "Games", cwd: "/tmp", command: ["sh", "-c", "for i in 1 2 3 4 5 6; do echo tick; sleep 0.1; done; exec cat"] })).pane;
    const t0 = Date.now();
    const r = await s.v6({ type: "wait_for", condition: "idle", pane: p, idle_ms: 300, timeout: 10000 });
    expect(r).toMatchObject({ type: "wait_result", condition: "idle" });
    expect(r.idle_ms).toBeGreaterThanOrEqual(300);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(300);
    expect((await s.v6({ type: "pane_read", pane: p })).text.split("\n").filter((l: string) => l === "tick")).toHaveLength(6);
  });

  test("workspace_exists and pane_exists wake when it appears", async () => {
    const w = s.v6({ type: "wait_for", condition: "workspace_exists", workspace: "later", timeout: 10000 });
    await s.v6({ type: "workspace_new", name: "Later" });
    expect(await w).toMatchObject({ type: "wait_result", workspace: "Later" });
    const next = (await s.v6({ type: "hello" })) && (await s.v6({ type: "session_snapshot" })).panes.reduce((m, p) => Math.max(m, p.pane), 0) + 1;
    const pw = s.v6({ type: "wait_for", condition: "pane_exists", pane: next, timeout: 10000 });
    const made = (await s.v6({ type: "tab_new", workspace: "Later", cwd: "/tmp", command: ["cat"] })).pane;
    expect(made).toBe(next);
    expect(await pw).toMatchObject({ type: "wait_result", pane: next, workspace: "Later" });
  });

  test("agent_status wakes on the agent's status change", async () => {
    const p = (await s.v6({ type: "tab_new", workspace: "Games", cwd: "/tmp", command: ["cat"] })).pane;
    expect(await s.v6({ type: "wait_for", condition: "agent_status", pane: p, statuses: ["none"] })).toMatchObject({ status: "none" });
    expect(await s.v6({ type: "wait_for", condition: "agent_status", pane: p, statuses: ["sleepy"] })).toMatchObject({ code: "invalid_params", hint: { param: "statuses" } });
    const w = s.v6({ type: "wait_for", condition: "agent_status", pane: p, statuses: ["done", "blocked"], timeout: 10000 });
    await s.request({ v: 1, type: "report", pane: p, agent: "claude", event: "UserPromptSubmit", payload: {} });
    await s.request({ v: 1, type: "report", pane: p, agent: "claude", event: "Stop", payload: {} });
    expect(await w).toMatchObject({ type: "wait_result", pane: p, status: "done" });
  });

  test("exit: a pane closed rather than exiting says so", async () => {
    const p = (await s.v6({ type: "tab_new", workspace: "Games", cwd: "/tmp", command: ["cat"] })).pane;
    const w = s.v6({ type: "wait_for", condition: "exit", pane: p, timeout: 10000 });
    await s.v6({ type: "pane_close", pane: p });
    expect(await w).toMatchObject({ type: "wait_result", pane: p, closed: true, exit_code: null });
  });

  test("a wait whose client goes away is dropped (the server stays responsive)", async () => {
    const c = await Conn.open(s.sock);
    c.send({ v: 6, type: "wait_for", condition: "pane_exists", pane: 77777, timeout: 60000 });
    c.close();
    expect((await s.v6({ type: "hello" })).type).toBe("hello");
  });
});

describe("snapshot and layout", () => {
  test("session_snapshot holds every workspace, tab, tree and pane, and the seq it is current at", async () => {
    const snap = await s.v6({ type: "session_snapshot" });
    const hello = await s.v6({ type: "hello" });
    expect(snap.boot_id).toBe(hello.boot_id);
    expect(snap.seq).toBe(hello.seq);
    const list = await s.list();
    expect(snap.workspaces.map((w) => w.name)).toEqual(list.map((w) => w.name));
    for (const w of snap.workspaces) for (const t of w.tabs) for (const p of t.panes) expect(snap.panes.some((x) => x.pane === p && x.tab === t.id)).toBe(true);
  });

  test("layout_apply builds a tab from a tree; layout_export gives the same tree back", async () => {
    const root: TreeNode = {
      type: "split",
      direction: "right",
      ratio: 0.3,
      first: { type: "pane", label: "left", cwd: "/tmp", command: ["cat"] },
      second: { type: "split", direction: "down", ratio: 0.6, first: { type: "pane", cwd: "/usr", command: ["cat"] }, second: { type: "pane", cwd: "/", command: ["cat"] } },
    };
    const r = await s.v6({ type: "layout_apply", workspace: "Games", name: "built", root });
    expect(r).toMatchObject({ type: "layout", workspace: "Games", panes: [expect.any(Number), expect.any(Number), expect.any(Number)] });
    const e = await s.v6({ type: "layout_export", tab: r.tab });
    const strip = (n: TreeNode): unknown => (n.type === "pane" ? { type: "pane", cwd: n.cwd, command: n.command } : { type: "split", direction: n.direction, ratio: n.ratio, first: strip(n.first), second: strip(n.second) });
    expect(strip(e.root)).toEqual(strip(root));
    expect(((e.root as SplitNode).first as PaneNode).label).toBe("left");
    // Replacing it: a new tab with new panes in the old one's place, the old one gone.
    await s.v6({ type: "tab_new", workspace: "Games", name: "after-built", cwd: "/tmp" });
    const names = async () => (await s.list()).find((w) => w.name === "Games")!.tabs.map((t) => t.name);
    const at = (await names()).indexOf("built");
    const again = await s.v6({ type: "layout_apply", tab: r.tab, name: "rebuilt", root: { type: "pane", cwd: "/tmp", command: ["cat"] } });
    expect(again.tab).not.toBe(r.tab);
    expect((await names()).indexOf("rebuilt")).toBe(at);
    expect((await names()).indexOf("after-built")).toBe(at + 1);
    expect(await s.v6({ type: "layout_export", tab: r.tab })).toMatchObject({ code: "tab_not_found" });
    expect(await s.v6({ type: "layout_apply", root: { type: "split", direction: "sideways" } })).toMatchObject({ code: "invalid_params", hint: { param: "root" } });
  });

  test("pane_resize, pane_swap and pane_zoom change the tab and reply with the new tree", async () => {
    const r = await s.v6({ type: "layout_apply", workspace: "Games", root: { type: "split", direction: "right", ratio: 0.5, first: { type: "pane", command: ["cat"] }, second: { type: "pane", command: ["cat"] } } });
    const [a, b] = r.panes;
    const grown = await s.v6({ type: "pane_resize", pane: a, direction: "right", cells: 6 });
    expect(grown.changed).toBe(true);
    expect((grown.root as SplitNode).ratio).toBeGreaterThan(0.5);
    const shrunk = await s.v6({ type: "pane_resize", pane: b, direction: "left", cells: 12 });
    expect((shrunk.root as SplitNode).ratio).toBeLessThan((grown.root as SplitNode).ratio);
    expect((await s.v6({ type: "pane_resize", pane: a, direction: "up" })).changed).toBe(false);
    const swapped = await s.v6({ type: "pane_swap", pane: a, with: b });
    expect(swapped.panes).toEqual([b, a]);
    expect(await s.v6({ type: "pane_swap", pane: a, with: 1 })).toMatchObject({ code: "cross_tab", hint: { param: "with" } });
    const z = await s.v6({ type: "pane_zoom", pane: b, mode: "on" });
    expect(z).toMatchObject({ zoomed: b, focused: b, changed: true });
    expect((await s.v6({ type: "pane_zoom", pane: b, mode: "on" })).changed).toBe(false);
    expect((await s.v6({ type: "pane_zoom", pane: b })).zoomed).toBeNull();
    expect((await s.v6({ type: "pane_info", pane: b })).tab).toBe(await tabOf(a!));
  });
});
