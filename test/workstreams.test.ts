// Workstreams: ws new from templates into real git worktrees (a local bare repository
// as the remote), copy and setup, the errors that reach the user, ws done's refusals and removal,
// the dashboard's rows and a restart keeping them. Real daemon, real shells, real git.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Conn, readUntil, TestServer, waitFor, wsArgv } from "./harness";
import type { PaneNode, Replies, SplitNode } from "./replies";
import { Tmux } from "./tmux-driver";
import { git, gitEnv, makePr, makeRepo } from "./git-rig";

let s: TestServer;
let env: Record<string, string>;
let repo: string;
let wtRoot: string;

beforeAll(async () => {
  s = new TestServer();
  env = gitEnv(s.root);
  Object.assign(s.env, env);
  ({ repo } = makeRepo(s.root, env, { ".gitignore": ".env\nlocal.conf\n", "sub/keep.txt": "x\n", ".worktreeinclude": "# extra files\nlocal.conf\n" }));
  writeFileSync(join(repo, ".env"), "SECRET=1\n");
  writeFileSync(join(repo, "local.conf"), "conf\n");
  wtRoot = join(s.root, "data", "ws", "worktrees", "app");
  await s.start();
}, 60_000);
afterAll(async () => {
  await s.stop();
}, 60_000);

const tabOf = async (pane: number) => {
  for (const w of await s.list()) for (const t of w.tabs) if (t.panes.includes(pane)) return { ws: w.name, tab: t };
  return undefined;
};

test("ws new default: a worktree on a new branch from origin's main, a tab in the repo's workspace, WS_WORKSTREAM set", async () => {
  // The pane alone on stdout (for scripts); what was made on stderr.
  const made = await s.run(["new", "default", "feat-a"], { cwd: repo });
  expect(made.stdout).toMatch(/^\d+\n$/);
  const pane = Number(made.stdout);
  const dir = join(wtRoot, "feat-a");
  expect(made.stderr).toContain(`pane ${pane} in app, worktree ${dir} on branch feat-a`);
  expect(existsSync(join(dir, "README.md"))).toBe(true);
  expect(git(dir, ["rev-parse", "--abbrev-ref", "HEAD"], env)).toBe("feat-a");
  expect(git(dir, ["rev-parse", "HEAD"], env)).toBe(git(repo, ["rev-parse", "origin/main"], env));
  const at = await tabOf(pane);
  expect(at?.ws).toBe("app");
  expect(at?.tab.name).toBe("feat-a");
  await s.request({ v: 2, type: "pane_send", pane, text: 'echo "ws=$WS_WORKSTREAM at=$(pwd)"', enter: true });
  await s.waitScreen(pane, `ws=feat-a at=${dir}`);
}, 30_000);

test("a template's layout, placeholders, copy (+ .worktreeinclude) and setup", async () => {
  const dir = join(s.root, "config", "ws", "templates");
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, "dev.toml"),
    `workspace = "dev {name}"
copy = [".env", "missing.txt"]
setup = [["sh", "-c", "echo ran > setup-ran.txt"], "printf '%s\\\\n' \\"$WS_BRANCH\\" > branch.txt"]

[layout]
type = "split"
direction = "right"
ratio = 0.6

[layout.first]
type = "pane"
label = "left-{name}"
command = ["sh", "-c", "echo name=$WS_NAME branch=$WS_BRANCH pr=[$WS_PR] keep={other}; echo \\"$1\\" | wc -c; exec cat", "sh", "{data:dir}"]

[layout.second]
type = "pane"
cwd = "sub"
env = { WS_GREETING = "hi {name}" }
`,
  );
  const r = await s.v6({ type: "new_workstream", template: "dev", name: "feat-b", repo });
  expect(r.type).toBe("pane");
  const wt = join(wtRoot, "feat-b");
  expect(r.dir).toBe(wt);
  expect(r.workspace).toBe("dev feat-b");
  expect(readFileSync(join(wt, ".env"), "utf8")).toBe("SECRET=1\n");
  expect(readFileSync(join(wt, "local.conf"), "utf8")).toBe("conf\n");
  expect(existsSync(join(wt, "missing.txt"))).toBe(false);
  expect(readFileSync(join(wt, "setup-ran.txt"), "utf8")).toBe("ran\n");
  expect(readFileSync(join(wt, "branch.txt"), "utf8")).toBe("feat-b\n");
  const layout = await s.v6({ type: "layout_export", pane: r.pane });
  expect(layout.root.type).toBe("split");
  const root = layout.root as SplitNode;
  expect(root.direction).toBe("right");
  expect((root.first as PaneNode).label).toBe("left-feat-b");
  expect((root.second as PaneNode).cwd).toBe(join(wt, "sub"));
  const [left, right] = layout.panes as number[];
  // A script reads the values from the environment or its arguments; unknown placeholders stay as written.
  await s.waitScreen(left!, "name=feat-b branch=feat-b pr=[] keep={other}");
  await s.waitScreen(left!, new RegExp(`^\\s*${wt.length + 1}$`, "m"));
  await s.request({ v: 2, type: "pane_send", pane: right, text: 'echo "g=$WS_GREETING w=$WS_WORKSTREAM"', enter: true });
  await s.waitScreen(right!, "g=hi feat-b w=feat-b");
}, 30_000);

test("failures reach the user with a code: not a repo, branch exists, path taken, template mistakes", async () => {
  const notRepo = join(s.root, "plain");
  mkdirSync(notRepo, { recursive: true });
  const a = await s.run(["new", "default", "x1"], { cwd: notRepo });
  expect(a.code).toBe(1);
  expect(a.stderr).toContain("is not in a git repository");
  expect((await s.v6({ type: "new_workstream", template: "default", name: "x1", repo: notRepo })).code).toBe("not_a_repo");

  git(repo, ["branch", "taken-branch"], env);
  const b = await s.run(["new", "default", "taken-branch"], { cwd: repo });
  expect(b.code).toBe(1);
  expect(b.stderr).toContain('branch "taken-branch" exists');
  expect(b.stderr).toContain("--branch taken-branch");
  expect((await s.v6({ type: "new_workstream", template: "default", name: "taken-branch", repo })).code).toBe("branch_exists");
  // …and --branch checks it out.
  const c = await s.v6({ type: "new_workstream", template: "default", name: "on-taken", branch: "taken-branch", repo });
  expect(c.branch).toBe("taken-branch");

  mkdirSync(join(wtRoot, "squat"), { recursive: true });
  const d = await s.v6({ type: "new_workstream", template: "default", name: "squat", repo });
  expect(d.code).toBe("path_taken");
  expect(git(repo, ["branch", "--list", "squat"], env)).toBe(""); // nothing left behind

  const tdir = join(s.root, "config", "ws", "templates");
  writeFileSync(join(tdir, "bad.toml"), `# a mistake on line 4\n[layout]\ntype = "pane"\ncommand = "vim"\n`);
  const e = await s.run(["new", "bad", "x2"], { cwd: repo });
  expect(e.code).toBe(1);
  expect(e.stderr).toContain(`${join(tdir, "bad.toml")}:4:`);
  expect(e.stderr).toContain("command");
  writeFileSync(join(tdir, "broken.toml"), `workspace = "a"\nlayout = [\n`);
  const f = await s.v6({ type: "new_workstream", template: "broken", name: "x3", repo });
  expect(f.code).toBe("template_invalid");
  expect(f.message).toContain(`${join(tdir, "broken.toml")}:`);
  expect((await s.v6({ type: "new_workstream", template: "nope", name: "x4", repo })).code).toBe("template_not_found");
  // A setup that fails undoes the worktree and its branch.
  writeFileSync(join(tdir, "failing.toml"), `setup = [["sh", "-c", "echo broken >&2; exit 3"]]\n`);
  const g = await s.v6({ type: "new_workstream", template: "failing", name: "x5", repo });
  expect(g.code).toBe("setup_failed");
  expect(g.message).toContain("broken");
  expect(existsSync(join(wtRoot, "x5"))).toBe(false);
  expect(git(repo, ["branch", "--list", "x5"], env)).toBe("");
  // At v1 the reply stays plain ok, as the spec says.
  expect(await s.rawLine(JSON.stringify({ v: 1, type: "new_workstream", template: "nope", name: "x6" }) + "\n")).toBe("ok");
}, 60_000);

test("ws templates list and show", async () => {
  const list = await s.ok(["templates", "list"]);
  expect(list).toMatch(/^default\s+\(built in\)$/m);
  expect(list).toMatch(/^review\s+\(built in\)$/m);
  expect(list).toContain(join(s.root, "config", "ws", "templates", "dev.toml"));
  const shown = await s.ok(["templates", "show", "review"]);
  expect(shown).toContain(`command = ["sh", "-c", 'eval "$WS_REVIEW_COMMAND"']`);
  // What show prints is a template a user can copy.
  writeFileSync(join(s.root, "config", "ws", "templates", "copied.toml"), await s.ok(["templates", "show", "default"]));
  expect(await s.ok(["templates", "show", "copied"])).toContain('type = "pane"');
});

test("ws new --pr without gh: the PR's head from origin's pull/N/head", async () => {
  makePr(repo, env, 7, "pr-seven-head");
  const r = await s.v6({ type: "new_workstream", template: "default", name: "pr-7", pr: 7, repo });
  expect(r.type).toBe("pane");
  expect(r.branch).toBe("pr-7");
  expect(git(r.dir, ["rev-parse", "HEAD"], env)).toBe(git(repo, ["rev-parse", "pr-seven-head"], env));
  expect(existsSync(join(r.dir, "pr-seven-head.txt"))).toBe(true);
}, 30_000);

test("ws done refuses uncommitted changes, unpushed commits and names that are no workstream; after a push the worktree goes and the branch stays", async () => {
  const dir = join(wtRoot, "feat-a");
  const pane = (await tabOfWorkstream("feat-a"))!;
  const missing = await s.run(["done", "no-such"]);
  expect(missing.code).toBe(1);
  expect(missing.stderr).toContain('no workstream "no-such"');
  expect((await s.v6({ type: "workstream_done", name: "no-such" })).code).toBe("not_a_workstream");

  writeFileSync(join(dir, "wip.txt"), "wip\n");
  const dirty = await s.run(["done", "feat-a"]);
  expect(dirty.code).toBe(1);
  expect(dirty.stderr).toContain("uncommitted changes");
  expect(dirty.stderr).toContain("wip.txt");
  expect(dirty.stderr).toContain("--force");
  expect((await s.v6({ type: "workstream_done", name: "feat-a" })).code).toBe("uncommitted_changes");

  git(dir, ["add", "wip.txt"], env);
  git(dir, ["commit", "--quiet", "-m", "wip"], env);
  const unpushed = await s.run(["done", "feat-a"]);
  expect(unpushed.code).toBe(1);
  expect(unpushed.stderr).toContain("1 commit on feat-a is on no remote branch");
  expect(unpushed.stderr).toContain("git push -u origin feat-a");
  expect((await s.v6({ type: "workstream_done", name: "feat-a" })).code).toBe("unpushed_commits");
  expect(await tabOf(pane)).toBeDefined(); // every refusal left the tab

  git(dir, ["push", "--quiet", "-u", "origin", "feat-a"], env);
  // From a pane of the workstream, by its pane (as `ws done` inside it sends).
  expect((await s.request({ v: 2, type: "workstream_done", pane })).type).toBe("ok");
  expect(await tabOf(pane)).toBeUndefined();
  await waitFor("the worktree to go", () => !existsSync(dir));
  expect(git(repo, ["branch", "--list", "feat-a"], env)).toContain("feat-a");
  expect(git(repo, ["worktree", "list"], env)).not.toContain(dir);
  expect((await s.v6({ type: "workstream_done", name: "feat-a" })).code).toBe("not_a_workstream");
}, 30_000);

test("ws done --force removes a worktree with uncommitted files", async () => {
  const dir = join(wtRoot, "feat-b");
  expect((await s.run(["done", "feat-b"])).stderr).toContain("uncommitted changes"); // setup's files
  await s.ok(["done", "feat-b", "--force"]);
  await waitFor("the worktree to go", () => !existsSync(dir));
  expect(git(repo, ["branch", "--list", "feat-b"], env)).toContain("feat-b");
}, 30_000);

async function tabOfWorkstream(name: string): Promise<number | undefined> {
  const d: Replies["dashboard"] = await s.request({ v: 5, type: "dashboard" });
  return d.workstreams.find((w) => w.name === name)?.pane;
}

test("on screen, the Dashboard lists the workstreams and Enter goes to one", async () => {
  const pane = (await tabOfWorkstream("on-taken"))!;
  await s.request({ v: 5, type: "pane_focus", pane: 1 });
  const tmux = new Tmux(s.env);
  try {
    await tmux.open("ws", `${wsArgv().join(" ")} attach; sleep 3600`, 140, 40);
    await tmux.waitFor("ws", "1:");
    await tmux.keys("ws", "C-Space", "a");
    const screen = await tmux.waitFor("ws", "Workstreams");
    expect(screen).toMatch(new RegExp(`on-taken\\s+app \\(pane ${pane}\\)\\s+taken-branch`));
    expect(screen).toMatch(/pr-7\s+app \(pane \d+\)\s+pr-7/);
    await tmux.keys("ws", "Enter");
    await waitFor("the workstream's tab on screen", async () => {
      const app = (await s.list()).find((w) => w.name === "app");
      return app?.current && app.tabs.find((t) => t.panes.includes(pane))?.active;
    });
  } finally {
    await tmux.kill();
  }
}, 30_000);

test("the daemon answers others while a workstream's setup runs; the same name meanwhile is refused", async () => {
  const tdir = join(s.root, "config", "ws", "templates");
  const gate = join(s.root, "setup-gate");
  writeFileSync(join(tdir, "slow.toml"), `setup = [["sh", "-c", "while [ ! -e '${gate}' ]; do sleep 0.05; done"]]\n`);
  const making = s.v6({ type: "new_workstream", template: "slow", name: "slow-1", repo });
  await waitFor("setup to be running", () => existsSync(join(wtRoot, "slow-1")));
  const t0 = performance.now();
  const list = await s.list();
  const ms = performance.now() - t0;
  console.log(`workspace_list while a setup runs: ${ms.toFixed(1)} ms`);
  expect(list.length).toBeGreaterThan(0);
  expect(ms).toBeLessThan(1000);
  expect((await s.v6({ type: "new_workstream", template: "default", name: "slow-1", repo })).code).toBe("workstream_exists");
  writeFileSync(gate, "");
  expect((await making).type).toBe("pane");
}, 30_000);

test("--project: the repo comes from the project, an unknown one is refused; a template's Neovim is the one ws open drives", async () => {
  const elsewhere = join(s.root, "plain"); // not a checkout: the repo must come from the project
  mkdirSync(elsewhere, { recursive: true });
  const unknown = await s.run(["new", "default", "p-0", "--project", "nope"], { cwd: elsewhere });
  expect(unknown.code).toBe(1);
  expect(unknown.stderr).toContain('no project "nope"');
  expect((await s.v6({ type: "new_workstream", template: "default", name: "p-0", project: "nope" })).code).toBe("project_not_found");
  expect(existsSync(join(wtRoot, "p-0"))).toBe(false);

  await s.ok(["project", "new", "proj1", "--repo", repo]);
  writeFileSync(
    join(s.root, "config", "ws", "templates", "editor.toml"),
    `[layout]\ntype = "split"\ndirection = "right"\nratio = 0.5\n\n[layout.first]\ntype = "pane"\nlabel = "editor"\ncommand = ["nvim", "--clean", "README.md"]\n\n[layout.second]\ntype = "pane"\n`,
  );
  const out = await s.run(["new", "editor", "ed-1", "--project", "proj1"], { cwd: elsewhere });
  const dir = join(wtRoot, "ed-1");
  expect(out.stderr).toContain(`worktree ${dir}`);
  const layout = await s.v6({ type: "layout_export", pane: Number(out.stdout) });
  const [editor, shell] = layout.panes as number[];
  expect(((layout.root as SplitNode).first as PaneNode).command?.slice(0, 2)).toEqual(["nvim", "--listen"]);
  expect((await s.list()).flatMap((w) => w.tabs).find((t) => t.panes.includes(editor!))?.project).toBe("proj1");
  await s.waitScreen(editor!, "# app");
  const opened = await s.v6({ type: "open_file", pane: shell, location: `${dir}/README.md:1` });
  expect(opened.pane).toBe(editor);
  expect((await s.v6({ type: "layout_export", pane: editor })).panes).toEqual([editor!, shell!]);
}, 30_000);

test("the interface's new-workstream prompt (prefix W; run_command and the Dashboard's button run the same command) makes one in the focused pane's checkout", async () => {
  const { pane } = await s.request<Replies["tab_new"]>({ v: 2, type: "tab_new", workspace: "app", cwd: repo, command: [], focus: true });
  await s.waitScreen(pane, /[$#] ?$/m);
  const tmux = new Tmux(s.env);
  try {
    await tmux.open("ws", `${wsArgv().join(" ")} attach; sleep 3600`, 140, 40);
    await tmux.waitFor("ws", "1:");
    await tmux.keys("ws", "C-Space", "W");
    await tmux.waitFor("ws", "new workstream: TEMPLATE NAME");
    // The prompt starts empty: TEMPLATE NAME, as the README says.
    await tmux.text("ws", "default ui-ws");
    await tmux.keys("ws", "Enter");
    await waitFor("the workstream", () => tabOfWorkstream("ui-ws"), 20_000);
    expect(git(join(wtRoot, "ui-ws"), ["rev-parse", "--abbrev-ref", "HEAD"], env)).toBe("ui-ws");
    await tmux.waitFor("ws", "workstream ui-ws is open");
  } finally {
    await tmux.kill();
  }
}, 40_000);

test("subscribers see workstream_created and workstream_closed", async () => {
  const c = await Conn.open(s.sock);
  try {
    c.send({ v: 6, id: "sub", type: "subscribe", types: ["workstream_created", "workstream_closed"] });
    expect((await c.nextJson()).type).toBe("subscribed");
    const r = await s.v6({ type: "new_workstream", template: "default", name: "evt-1", repo });
    const [created] = await readUntil(c, (e) => e.event === "workstream_created");
    expect(created).toMatchObject({ event: "workstream_created", workstream: "evt-1", workspace: "app", tab: r.tab });
    await s.ok(["done", "evt-1"]);
    const [closed] = await readUntil(c, (e) => e.event === "workstream_closed");
    expect(closed).toMatchObject({ event: "workstream_closed", workstream: "evt-1" });
  } finally {
    c.close();
  }
}, 30_000);

test("ws new inside a workstream's worktree makes a sibling from the main clone", async () => {
  const inside = (await s.v6({ type: "new_workstream", template: "default", name: "sib-a", repo })).dir as string;
  const r = await s.run(["new", "default", "sib-b"], { cwd: inside });
  expect(r.code).toBe(0);
  expect(r.stderr).toContain(`worktree ${join(wtRoot, "sib-b")} on branch sib-b`);
  expect(git(repo, ["worktree", "list"], env)).toContain(join(wtRoot, "sib-b"));
}, 30_000);
