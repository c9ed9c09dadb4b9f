// The model: what a client sends can't leave a half-made workspace or pane behind.
// Names hold no control or bidi-override characters and at most 128 characters; a program or cwd
// that isn't there is refused before the layout changes; pane limits per request and per server.
// Every check runs against the real daemon, socket and PTYs (and the compiled binary with WS_BIN).
import { expect, test } from "bun:test";
import { chmodSync, existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { TestServer, useServer, waitFor } from "./harness";
import type { AnyReply, Replies } from "./replies";
import { MAX_PANES_PER_REQUEST } from "../src/model/limits";
import { decode } from "../src/features/persistence/format";
import { applySave } from "../src/features/persistence/restore";
import { Session } from "../src/model/session";
import { paneBaseEnv } from "../src/model/launch";
import { NAME_MAX_LENGTH } from "../src/protocol/names";

const s = useServer();

/** The model as a client sees it, minus what moves by itself (the event counter). */
async function model(server = s): Promise<unknown> {
  const snap = await server.v6({ type: "session_snapshot" });
  expect(snap.type).toBe("snapshot");
  const { seq: _seq, ...rest } = snap;
  return rest;
}

/** The daemon's child processes (each pane's program is one). */
function children(server = s): number[] {
  const daemon = server.daemonPid()!;
  const out: number[] = [];
  for (const d of readdirSync("/proc")) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = readFileSync(`/proc/${d}/stat`, "utf8");
      if (Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]) === daemon) out.push(Number(d));
    } catch {}
  }
  return out.sort((a, b) => a - b);
}

/** Children started since `kids` was taken. One of `kids` may have exited meanwhile (an earlier
 * test's pane still on its way out): that is not a process this request started. */
function startedSince(kids: number[], server = s): number[] {
  return children(server).filter((k) => !kids.includes(k));
}

/** A layout tree with `n` leaves, each running `command`. */
function tree(n: number, command: string[] = ["cat"]): Record<string, unknown> {
  if (n === 1) return { type: "pane", command, cwd: "/tmp" };
  const a = Math.floor(n / 2);
  return { type: "split", direction: n % 2 ? "right" : "down", ratio: 0.5, first: tree(a, command), second: tree(n - a, command) };
}

// ---- names -------------------------------------------------------------------------------------

test('ws call workspace_new \'{"name":"x\\u0000"}\' is refused with invalid_params and leaves nothing; a restart restores the session', async () => {
  const before = await model();
  const legacy = await s.run(["call", "workspace_new", '{"name":"x\\u0000"}']);
  expect(legacy.code).toBe(1);
  expect(legacy.stdout).toBe("error: invalid message: invalid name in `name`: it holds the control character U+0000 (names may not hold control or bidi-override characters)\n");
  const v6 = await s.run(["call", "workspace_new", '{"v":6,"name":"x\\u0000"}']);
  // A value refused is a usage error (exit 2), the reply printed as it came.
  expect(v6.code).toBe(2);
  expect(JSON.parse(v6.stdout)).toMatchObject({ type: "error", code: "invalid_params", hint: { param: "name" } });
  expect(await model()).toEqual(before);
  // workspace_close of such a name is refused too, never a false "ok".
  expect(await s.v6({ type: "workspace_close", name: "x\u0000" })).toMatchObject({ code: "invalid_params", hint: { param: "name" } });

  await s.ok(["workspace", "new", "Kept"]);
  const names = (await s.list()).map((w) => w.name);
  expect((await s.run(["kill-server", "--keep"])).code).toBe(0);
  await waitFor("the old server to go", () => !existsSync(s.sock));
  await s.start();
  expect((await s.list()).map((w) => w.name)).toEqual(names);
  await s.ok(["workspace", "close", "Kept"]);
});

const BAD_NAMES: [string, string][] = [
  ["NUL", "x\u0000y"],
  ["ESC", "evil\u001b[2J"],
  ["newline", "two\nlines"],
  ["tab", "a\tb"],
  ["DEL", "a\u007f"],
  ["C1 CSI", "a\u009b2J"],
  ["bidi override", "abc\u202egpj.exe"],
  ["bidi isolate", "a\u2066b\u2069"],
  ["line separator", "a\u2028b"],
  ["unpaired surrogate", "a\ud800b"],
  ["empty", ""],
  ["only spaces", "   "],
  ["too long", "n".repeat(NAME_MAX_LENGTH + 1)],
];

const PLACEHOLDER: Record<string, unknown> = { string: "x", integer: 1, number: 1, boolean: false, "string[]": [], "integer[]": [], pairs: [], object: {}, any: null };
const SHOWN_UNSAFE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800]/;

test("every name field of every message refuses each kind of bad name with invalid_params naming the field", async () => {
  const before = await model();
  const cat = await s.v6({ type: "describe" });
  const nameFields = cat.messages.flatMap((m) => m.fields.filter((f) => f.format === "name").map((f) => ({ m, f: f.name as string })));
  // The fields that name workspaces, tabs and projects are all held to the rule.
  expect(nameFields.map((x) => `${x.m.type}.${x.f}`)).toEqual(
    expect.arrayContaining(["workspace_new.name", "workspace_close.name", "workspace_focus.name", "tab_new.name", "tab_new.workspace", "tab_new.project", "tab_close.tab", "open_tab.name", "open_tab.project", "layout_apply.name", "layout_apply.workspace", "project_attach.slug", "project_renamed.to"]),
  );
  let checked = 0;
  for (const { m, f } of nameFields) {
    const base: Record<string, unknown> = { ...(m.example ?? {}) };
    delete base.v;
    delete base.id;
    // Messages without an example get valid values for their other required fields.
    for (const g of m.fields) if (g.required && base[g.name] === undefined) base[g.name] = PLACEHOLDER[g.type];
    for (const [what, bad] of BAD_NAMES) {
      const r = await s.request({ ...base, [f]: bad, v: 6, type: m.type });
      expect({ field: `${m.type}.${f}`, what, code: r.code, param: r.hint?.param }).toEqual({ field: `${m.type}.${f}`, what, code: "invalid_params", param: f });
      expect(r.message).not.toMatch(SHOWN_UNSAFE); // the error never echoes the bad characters
      checked++;
    }
  }
  expect(checked).toBe(nameFields.length * BAD_NAMES.length);
  // A layout tree's labels are names too.
  for (const [what, bad] of BAD_NAMES.filter(([w]) => w !== "empty")) {
    const r = await s.v6({ type: "layout_apply", root: { type: "pane", label: bad, command: ["cat"] } });
    expect({ what, code: r.code, param: r.hint?.param }).toEqual({ what, code: "invalid_params", param: "root" });
    expect(r.message).toContain("root.label");
  }
  expect(await model()).toEqual(before);
});

test("names up to 128 characters of any script (and emoji) are fine", async () => {
  const long = "ä".repeat(NAME_MAX_LENGTH);
  expect(await s.request({ v: 2, type: "workspace_new", name: long })).toEqual({ v: 5, type: "ok" });
  await s.ok(["project", "new", "p-1"]);
  expect(await s.request<Replies["tab_new"]>({ v: 2, type: "tab_new", workspace: long, name: "Spiele 🎮 שלום 日本", project: "p-1", cwd: "/tmp", command: ["cat"] })).toMatchObject({ type: "pane" });
  const ws = (await s.list()).find((w) => w.name === long);
  expect(ws!.tabs.map((t) => t.name)).toContain("Spiele 🎮 שלום 日本");
  expect(await s.request({ v: 2, type: "workspace_close", name: long })).toEqual({ v: 5, type: "ok" });
});

test("a restore skips a workspace or tab with a bad name, with a warning, and restores the rest", async () => {
  const body = decode(readFileSync(join(import.meta.dir, "fixtures", "session-v1.session"))).body;
  // main: one tab; Games: two tabs. Break main's name and Games' second tab's name.
  expect(body.workspaces.map((w) => [w.name, w.tabs.length])).toEqual([["main", 1], ["Games", 2]]);
  body.workspaces[0]!.name = "ma\u0000in";
  const firstGamesTab = body.workspaces[1]!.tabs[0]!.name;
  body.workspaces[1]!.tabs[1]!.name = "Tet\u001b[2Jris";
  const session = new Session({ socketPath: join(s.root, "unit.sock"), baseEnv: paneBaseEnv({ ...process.env, SHELL: "/bin/sh" }), onEmpty() {} });
  const r = await applySave(session, body);
  const warnings = r.skipped;
  try {
    expect(session.workspaces.map((w) => [w.name, w.tabs.map((t) => t.name)])).toEqual([["Games", [firstGamesTab]]]);
    expect(session.panes.size).toBe(1);
    expect(warnings.join("\n")).toContain("invalid name in `name`");
    expect(warnings.length).toBe(2);
    expect(r.workspaces).toBe(1);
  } finally {
    await session.killAll();
  }
});

// ---- programs and directories that aren't there ----------------------------------------------

test("ws split 1 -- claudee names the program, with its own code, and the layout is unchanged", async () => {
  const split = () => s.request<AnyReply>({ v: 1, type: "split", pane: 1, cwd: "/tmp", command: ["cat"], focus: false });
  const probe = await split();
  await s.ok(["pane", "close", String(probe.pane)]);
  const before = await model();
  const layout = await s.v6({ type: "layout_export", pane: 1 });
  const kids = children();
  const r = await s.run(["split", "1", "--", "claudee"]);
  expect(r.code).not.toBe(0);
  expect(r.stderr).toContain('can\'t run "claudee": not found on PATH');
  expect(r.stderr).not.toContain("internal");
  const v6 = await s.v6({ type: "split", pane: 1, cwd: "/tmp", command: ["claudee", "--flag"] });
  expect(v6).toMatchObject({ type: "error", code: "program_not_found", hint: { param: "command" } });
  expect(v6.message).toContain('"claudee"');
  // A path that is not an executable file.
  const file = join(s.root, "not-executable");
  writeFileSync(file, "echo hi\n");
  expect(await s.v6({ type: "split", pane: 1, cwd: "/tmp", command: [file] })).toMatchObject({ code: "program_not_found" });
  expect(await model()).toEqual(before);
  expect(await s.v6({ type: "layout_export", pane: 1 })).toEqual(layout);
  expect(startedSince(kids)).toEqual([]);
  // The next split gets the next pane id: the failures took none.
  const ok = await split();
  expect(ok).toEqual({ v: 5, type: "pane", pane: (probe.pane as number) + 1 });
  await s.ok(["pane", "close", String(ok.pane)]);
});

test("a cwd that does not exist, or is a file, is refused with cwd_not_found before anything changes", async () => {
  const before = await model();
  const kids = children();
  const r = await s.run(["split", "1", "--cwd", "/nonexistent/dir", "--", "sh"]);
  expect(r.code).not.toBe(0);
  expect(r.stderr).toContain('can\'t start in "/nonexistent/dir": no such directory');
  expect(await s.v6({ type: "split", pane: 1, cwd: "/nonexistent/dir", command: [] })).toMatchObject({ code: "cwd_not_found", hint: { param: "cwd" } });
  expect(await s.v6({ type: "tab_new", cwd: "/etc/passwd", command: [] })).toMatchObject({ code: "cwd_not_found", message: 'can\'t start in "/etc/passwd": not a directory' });
  expect(await s.v6({ type: "split", pane: 1, cwd: "/tmp\u0000x", command: [] })).toMatchObject({ code: "invalid_params", hint: { param: "cwd" } });
  expect(await s.v6({ type: "split", pane: 1, cwd: "/tmp", command: ["echo", "a\u0000b"] })).toMatchObject({ code: "invalid_params", hint: { param: "command" } });
  expect(await model()).toEqual(before);
  expect(startedSince(kids)).toEqual([]);
});

test("ws tab new -- claudee and a missing cwd leave no tab", async () => {
  const before = await model();
  const r = await s.run(["tab", "new", "--name", "Ghost", "--", "claudee"]);
  expect(r.code).not.toBe(0);
  expect(r.stderr).toContain('"claudee"');
  const legacy = await s.request({ v: 2, type: "tab_new", name: "Ghost", cwd: "/tmp", command: ["claudee"] });
  expect(legacy).toEqual({ v: 5, type: "error", message: 'can\'t run "claudee": not found on PATH' });
  expect((await s.run(["tab", "new", "--cwd", "/nonexistent/dir"])).stderr).toContain("no such directory");
  expect(await model()).toEqual(before);
});

test("layout_apply with one missing program or cwd deep in the tree starts nothing and names the leaf", async () => {
  const before = await model();
  const kids = children();
  const marker = join(s.root, "started");
  const leaf = { type: "pane", cwd: "/tmp", command: ["sh", "-c", `echo > ${marker}-$WS_PANE_ID; exec cat`] };
  const root = { type: "split", direction: "right", ratio: 0.5, first: leaf, second: { type: "split", direction: "down", ratio: 0.5, first: leaf, second: { type: "pane", command: ["claudee"] } } };
  expect(await s.v6({ type: "layout_apply", name: "dev", root })).toMatchObject({ code: "program_not_found", hint: { param: "root.second.second.command" } });
  const root2 = { ...root, second: { ...root.second, first: { type: "pane", cwd: "/nonexistent/dir" } } };
  expect(await s.v6({ type: "layout_apply", name: "dev", root: root2 })).toMatchObject({ code: "cwd_not_found", hint: { param: "root.second.first.cwd" } });
  // Replacing a tab: the old one stays when the new one can't be made.
  const tab = (before as Replies["session_snapshot"]).workspaces[0]!.tabs[0]!.id;
  expect(await s.v6({ type: "layout_apply", tab, root })).toMatchObject({ code: "program_not_found" });
  expect(await model()).toEqual(before);
  expect(startedSince(kids)).toEqual([]);
  expect(readdirSync(s.root).filter((f) => f.startsWith("started"))).toEqual([]);
});

test("a program that passes the checks but can't start (missing interpreter, bad binary) is refused the same way; panes already started for the request are stopped", async () => {
  const dir = join(s.root, "bad-programs");
  require("node:fs").mkdirSync(dir);
  const interp = join(dir, "no-interpreter");
  writeFileSync(interp, "#!/nonexistent/interpreter\n");
  const elf = join(dir, "bad-binary");
  writeFileSync(elf, "\x7fELF not really");
  const envScript = join(dir, "env-missing");
  writeFileSync(envScript, "#!/usr/bin/env ws-no-such-interpreter\n");
  for (const f of [interp, elf, envScript]) chmodSync(f, 0o755);
  const before = await model();
  const kids = children();
  for (const program of [interp, elf, envScript]) {
    const r = await s.v6({ type: "split", pane: 1, cwd: "/tmp", command: [program] });
    expect(r).toMatchObject({ type: "error", code: "program_not_found", hint: { param: "command" } });
    expect(r.message).toStartWith(`can't run ${JSON.stringify(program)}: `);
  }
  // Two panes start, the third can't: the two are stopped and the model is as it was.
  const cat = { type: "pane", cwd: "/tmp", command: ["cat"] };
  const root = { type: "split", direction: "right", ratio: 0.5, first: cat, second: { type: "split", direction: "down", ratio: 0.5, first: cat, second: { type: "pane", command: [interp] } } };
  expect(await s.v6({ type: "layout_apply", root })).toMatchObject({ code: "program_not_found" });
  expect(await model()).toEqual(before);
  await waitFor("the started panes' programs to be stopped", () => startedSince(kids).length === 0);
});

test("ws workspace new whose shell has gone is refused with program_not_found and leaves no workspace", async () => {
  const dir = join(s.root, "shell-dir");
  const shell = join(dir, "myshell");
  require("node:fs").mkdirSync(dir);
  writeFileSync(shell, "#!/bin/sh\necho shell-ready\nexec cat\n");
  chmodSync(shell, 0o755);
  const t = await new TestServer({ name: "goneshell", env: { SHELL: shell } }).start();
  try {
    // The first pane's shell has read its script (else removing it would end that pane, and the server).
    await t.waitScreen(1, "shell-ready");
    // Its label has followed it to `cat` (labels follow the foreground program a moment later).
    await waitFor("the label to follow the program", async () => (await t.v6({ type: "pane_list" })).panes[0]!.label === "cat");
    rmSync(shell);
    const before = await model(t);
    const r = await t.run(["workspace", "new", "Ghost"]);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain(`can't run ${JSON.stringify(shell)}: no executable file there`);
    expect(await t.v6({ type: "workspace_new", name: "Ghost" })).toMatchObject({ code: "program_not_found" });
    expect(await model(t)).toEqual(before);
    expect((await t.list()).map((w) => w.name)).toEqual(["main"]);
  } finally {
    await t.stop();
  }
});

// ---- limits ------------------------------------------------------------------------------------

test(`layout_apply over ${MAX_PANES_PER_REQUEST} panes is refused with limit_exceeded, fast, starting nothing`, async () => {
  const before = await model();
  const kids = children();
  // The reproduction: 256 leaves in about 34 KB.
  const line = JSON.stringify({ v: 6, type: "layout_apply", root: tree(256, ["sh", "-c", "exec cat"]) });
  expect(line.length).toBeGreaterThan(20_000);
  const t0 = performance.now();
  const r = JSON.parse(await s.rawLine(line + "\n"));
  const took = performance.now() - t0;
  expect(r).toMatchObject({ type: "error", code: "limit_exceeded", hint: { limit: MAX_PANES_PER_REQUEST } });
  expect(r.message).toBe(`one request may start at most ${MAX_PANES_PER_REQUEST} panes; this one would start 256`);
  expect(took).toBeLessThan(1000);
  expect(await s.v6({ type: "layout_apply", root: tree(MAX_PANES_PER_REQUEST + 1) })).toMatchObject({ code: "limit_exceeded" });
  expect(await model()).toEqual(before);
  expect(startedSince(kids)).toEqual([]);
});

test(`layout_apply of exactly ${MAX_PANES_PER_REQUEST} panes works`, async () => {
  const t0 = performance.now();
  const r = await s.v6({ type: "layout_apply", name: "wide", root: tree(MAX_PANES_PER_REQUEST) });
  const took = performance.now() - t0;
  expect(r.type).toBe("layout");
  expect((r.panes as number[]).length).toBe(MAX_PANES_PER_REQUEST);
  console.log(`layout_apply of ${MAX_PANES_PER_REQUEST} panes answered in ${took.toFixed(0)} ms`);
  expect(await s.v6({ type: "tab_close", tab: "wide" })).toMatchObject({ type: "ok" });
});

test("the server-wide pane limit: past it every way of starting a pane is refused, with the limit", async () => {
  const t = await new TestServer({ name: "small", env: { WS_MAX_PANES: "3" } }).start();
  try {
    expect((await t.v6({ type: "split", pane: 1, cwd: "/tmp", command: ["cat"] })).type).toBe("pane");
    expect((await t.v6({ type: "tab_new", cwd: "/tmp", command: ["cat"] })).type).toBe("pane");
    const before = await model(t);
    const kids = children(t);
    const full = { code: "limit_exceeded", hint: { limit: 3 }, message: "ws runs at most 3 panes at once; it runs 3, and this would start 1 more" };
    expect(await t.v6({ type: "split", pane: 1, cwd: "/tmp", command: ["cat"] })).toMatchObject(full);
    expect(await t.v6({ type: "tab_new", cwd: "/tmp", command: ["cat"] })).toMatchObject(full);
    expect(await t.v6({ type: "workspace_new", name: "More" })).toMatchObject(full);
    expect(await t.v6({ type: "layout_apply", root: tree(2) })).toMatchObject({ code: "limit_exceeded", hint: { limit: 3 } });
    const legacy = await t.run(["split", "1", "--", "cat"]);
    expect(legacy.stderr).toContain("ws runs at most 3 panes at once");
    expect(await model(t)).toEqual(before);
    expect(children(t)).toEqual(kids);
    // Room again once a pane has gone.
    await t.ok(["pane", "close", "2"]);
    expect((await t.v6({ type: "workspace_new", name: "More" })).type).toBe("ok");
  } finally {
    await t.stop();
  }
});

test("the daemon is unharmed by all of the above", async () => {
  expect((await s.v6({ type: "hello" })).type).toBe("hello");
  expect((await s.list()).map((w) => w.name)).toEqual(["main"]);
});
