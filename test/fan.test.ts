// Fan-out: ws fan N TEMPLATE NAME PROMPT makes N workstreams from one base, each with a
// stand-in agent (test/fixtures/fan-agent.sh, reporting through the real `ws report`) that writes
// files of its own when prompted. The same prompt reaches each; fan status shows each one's
// changes and the template's check, run when its agent is done; compare opens a diff tab; keep
// leaves the right branch and finishes the others as ws done --force. Events are read over the
// socket. Real daemon, real shells, real git with a bare remote.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Conn, readUntil, ROOT, TestServer, waitFor, wsArgv } from "./harness";
import type { AnyReply, Replies } from "./replies";
import { git, gitEnv, makeRepo } from "./git-rig";

const AGENT = join(ROOT, "test/fixtures/fan-agent.sh");
let s: TestServer;
let env: Record<string, string>;
let repo: string;
let prompts: string;
const worktree = (name: string) => join(s.root, "data", "ws", "worktrees", "app", name);
/** The tab (workspace_list's row) that holds the pane. */
const tabWith = async (pane: number) => (await s.v6({ type: "workspace_list" })).workspaces.flatMap((w) => w.tabs).find((t) => t.panes.includes(pane));
const dashboard = async () => (await s.v6({ type: "dashboard" })) as { workstreams: { name: string; pane: number; workspace: string }[] };

beforeAll(async () => {
  s = new TestServer();
  env = gitEnv(s.root);
  const wrapper = join(s.root, "ws-wrapper");
  writeFileSync(wrapper, `#!/bin/sh\nexec ${wsArgv().map((a) => `'${a}'`).join(" ")} "$@"\n`, { mode: 0o755 });
  prompts = join(s.root, "prompts");
  Object.assign(s.env, env, { STANDIN_WS: wrapper, STANDIN_LOG: prompts });
  ({ repo } = makeRepo(s.root, env, { "src/a.txt": "a\n" }));
  const templates = join(s.root, "config", "ws", "templates");
  mkdirSync(templates, { recursive: true });
  const agentPane = `type = "pane"\nlabel = "agent"\ncommand = ["bash", ${JSON.stringify(AGENT)}]`;
  // The check passes only where cand-2.txt is: for candidate 2.
  writeFileSync(join(templates, "fanagent.toml"), `check = ["test", "-f", "cand-2.txt"]\nstartup_ms = 60000\n\n[layout]\n${agentPane}\n`);
  writeFileSync(
    join(templates, "fanpair.toml"),
    `startup_ms = 60000\n\n[layout]\ntype = "split"\ndirection = "down"\nratio = 0.5\n\n[layout.first]\n${agentPane}\n\n[layout.second]\ntype = "pane"\nlabel = "shell"\n`,
  );
  await s.start();
}, 60_000);
afterAll(async () => {
  await s.stop();
}, 60_000);

test("ws fan: three candidates from one base, the same prompt to each, status with changes and the check, compare, keep", async () => {
  const sub = await Conn.open(s.sock);
  try {
    sub.send({ v: 6, id: "sub", type: "subscribe", types: ["fan_started", "fan_candidate_done", "prompt_queued", "prompt_delivered"] });
    expect((await sub.nextJson()).type).toBe("subscribed");
    // A commit on main that origin lacks: the candidates start from origin's main, all the same one.
    const base = git(repo, ["rev-parse", "origin/main"], env);

    const started = await s.run(["fan", "3", "fanagent", "race", "add your file"], { cwd: repo });
    expect(started.stderr).toBe("");
    expect(started.code).toBe(0);
    expect(started.stdout.split("\n").filter(Boolean).map((l) => l.split("  ")[0])).toEqual(["race-1", "race-2", "race-3"]);

    const [first] = await readUntil(sub, (e) => e.event === "fan_started", 30_000);
    expect(first).toMatchObject({ event: "fan_started", fan: "race", template: "fanagent", workstreams: ["race-1", "race-2", "race-3"], base, tiled: false });

    // Each agent gets the prompt once, finishes its turn, and its check runs: one event each.
    let seen = 0;
    const events = await readUntil(sub, (e) => e.event === "fan_candidate_done" && ++seen === 3, 90_000);
    const done = events.filter((e) => e.event === "fan_candidate_done") as (AnyReply & { check: { passed: boolean; exit_code: number | null } })[];
    // The prompts went through the prompt queue (the path every queued prompt takes), one to each agent.
    const delivered = events.filter((e) => e.event === "prompt_delivered");
    expect(delivered.length).toBe(3);
    expect(new Set(delivered.map((e) => e.pane)).size).toBe(3);
    expect(events.filter((e) => e.event === "prompt_queued").map((e) => e.id).sort()).toEqual(delivered.map((e) => e.id).sort());
    expect(done.map((e) => [e.workstream, e.k, e.check.passed, e.check.exit_code === 0]).sort()).toEqual([
      ["race-1", 1, false, false],
      ["race-2", 2, true, true],
      ["race-3", 3, false, false],
    ]);
    for (const k of [1, 2, 3]) expect(readFileSync(`${prompts}.race-${k}`, "utf8")).toBe("add your file\n");

    // One tab each, every branch at the base.
    const rows = (await dashboard()).workstreams.filter((w) => w.name.startsWith("race-"));
    expect(rows.map((w) => w.name).sort()).toEqual(["race-1", "race-2", "race-3"]);
    expect(new Set(rows.map((w) => w.pane)).size).toBe(3);
    for (const k of [1, 2, 3]) expect(git(repo, ["rev-parse", `race-${k}`], env)).toBe(base);

    // Status: cand-K.txt (K lines) and one line in README.md: 2 files, K+1 added.
    const st: Replies["fan_status"] = JSON.parse(await s.ok(["--json", "fan", "status", "race"]));
    expect(st).toMatchObject({ type: "fan_status", fan: "race", template: "fanagent", base, prompt: "add your file" });
    expect(st.candidates.map((c) => [c.k, c.workstream, c.open, c.status, c.prompted, c.turns, c.files, c.added, c.removed, c.check, c.exit_code])).toEqual([
      [1, "race-1", true, "done", true, 1, 2, 2, 0, "failed", 1],
      [2, "race-2", true, "done", true, 1, 2, 3, 0, "passed", 0],
      [3, "race-3", true, "done", true, 1, 2, 4, 0, "failed", 1],
    ]);
    const shown = await s.ok(["fan", "status", "race"]);
    expect(shown).toContain(" 2  race-2  done  2 files  +3 -0  check passed\n");
    expect(shown).toContain(" 3  race-3  done  2 files  +4 -0  check failed (exit 1)\n");

    // Compare: a pane a candidate, its worktree (README.md modified, cand-K.txt untracked: nothing
    // committed) against the base, counted as status counts it.
    expect(git(worktree("race-1"), ["status", "--porcelain"], env).split("\n").sort()).toEqual(["?? cand-1.txt", "M README.md"]);
    // Neovim 0.7, three started at once on a first run, race to make its data directory and one
    // stops at "E739: Cannot create directory"; a person's home has it already.
    mkdirSync(join(s.env.XDG_DATA_HOME!, "nvim"), { recursive: true });
    const cmp = await s.v6({ type: "fan_compare", name: "race" });
    const nvim = Bun.which("nvim", { PATH: s.env.PATH ?? "" }) !== null;
    expect(cmp.tool).toBe(nvim ? "nvim" : "git");
    const counted = st.candidates.map((c) => [c.k, c.workstream, c.files, c.added, c.removed, ["README.md", `cand-${c.k}.txt`]]);
    const compared: unknown[] = cmp.candidates.map((c) => [c.k, c.workstream, c.files, c.added, c.removed, [...c.paths].sort()]);
    expect(compared).toEqual(counted);
    const tab = await tabWith(cmp.pane);
    expect(tab!.name).toBe("race compare");
    expect(tab!.panes.length).toBe(3);
    for (const [i, pane] of tab!.panes.entries()) {
      const info = await s.v6({ type: "pane_info", pane });
      expect(info.command!.slice(0, 2)).toEqual(["git", nvim ? "difftool" : "diff"]);
      expect(info.command!.slice(-3)).toEqual([base, cmp.candidates[i]!.tree, "--"]);
      // The untracked file's lines are on screen (Neovim's diff shows the first file: README.md or cand-K.txt).
      // Three panes across 80 columns leave Neovim's two windows about 10 columns of text each, too
      // narrow for the line: zoomed, the pane is the whole width and Neovim evens its windows on
      // the resize (without that, its split kept whatever widths it started with).
      const k = cmp.candidates[i]!.k;
      // Zoomed only once Neovim has drawn (its ruler's "1,1"): a resize while it starts, before it
      // watches for one, is lost, and it kept drawing at the narrow size in the wide pane.
      if (nvim) await s.waitScreen(pane, /\b1,1\b/, 20_000);
      if (nvim) await s.ok(["pane", "zoom", String(pane)]);
      await s.waitScreen(pane, new RegExp(`touched by ${k}|candidate ${k} line 1`), 20_000);
      if (nvim) await s.ok(["pane", "zoom", String(pane)]);
    }
    // The worktree's own index is untouched: the untracked file is still untracked.
    expect(git(worktree("race-2"), ["status", "--porcelain"], env).split("\n").sort()).toEqual(["?? cand-2.txt", "M README.md"]);
    // Run from a candidate's worktree, compare finds its fan (ws fan's one rule) and replaces the tab.
    const again = JSON.parse(await s.ok(["--json", "fan", "compare"], { cwd: worktree("race-3") }));
    expect(await tabWith(cmp.pane)).toBeUndefined();
    expect((await tabWith(again.pane))!.name).toBe("race compare");

    // Keep 2: the others go although they have changes (--force semantics), their branches stay.
    const kept = JSON.parse(await s.ok(["--json", "fan", "keep", "race", "2"]));
    // …and the compare tab closes with it.
    expect(await tabWith(again.pane)).toBeUndefined();
    expect(kept).toMatchObject({ kept: "race-2", branch: "race-2", closed: ["race-1", "race-3"], deleted_branches: [] });
    expect((await dashboard()).workstreams.map((w) => w.name).filter((n) => n.startsWith("race-"))).toEqual(["race-2"]);
    expect(existsSync(worktree("race-1"))).toBe(false);
    expect(existsSync(worktree("race-3"))).toBe(false);
    expect(readFileSync(join(worktree("race-2"), "cand-2.txt"), "utf8")).toBe("candidate 2 line 1\ncandidate 2 line 2\n");
    expect(git(repo, ["branch", "--list", "race-*", "--format=%(refname:short)"], env).split("\n")).toEqual(["race-1", "race-2", "race-3"]);
    expect(git(repo, ["for-each-ref", "refs/ws/checkpoints/race-1/"], env)).toBe("");
    // The fan is forgotten; the kept workstream is an ordinary one.
    const gone = await s.v6({ type: "fan_status", name: "race" });
    expect(gone).toMatchObject({ type: "error", code: "not_a_workstream" });
  } finally {
    sub.close();
  }
}, 180_000);

test("ws fan --tiled: one tab holds every candidate; keep --delete-branches closes only the others' panes and deletes their branches", async () => {
  const r = await s.v6({ type: "fan_start", count: 2, template: "fanpair", name: "tile", prompt: "tiled prompt", tiled: true, repo });
  expect(r).toMatchObject({ type: "fan_started", fan: "tile" });
  const a = r.candidates[0]!;
  const b = r.candidates[1]!;
  expect(a.tab).toBe(b.tab);
  expect((await tabWith(a.pane))!.panes.length).toBe(4);
  expect((await tabWith(a.pane))!.name).toBe("tile");
  for (const k of [1, 2]) await waitFor(`tile-${k} to get its prompt`, () => existsSync(`${prompts}.tile-${k}`) && readFileSync(`${prompts}.tile-${k}`, "utf8") === "tiled prompt\n", 60_000);
  // Each candidate's agent is told apart in the shared tab.
  await waitFor("both turns to finish", async () => {
    const st = await s.call({ type: "fan_status", name: "tile" });
    return st.candidates.every((c) => c.status === "done" && c.check === "none") && st;
  }, 60_000);

  const kept = await s.v6({ type: "fan_keep", name: "tile", k: 1, delete_branches: true });
  expect(kept).toMatchObject({ type: "fan_kept", kept: "tile-1", closed: ["tile-2"], deleted_branches: ["tile-2"] });
  const tab = await tabWith(a.pane);
  expect(tab!.panes.length).toBe(2);
  expect(tab!.panes).toContain(a.pane);
  expect(tab!.panes).not.toContain(b.pane);
  expect(git(repo, ["branch", "--list", "tile-*", "--format=%(refname:short)"], env)).toBe("tile-1");
  expect(existsSync(worktree("tile-2"))).toBe(false);
}, 180_000);

test("ws fan refuses bad counts and names in use before making anything", async () => {
  expect(await s.v6({ type: "fan_start", count: 0, template: "fanagent", name: "one", prompt: "p", repo })).toMatchObject({ type: "error", code: "invalid_params" });
  expect(await s.v6({ type: "fan_start", count: 9, template: "fanagent", name: "one", prompt: "p", repo })).toMatchObject({ type: "error", code: "invalid_params" });
  expect(await s.v6({ type: "fan_start", count: 2, template: "fanagent", name: "tile", prompt: "p", repo })).toMatchObject({ type: "error", code: "workstream_exists" });
  expect(await s.v6({ type: "fan_start", count: 2, template: "nope", name: "none", prompt: "p", repo })).toMatchObject({ type: "error", code: "template_not_found" });
  expect(existsSync(worktree("none-1"))).toBe(false);
  expect(git(repo, ["branch", "--list", "none-*"], env)).toBe("");
}, 60_000);

test("ws fan 1: a single candidate, prompted, with status, compare and keep", async () => {
  const started = await s.run(["fan", "1", "fanagent", "solo", "add your file"], { cwd: repo });
  expect(started.stderr).toBe("");
  expect(started.stdout.split("  ")[0]).toBe("solo-1");
  await waitFor("solo's turn to end", async () => {
    const st = await s.v6({ type: "fan_status", name: "solo" });
    return st.type === "fan_status" && st.candidates[0]?.turns === 1 && st.candidates[0].files === 2;
  }, 60_000);
  const cmp = await s.v6({ type: "fan_compare", name: "solo" });
  expect(cmp.candidates.map((c) => c.workstream)).toEqual(["solo-1"]);
  const kept = await s.v6({ type: "fan_keep", name: "solo", k: 1 });
  expect(kept).toMatchObject({ kept: "solo-1", closed: [] });
  expect(await tabWith(cmp.pane)).toBeUndefined();
  await s.ok(["done", "--force", "solo-1"]);
}, 90_000);
