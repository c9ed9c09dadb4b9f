// Panes for scripts: kept panes read after their program exits and respawned with the same id; `env`
// reaching the program (ws's own variables winning); labels following the foreground program, in
// pane_list and in the attached UI; renames and moves seen in events; moves keep the program
// running and the id; ws pane list --format. A real daemon, real shells, the real socket.
import { describe, expect, test } from "bun:test";
import { Conn, processAlive, readUntil, TestServer, useServer, waitFor, wsArgv } from "./harness";
import { Tmux } from "./tmux-driver";
import type { Replies, SplitNode } from "./replies";
import { parseArgs } from "../src/cli-table/parse";
import { buildCommandTable } from "../src/cli-table/table";

// A program failing within 2 s of its start is held (5 s by default): the test of one that fails
// later waits that long.
const s = useServer({ env: { WS_FAILED_START_MS: "2000" } });

const info = (pane: number) => s.v6({ type: "pane_info", pane });
const list = async () => (await s.v6({ type: "pane_list" })).panes;
const row = async (pane: number) => (await list()).find((p) => p.pane === pane);
/** A new background tab running argv; its pane id. */
async function tab(argv: string[], extra: string[] = []): Promise<number> {
  return Number((await s.ok(["tab", "new", ...extra, "--", ...argv])).trim());
}

async function subscribe(types: string[]): Promise<Conn> {
  const c = await Conn.open(s.sock);
  c.send({ v: 6, id: "sub", type: "subscribe", types });
  expect((await c.nextJson()).type).toBe("subscribed");
  return c;
}


describe("keep and respawn", () => {
  test("a kept pane is read after its program exits; pane_info has its exit code", async () => {
    const pane = await tab(["sh", "-c", "echo hi; exit 3"], ["--keep"]);
    const i = await waitFor("the program to exit", async () => ((await info(pane)).exited ? info(pane) : undefined));
    expect(i).toMatchObject({ pane, exited: true, exit_code: 3 });
    expect(i.workspace).toBe("main"); // still in its tab: the full info, not the record of a closed pane
    const text = await s.waitScreen(pane, "[exited: status 3]");
    expect(text.split("\n")).toEqual(["hi", "[exited: status 3]"]);
    // Still there through the CLI too.
    expect(await s.ok(["pane", "read", String(pane)])).toContain("hi");
    const r = await row(pane);
    expect(r).toMatchObject({ exited: true, exit_code: 3, command: [] });
    // search finds its text.
    const found = await s.v6({ type: "search", pattern: "[exited: status 3]", panes: [pane] });
    expect(found.matches.map((m) => m.text)).toEqual(["[exited: status 3]"]);
    expect((await s.v6({ type: "search", pattern: "hi", panes: [pane] })).matches.map((m) => m.text)).toEqual(["hi"]);
    // Waits answer as for any exited pane; text sent to it goes nowhere.
    expect(await s.v6({ type: "wait_for", condition: "exit", pane, timeout: 1000 })).toMatchObject({ type: "wait_result", exit_code: 3, closed: false });
    // At v6 text sent to it is refused with pane_exited (nothing reads it); v2 lines keep their plain ok.
    expect(await s.v6({ type: "pane_send", pane, text: "ignored", enter: true })).toMatchObject({ type: "error", code: "pane_exited" });
    expect(await s.request({ v: 2, type: "pane_send", pane, text: "ignored", enter: true })).toMatchObject({ type: "ok" });
    expect(await s.screen(pane)).toBe("hi\n[exited: status 3]");
    expect(await s.v6({ type: "run", pane, command: "true" })).toMatchObject({ type: "error", code: "pane_exited" });
    expect(await s.v6({ type: "pane_send_keys", pane, keys: ["Enter"] })).toMatchObject({ type: "error", code: "pane_exited" });
  });

  test("a kept pane killed by a signal says which", async () => {
    const r = await s.v6({ type: "tab_new", command: ["sh", "-c", "kill -TERM $$"], keep: true });
    await s.waitScreen(r.pane, "[exited: signal SIGTERM]");
    expect(await info(r.pane)).toMatchObject({ exited: true, exit_code: null });
  });

  test("without keep, a pane still closes when its program exits (failing after its first seconds)", async () => {
    const pane = await tab(["sh", "-c", "sleep 2.5; exit 4"]);
    await waitFor("the pane to close", async () => !(await list()).some((p) => p.pane === pane), 20_000);
    expect<unknown>(await info(pane)).toEqual({ v: 6, type: "pane_info", pane, exited: true, exit_code: 4, signal: null }); // a closed pane's info: these fields only
  });

  test("respawn runs a program again in the same pane; a running one is killed first", async () => {
    const pane = await tab(["sh", "-c", "echo first; exit 1"], ["--keep"]);
    await s.waitScreen(pane, "[exited: status 1]");
    const events = await subscribe(["pane_respawned"]);
    expect((await s.ok(["pane", "respawn", String(pane), "--", "sh", "-c", "echo second; exec sleep 1000"])).trim()).toBe(String(pane));
    expect((await readUntil(events, (e) => e.event === "pane_respawned"))[0]).toMatchObject({ event: "pane_respawned", pane, workspace: "main" });
    const text = await s.waitScreen(pane, "second");
    expect(text).toContain("first"); // the old output stays above
    // A wait for its exit now waits for the new program, not the last one's exit.
    const wait = await s.v6({ type: "wait_for", condition: "exit", pane, timeout: 300 });
    expect(wait).toMatchObject({ type: "error", code: "timeout" });
    const running = await info(pane);
    expect(running).toMatchObject({ exited: false, exit_code: null, command: ["sh", "-c", "echo second; exec sleep 1000"] });
    // Respawning a running pane (its own command again, by default) hangs the old program up.
    const oldPid = running.pid as number;
    expect(await s.v6({ type: "pane_respawn", pane })).toMatchObject({ type: "pane", pane });
    await waitFor("the old program to go", () => !processAlive(oldPid));
    const again = await info(pane);
    expect(again.pid).not.toBe(oldPid);
    expect(again.exited).toBe(false);
    events.close();
  });

  test("a respawned shell gets shell integration again: run works in it", async () => {
    const pane = await tab([], ["--keep"]);
    expect(await s.v6({ type: "run", pane, command: "echo one", timeout: 15000 })).toMatchObject({ type: "run_result", exit_code: 0, output: "one\n" });
    await s.ok(["pane", "send", String(pane), "exit 6", "--enter"]);
    await s.waitScreen(pane, "[exited: status 6]");
    await s.ok(["pane", "respawn", String(pane)]);
    expect(await s.v6({ type: "run", pane, command: "echo two; false", timeout: 15000 })).toMatchObject({ type: "run_result", exit_code: 1, output: "two\n" });
    // The old lines stay as they were, above the new shell's.
    const lines = (await s.screen(pane)).split("\n");
    expect(lines.indexOf("[exited: status 6]")).toBeGreaterThan(lines.findIndex((l) => l.endsWith("exit 6")));
    expect(lines.indexOf("two")).toBeGreaterThan(lines.indexOf("[exited: status 6]"));
  });

  test("a program that exited on the alternate screen: respawn comes back to the main screen", async () => {
    const pane = await tab(["sh", "-c", "echo before; printf '\\033[?1049h\\033[?1h'; echo inalt; exit 2"], ["--keep"]);
    await s.waitScreen(pane, "[exited: status 2]");
    await s.ok(["pane", "respawn", String(pane), "--", "sh", "-c", "echo after; exec sleep 1000"]);
    const text = await s.waitScreen(pane, "after");
    expect(text.split("\n")).toEqual(["before", "after"]);
  });

  test("respawn refuses a program that can't start and changes nothing", async () => {
    const pane = await tab(["sleep", "1000"], ["--keep"]);
    const before = await info(pane);
    const r = await s.v6({ type: "pane_respawn", pane, command: ["no-such-program-xyz"] });
    expect(r).toMatchObject({ type: "error", code: "program_not_found" });
    expect((await info(pane)).pid).toBe(before.pid);
    expect(processAlive(before.pid!)).toBe(true);
  });

  test("layout leaves take keep", async () => {
    const r = await s.v6({ type: "layout_apply", root: { type: "split", direction: "right", ratio: 0.5, first: { type: "pane", command: ["sh", "-c", "echo left; exit 5"], keep: true }, second: { type: "pane", command: ["sleep", "1000"] } } });
    expect(r.type).toBe("layout");
    const [left] = r.panes as number[];
    await s.waitScreen(left!, "[exited: status 5]");
    expect(((await s.v6({ type: "layout_export", pane: left })).root as SplitNode).first).toMatchObject({ type: "pane", keep: true });
  });
});

describe("env", () => {
  test("env reaches the program; WS_PANE_ID can't be overridden", async () => {
    const pane = await tab(["sh", "-c", 'echo "[$GREETING] [$WS_PANE_ID] [$TWO]"; exec sleep 1000'], ["--env", "GREETING=hello world", "--env=WS_PANE_ID=999", "--env", "TWO=a=b"]);
    await s.waitScreen(pane, `[hello world] [${pane}] [a=b]`);
  });

  test("--env repeats, a value may hold =, and any name is a key (no prototype games)", () => {
    const cmd = buildCommandTable().find((c) => c.path === "split")!;
    const fields = parseArgs(cmd, ["1", "--env", "A=1", "--env=B=x=y", "--env", "__proto__=z", "--", "sh"], {}, () => "/");
    expect(fields.env).toEqual(JSON.parse('{"A":"1","B":"x=y","__proto__":"z"}'));
    expect(Object.keys(fields.env as object)).toEqual(["A", "B", "__proto__"]);
    expect(() => parseArgs(cmd, ["1", "--env", "=x"], {}, () => "/")).toThrow("NAME=VALUE");
    expect(() => parseArgs(cmd, ["1", "--env"], {}, () => "/")).toThrow("needs a NAME=VALUE");
  });

  test("split and layout leaves take env", async () => {
    const base = await tab(["sleep", "1000"]);
    const r = await s.v6({ type: "split", pane: base, cwd: "/", command: ["sh", "-c", 'echo "split=$X"; exec sleep 1000'], env: { X: "1" }, focus: false });
    await s.waitScreen(r.pane, "split=1");
    const l = await s.v6({ type: "layout_apply", root: { type: "pane", command: ["sh", "-c", 'echo "leaf=$Y"; exec sleep 1000'], env: { Y: "2" } } });
    await s.waitScreen(l.panes[0]!, "leaf=2");
  });

  test("bad env is refused before anything starts", async () => {
    const before = (await list()).length;
    for (const env of [{ "1BAD": "x" }, { "A-B": "x" }, { OK: "nul\u0000" }, { OK: 3 }, ["A=b"]]) {
      const r = await s.v6({ type: "tab_new", command: ["sleep", "1"], env });
      expect(r, JSON.stringify(env)).toMatchObject({ type: "error", code: "invalid_params" });
    }
    const tooMany = Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`V${i}`, "x"]));
    expect(await s.v6({ type: "tab_new", command: ["sleep", "1"], env: tooMany })).toMatchObject({ type: "error", code: "invalid_params" });
    const leaf = await s.v6({ type: "layout_apply", root: { type: "pane", env: { "=": "x" } } });
    expect(leaf).toMatchObject({ type: "error", code: "invalid_params" });
    expect(leaf.message).toContain("root.env");
    expect((await list()).length).toBe(before);
    const cli = await s.run(["tab", "new", "--env", "NOEQUALS", "--", "true"]);
    expect(cli.code).toBe(2);
    expect(cli.stderr).toContain("NAME=VALUE");
  });
});

describe("labels follow the program", () => {
  test("a shell running sleep is labelled sleep, in pane_list and its tab's name; back to the shell after", async () => {
    const pane = await tab([]);
    await s.waitScreen(pane, /[$#] ?$/m); // a prompt
    expect((await row(pane))!.label).toBe("bash");
    // sleep runs until the test stops it (C-c): how long labels take to follow is no race.
    await s.ok(["pane", "send", String(pane), "sleep 600", "--enter"]);
    const r = await waitFor("the label to follow sleep", async () => {
      const x = await row(pane);
      return x!.label === "sleep" ? x : undefined;
    });
    expect(r.tab_name).toBe("sleep");
    expect(r.command).toEqual(["sleep", "600"]);
    await s.ok(["pane", "keys", String(pane), "C-c"]);
    await waitFor("the label to come back to bash", async () => (await row(pane))!.label === "bash");
  });

  test("a title the shell set is its label only while the shell is in the foreground; a name always wins", async () => {
    const pane = await tab([]);
    await s.waitScreen(pane, /[$#] ?$/m); // a prompt
    await s.ok(["pane", "send", String(pane), "printf '\\033]2;my title\\007'", "--enter"]);
    await waitFor("the title to be the label", async () => (await row(pane))!.label === "my title");
    await s.ok(["pane", "send", String(pane), "sleep 600", "--enter"]);
    await waitFor("sleep to be the label", async () => (await row(pane))!.label === "sleep");
    await s.ok(["pane", "keys", String(pane), "C-c"]);
    await waitFor("the title again", async () => (await row(pane))!.label === "my title");
    await s.ok(["pane", "rename", String(pane), "named"]);
    expect((await row(pane))!.label).toBe("named");
    await s.ok(["pane", "send", String(pane), "sleep 600", "--enter"]);
    await waitFor("sleep to have started", async () => (await row(pane))!.command[0] === "sleep");
    expect((await row(pane))!.label).toBe("named");
    await s.ok(["pane", "rename", String(pane), ""]);
    expect((await row(pane))!.name).toBeNull();
  });
});

describe("renames", () => {
  test("workspace, tab and pane renames are seen in events", async () => {
    await s.ok(["workspace", "new", "rn"]);
    const pane = (await list()).find((p) => p.workspace === "rn")!.pane as number;
    const c = await subscribe(["workspace_renamed", "tab_renamed", "pane_renamed"]);
    await s.ok(["workspace", "rename", "rn", "renamed"]);
    await s.ok(["tab", "rename", "1", "logs", "--workspace", "renamed"]);
    await s.ok(["pane", "rename", String(pane), "tail"]);
    const got = await readUntil(c, (e) => e.event === "pane_renamed" && e.name === "tail");
    expect(got.find((e) => e.event === "workspace_renamed")).toMatchObject({ workspace: "renamed", from: "rn" });
    expect(got.find((e) => e.event === "tab_renamed")).toMatchObject({ workspace: "renamed", name: "logs" });
    expect(got.at(-1)).toMatchObject({ event: "pane_renamed", workspace: "renamed", pane, name: "tail", label: "tail" });
    const r = await row(pane);
    expect(r).toMatchObject({ workspace: "renamed", tab_name: "logs", label: "tail", name: "tail" });
    // An empty tab name gives the tab back its automatic name.
    await s.ok(["tab", "rename", "logs", "", "--workspace", "renamed"]);
    expect((await row(pane))!.tab_name).toBe("tail");
    c.close();
  });

  test("refusals", async () => {
    expect(await s.v6({ type: "workspace_rename", name: "nope", to: "x" })).toMatchObject({ code: "workspace_not_found" });
    expect(await s.v6({ type: "workspace_rename", name: "renamed", to: "MAIN" })).toMatchObject({ code: "workspace_exists" });
    expect(await s.v6({ type: "tab_rename", tab: "99", to: "x" })).toMatchObject({ code: "tab_not_found" });
    expect(await s.v6({ type: "pane_rename", pane: 9999, name: "x" })).toMatchObject({ code: "pane_not_found" });
    expect(await s.v6({ type: "pane_rename", pane: 1, name: "bad\u001bname" })).toMatchObject({ code: "invalid_params" });
  });
});

describe("move", () => {
  const ticker = ["sh", "-c", 'i=0; while :; do i=$((i+1)); echo "tick $i"; sleep 0.1; done'];
  const lastTick = async (pane: number) => Math.max(0, ...[...(await s.screen(pane, true)).matchAll(/tick (\d+)/g)].map((m) => Number(m[1])));

  test("a running pane moves beside a pane in another workspace, keeps its id and program, and its tab closes", async () => {
    await s.ok(["workspace", "new", "dest"]);
    const target = (await list()).find((p) => p.workspace === "dest")!.pane as number;
    const pane = await tab(ticker);
    const before = await info(pane);
    await waitFor("ticks", async () => (await lastTick(pane)) > 0);
    const c = await subscribe(["pane_moved", "tab_closed", "layout_changed"]);
    const r = await s.v6({ type: "pane_move", pane, beside: target, right: false, size: 5 });
    expect(r).toMatchObject({ type: "moved", pane, workspace: "dest" });
    const got = await readUntil(c, (e) => e.event === "pane_moved");
    expect(got.find((e) => e.event === "tab_closed")).toMatchObject({ workspace: "main", tab: before.tab });
    expect(got.at(-1)).toMatchObject({ event: "pane_moved", pane, workspace: "dest", tab: r.tab, from_workspace: "main", from_tab: before.tab });
    const after = await info(pane);
    expect(after).toMatchObject({ pane, pid: before.pid, workspace: "dest", tab: r.tab, rows: 5 });
    const n = await lastTick(pane);
    await waitFor("the program to keep printing", async () => (await lastTick(pane)) > n);
    c.close();
  });

  test("to a new tab, to a new workspace, and within its own tab", async () => {
    const pane = await tab(ticker);
    const { tab: home } = await info(pane);
    const other = (await s.v6({ type: "split", pane, cwd: "/", command: ["sleep", "1000"], focus: false })).pane as number;
    // break-pane: out into a new tab of its workspace, named.
    const r1 = await s.ok(["--json", "pane", "move", String(pane), "--name", "ticker"]);
    const moved = JSON.parse(r1);
    expect(moved.tab).not.toBe(home);
    expect(await row(pane)).toMatchObject({ workspace: "main", tab: moved.tab, tab_name: "ticker" });
    expect(await row(other)).toMatchObject({ tab: home });
    // Back beside `other`, below it.
    await s.ok(["pane", "move", String(pane), "--beside", String(other), "--below"]);
    expect((await s.v6({ type: "layout_export", pane })).root).toMatchObject({ type: "split", direction: "down", first: { pane: other }, second: { pane } });
    // Within its own tab: to the right of `other` instead.
    await s.ok(["pane", "move", String(pane), "--beside", String(other)]);
    expect((await s.v6({ type: "layout_export", pane })).root).toMatchObject({ type: "split", direction: "right", first: { pane: other }, second: { pane } });
    // Into a new workspace.
    const c = await subscribe(["workspace_created", "pane_moved"]);
    await s.ok(["pane", "move", String(pane), "--new-workspace", "solo"]);
    const got = await readUntil(c, (e) => e.event === "pane_moved");
    expect(got[0]).toMatchObject({ event: "workspace_created", workspace: "solo" });
    expect(await row(pane)).toMatchObject({ workspace: "solo", tab_number: 1 });
    const n = await lastTick(pane);
    await waitFor("it to keep printing", async () => (await lastTick(pane)) > n);
    c.close();
  });

  test("moves that make no sense are refused with clear codes, changing nothing", async () => {
    const pane = await tab(["sleep", "1000"]);
    const before = await s.v6({ type: "session_snapshot" });
    expect(await s.v6({ type: "pane_move", pane, beside: pane })).toMatchObject({ code: "invalid_move" });
    expect(await s.v6({ type: "pane_move", pane })).toMatchObject({ code: "invalid_move" });
    expect(await s.v6({ type: "pane_move", pane, workspace: "main" })).toMatchObject({ code: "invalid_move" });
    expect(await s.v6({ type: "pane_move", pane, new_workspace: "MAIN" })).toMatchObject({ code: "workspace_exists" });
    expect(await s.v6({ type: "pane_move", pane, beside: 99999 })).toMatchObject({ code: "pane_not_found" });
    expect(await s.v6({ type: "pane_move", pane, workspace: "nope" })).toMatchObject({ code: "workspace_not_found" });
    expect(await s.v6({ type: "pane_move", pane, beside: 1, workspace: "main" })).toMatchObject({ code: "invalid_params" });
    const after = await s.v6({ type: "session_snapshot" });
    expect(after.workspaces).toEqual(before.workspaces);
  });
});

describe("ws pane list", () => {
  test("--format fills in each {key}; an unknown key is a usage error naming the valid ones", async () => {
    const pane = await tab(["sleep", "777"]);
    const out = await waitFor("sleep in the list", async () => {
      const text = await s.ok(["pane", "list", "--format", "{pane}|{command}|{workspace}:{tab_number}|{exited}"]);
      return text.split("\n").includes(`${pane}|sleep 777|main:${(await row(pane))!.tab_number}|false`) ? text : undefined;
    });
    expect(out.trim().split("\n").length).toBe((await list()).length);
    const bad = await s.run(["pane", "list", "--format", "{pane} {nope}"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("{nope}");
    expect(bad.stderr).toContain("{command}");
    const json: Replies["pane_list"] = JSON.parse(await s.ok(["--json", "pane", "list", "--workspace", "main"]));
    expect(json.type).toBe("pane_list");
    expect(json.panes.every((p) => p.workspace === "main")).toBe(true);
    expect(json.panes.find((p) => p.pane === pane)).toMatchObject({ pid: expect.any(Number), cols: expect.any(Number), rows: expect.any(Number), focused: true, agent_status: null, start_command: ["sleep", "777"] });
  });
});

describe("attached UI", () => {
  test("a pane running top shows top in its header and its tab's name", async () => {
    const srv = await new TestServer().start();
    const tmux = new Tmux(srv.env);
    try {
      await tmux.open("ws", `${wsArgv().join(" ")} attach; sleep 3600`, 100, 30);
      await tmux.waitFor("ws", "[main] tab 1/1");
      await srv.ok(["pane", "send", "1", "top", "--enter"]);
      await tmux.waitFor("ws", (screen) => / 1:top /.test(screen.split("\n")[0]!));
      // The exited state of a kept pane shows in its header.
      await srv.ok(["split", "1", "--keep", "--", "sh", "-c", "exit 7"]);
      await tmux.waitFor("ws", "[exited: status 7]");
    } finally {
      await tmux.kill();
      await srv.stop();
    }
  });
});

describe("saved sessions", () => {
  test("keep, a pane's name and its env come back after kill-server --keep", async () => {
    const srv = await new TestServer().start();
    try {
      const kept = Number((await srv.ok(["tab", "new", "--keep", "--env", "SAVED=yes", "--", "sh", "-c", 'echo "saved=$SAVED"; exit 2'])).trim());
      await srv.waitScreen(kept, "[exited: status 2]");
      await srv.ok(["pane", "rename", String(kept), "result"]);
      expect((await srv.run(["kill-server", "--keep"])).code).toBe(0);
      await waitFor("the server to be gone", async () => (await srv.run(["pane", "list"])).code !== 0, 20_000);
      await srv.ok(["start"]);
      const panes = (await srv.call({ type: "pane_list" })).panes;
      const back = panes.find((p) => p.name === "result")!;
      expect(back).toMatchObject({ label: "result", start_command: ["sh", "-c", 'echo "saved=$SAVED"; exit 2'] });
      // Its program ran again with its env, and it is kept again when it exits.
      await srv.waitScreen(back.pane, /saved=yes[^]*\[exited: status 2\][^]*saved=yes[^]*\[exited: status 2\]/);
      expect((await srv.v6({ type: "layout_export", pane: back.pane })).root).toMatchObject({ keep: true });
    } finally {
      await srv.stop();
    }
  });
});
