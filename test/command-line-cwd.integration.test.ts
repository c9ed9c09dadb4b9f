// A ws command line typed at the interface's prompt (prefix :) runs where the focused pane is, as
// the same words typed in its shell would (tmux's #{pane_current_path}): the pane's program's
// current directory, else where the pane started, never the server's own. A person at a real
// terminal (tmux) attached to a real server, whose own directory (s.root) is none of these.
import { beforeAll, expect, test } from "bun:test";
import { mkdirSync, rmdirSync } from "node:fs";
import { join } from "node:path";
import { waitFor } from "./harness";
import { serverWithTmux, PREFIX, attachCommand, statusLine } from "./tmux-driver";
import { git, gitEnv, makeRepo } from "./git-rig";

const attachCmd = attachCommand();

const { s, tmux } = serverWithTmux();
Object.assign(s.env, gitEnv(s.root)); // before the server starts, and tmux shares it
let repo = "";

beforeAll(async () => {
  repo = makeRepo(s.root, s.env, { "src/main.txt": "main\n" }).repo;
  await tmux.open("c", attachCmd, 160, 30);
  await tmux.waitFor("c", (t) => statusLine(t).includes("pane 1"));
}, 60_000);

const panes = async () => (await s.list()).flatMap((w) => w.tabs.flatMap((t) => t.panes));
const info = async (pane: number) => {
  const r = await s.v6({ type: "pane_info", pane });
  expect(r.type).toBe("pane_info");
  return r as { cwd: string; start_cwd: string; focused: boolean };
};

/** Type `cd DIR` into the focused pane `pane`, and wait until its shell is there. */
async function cdIn(pane: number, dir: string): Promise<void> {
  await tmux.text("c", `cd ${dir}`);
  await tmux.keys("c", "Enter");
  await waitFor(`pane ${pane}'s shell to be in ${dir}`, async () => (await info(pane)).cwd === dir);
}

async function commandLine(line: string): Promise<void> {
  await tmux.keys("c", PREFIX, ":");
  await tmux.waitFor("c", (t) => statusLine(t).startsWith(" ws:"));
  await tmux.text("c", line);
  await tmux.keys("c", "Enter");
}

/** `prefix : split --right` in the focused pane; the new pane. */
async function splitFromPrompt(): Promise<number> {
  const before = await panes();
  await commandLine("split --right");
  return waitFor("the split's pane", async () => (await panes()).find((p) => !before.includes(p)), 20_000);
}

test("prefix : split --right after a cd: the new pane starts in the shell's directory, not the server's", async () => {
  const here = join(s.root, "plain", "deeper");
  mkdirSync(here, { recursive: true });
  await cdIn(1, here);
  const pane = await splitFromPrompt();
  expect((await info(pane)).start_cwd).toBe(here);
}, 30_000);

test("the pane's directory deleted under it: the line runs where the pane started", async () => {
  const start = join(s.root, "started-here");
  const gone = join(s.root, "gone");
  mkdirSync(start);
  mkdirSync(gone);
  const tab = await s.v6({ type: "tab_new", cwd: start, focus: true });
  expect(tab.type).toBe("pane");
  await tmux.waitFor("c", (t) => statusLine(t).includes(`pane ${tab.pane}`));
  await cdIn(tab.pane, gone);
  rmdirSync(gone);
  const pane = await splitFromPrompt();
  expect((await info(pane)).start_cwd).toBe(start);
}, 30_000);

test("prefix : new default NAME in a repository's subdirectory: the workstream is of that repository, its line on the status line", async () => {
  const sub = join(repo, "src");
  await s.v6({ type: "pane_focus", pane: 1 });
  await tmux.waitFor("c", (t) => statusLine(t).includes("pane 1"));
  await cdIn(1, sub);
  await commandLine("new default feat-cwd");
  // Run in the server's directory this is "not a git repository"; here it is the workstream.
  const t = await tmux.waitFor("c", (t) => statusLine(t).includes("workstream feat-cwd: pane"), 30_000);
  expect(statusLine(t)).toMatch(/workstream feat-cwd: pane \d+ in .*, worktree .*feat-cwd on branch feat-cwd/);
  expect(git(repo, ["worktree", "list", "--porcelain"], s.env)).toContain("branch refs/heads/feat-cwd");
}, 60_000);
