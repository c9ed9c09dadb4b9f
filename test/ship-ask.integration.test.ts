// `ship` at the interface's command line (prefix :) asks on the status line
// first, with what would be committed, worked out without touching the index; n or Escape leave
// everything as it was, y ships. A person at a real terminal (tmux) attached to a real server, a
// workstream's real worktree and a bare remote.
import { beforeAll, expect, test } from "bun:test";
import { readFileSync, unlinkSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { serverWithTmux, PREFIX, attachCommand, statusLine } from "./tmux-driver";
import { git, gitEnv, makeRepo } from "./git-rig";

const attachCmd = attachCommand();

const { s, tmux } = serverWithTmux();
Object.assign(s.env, gitEnv(s.root)); // before the server starts, and tmux shares it
let dir = "";
let remote = "";

beforeAll(async () => {
  const made = makeRepo(s.root, s.env, { "old.txt": "old\n" });
  remote = made.remote;
  const r = await s.v6({ type: "new_workstream", template: "default", name: "feat-ui", repo: made.repo });
  expect(r.type).toBe("pane");
  dir = String(r.dir);
  await tmux.open("u", attachCmd, 160, 30);
  // The workstream's tab is on screen with its shell focused.
  expect((await s.request({ v: 5, type: "pane_focus", pane: r.pane })).type).toBe("ok");
  await tmux.waitFor("u", (t) => statusLine(t).includes(`pane ${r.pane}`));
}, 60_000);

/** What the index and the branch are: its bytes, what is staged, HEAD. */
function state() {
  const index = resolve(dir, git(dir, ["rev-parse", "--git-path", "index"], s.env));
  return {
    index: readFileSync(index).toString("base64"),
    // Not git-rig's git, which trims the first line's leading space (" M").
    status: Bun.spawnSync(["git", "--no-optional-locks", "status", "--porcelain"], { cwd: dir, env: { ...process.env, ...s.env } }).stdout.toString().trimEnd(),
    head: git(dir, ["rev-parse", "HEAD"], s.env),
  };
}

async function commandLine(line: string): Promise<void> {
  await tmux.keys("u", PREFIX, ":");
  await tmux.waitFor("u", (t) => statusLine(t).startsWith(" ws:"));
  await tmux.text("u", line);
  await tmux.keys("u", "Enter");
}

test("prefix : ship without -m, changes there: the refusal on the status line, nothing asked", async () => {
  writeFileSync(join(dir, "new.txt"), "one\ntwo\n");
  await commandLine("ship");
  const t = await tmux.waitFor("u", (t) => statusLine(t).includes("give the commit's message with -m MSG"), 20_000);
  expect(statusLine(t)).not.toContain("(y/n)");
  expect(state().status).toBe("?? new.txt");
}, 30_000);

test("prefix : ship asks with the summary; n and Escape leave the index and the branch as they were; y, after a change, asks again, then commits and pushes", async () => {
  // One file staged (the index has something of its own to keep), one changed, one deleted, one new.
  writeFileSync(join(dir, "staged.txt"), "s\n");
  git(dir, ["add", "staged.txt"], s.env);
  writeFileSync(join(dir, "README.md"), "# app\nmore\n");
  unlinkSync(join(dir, "old.txt"));
  const before = state();
  expect(before.status.split("\n").sort()).toEqual([" D old.txt", " M README.md", "?? new.txt", "A  staged.txt"]);

  const question = 'Ship feat-ui? (y/n) 4 files changed, +4 −1, 2 new, 1 deleted; commit "Fix it" on feat-ui';
  for (const no of ["n", "Escape"]) {
    await commandLine('ship -m "Fix it"');
    const asked = await tmux.waitFor("u", (t) => statusLine(t).includes("Ship feat-ui?"), 20_000);
    expect(statusLine(asked)).toContain(question);
    expect(state()).toEqual(before); // asking changed nothing
    await tmux.keys("u", no);
    await tmux.waitFor("u", (t) => statusLine(t).includes("not shipped: nothing was changed"));
    expect(state()).toEqual(before);
  }

  await commandLine('ship -m "Fix it" --push');
  const asked = await tmux.waitFor("u", (t) => statusLine(t).includes("Ship feat-ui?"), 20_000);
  expect(statusLine(asked)).toContain(`${question}; push to origin`);
  // The worktree changes while the question is up: y asks again, about what is there now.
  writeFileSync(join(dir, "late.txt"), "late\n");
  await tmux.keys("u", "y");
  const again = await tmux.waitFor("u", (t) => statusLine(t).includes("Changed meanwhile."), 20_000);
  expect(statusLine(again)).toContain('Changed meanwhile. Ship feat-ui? (y/n) 5 files changed, +5 −1, 3 new, 1 deleted; commit "Fix it" on feat-ui; push to origin');
  expect(state().head).toBe(before.head);
  await tmux.keys("u", "y");
  const done = await tmux.waitFor("u", (t) => statusLine(t).includes("shipped feat-ui:"), 30_000);
  const head = git(dir, ["rev-parse", "HEAD"], s.env);
  expect(statusLine(done)).toContain(`shipped feat-ui: committed ${head.slice(0, 12)} on feat-ui, pushed to origin`);
  expect(head).not.toBe(before.head);
  expect(git(dir, ["log", "-1", "--format=%s"], s.env)).toBe("Fix it");
  expect(git(dir, ["show", "--name-status", "--format=", "HEAD"], s.env).split("\n").sort()).toEqual(["A\tlate.txt", "A\tnew.txt", "A\tstaged.txt", "D\told.txt", "M\tREADME.md"]);
  expect(state().status).toBe("");
  expect(git(remote, ["rev-parse", "refs/heads/feat-ui"], s.env)).toBe(head);
}, 90_000);
