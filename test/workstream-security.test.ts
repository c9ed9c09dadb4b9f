// Workstreams under attack, each reproduction run against the real
// program: a branch or workstream name that tries to run code in bash, sh, zsh, fish, python3 and
// node (from `ws new NAME` and from a PR's head branch through a stand-in gh); `copy` and
// .worktreeinclude meeting symbolic links that lead out of the clone (read) or the worktree
// (write); names that try to leave their directory; files appearing while `ws done` runs. Real
// daemon, real git with a local bare remote, real interpreters in real PTYs.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { existsSync, lstatSync, mkdirSync, readFileSync, readdirSync, readlinkSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { TestServer, waitFor } from "./harness";
import { ghStandIn, git, gitEnv, makeRepo } from "./git-rig";

let s: TestServer;
let env: Record<string, string>;
let repo: string;
let gh: { bin: string; dir: string };
let wtRoot: string;
let tdir: string;
/** A `git` before the real one on the server's PATH: with $LATE_FILE_TRIGGER present, `git
 * [-c …] worktree remove DIR` first writes a file into DIR, as a program in the workstream might
 * while ws done runs. (Not a GIT_* name: ws passes none of those on to its git.) */
let lateTrigger: string;

const INTERPRETERS = ["bash", "sh", "zsh", "fish", "python3", "node"] as const;
type Interp = (typeof INTERPRETERS)[number];

beforeAll(async () => {
  for (const p of INTERPRETERS) if (!Bun.which(p)) throw new Error(`${p} is not installed: this test runs every interpreter it names (apt-get install -y zsh fish)`);
  s = new TestServer();
  env = gitEnv(s.root);
  gh = ghStandIn(s.root);
  lateTrigger = join(s.root, "git-late");
  const wrap = join(s.root, "git-wrap");
  mkdirSync(wrap);
  writeFileSync(
    join(wrap, "git"),
    `#!/bin/sh\ncase " $* " in *" worktree remove "*) if [ -e "$LATE_FILE_TRIGGER" ]; then\n  rm -f "$LATE_FILE_TRIGGER"; for a; do last=$a; done; echo late > "$last/appeared-late.txt"\nfi ;; esac\nexec '${Bun.which("git")}' "$@"\n`,
    { mode: 0o755 },
  );
  Object.assign(s.env, env, { PATH: `${wrap}:${gh.bin}:${process.env.PATH}`, LATE_FILE_TRIGGER: lateTrigger });
  ({ repo } = makeRepo(s.root, env));
  wtRoot = join(s.root, "data", "ws", "worktrees", "app");
  tdir = join(s.root, "config", "ws", "templates");
  mkdirSync(tdir, { recursive: true });
  await s.start();
}, 60_000);
afterAll(async () => {
  await s.stop();
}, 60_000);

const branches = () => git(repo, ["branch", "--list", "--format=%(refname:short)"], env).split("\n").filter(Boolean);
const workstreams = async () => ((await s.request({ v: 5, type: "dashboard" })).workstreams as { name: string; pane: number }[]).map((w) => w.name);

/** Every file under `dir` named like a marker an injection would leave. */
function markers(dir: string, names = ["PWNED", "PR_PWN"]): string[] {
  const found: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (names.includes(e.name)) found.push(join(d, e.name));
      // (.git holds refs named after the hostile branches: files, but no marker.)
      if (e.isDirectory() && e.name !== ".git") walk(join(d, e.name));
    }
  };
  walk(dir);
  return found;
}

// ---- placeholders never become code ------------------------------------------------

/** The issue's form, a placeholder in each interpreter's script text: refused on load. */
const SCRIPT_FORMS: Record<Interp, string[][]> = {
  bash: [["bash", "-lc", "echo {branch}; exec bash"], ["bash", "--login", "-c", "echo {branch}"]],
  sh: [["sh", "-ec", "echo {branch}"], ["env", "sh", "-c", "echo {name}"]],
  zsh: [["zsh", "-c", "echo {branch}"]],
  fish: [["fish", "-c", "echo {branch}"], ["fish", "--command=echo {name}"]],
  python3: [["python3", "-c", "print('{branch}')"], ["python3", "-Ic", "print('{name}')"]],
  node: [["node", "-e", "console.log('{branch}')"], ["node", "-pe", "'{name}'"]],
};

/** The form that holds: the script reads the environment. Setup writes WS_BRANCH to setup-out.txt,
 * the pane WS_NAME|WS_BRANCH|WS_DIR to pane-out.txt, then stays. */
const ENV_FORMS: Record<Interp, { setup: string[]; pane: string[] }> = {
  bash: { setup: ["bash", "-lc", 'printf %s "$WS_BRANCH" > setup-out.txt'], pane: ["bash", "-lc", 'printf %s "$WS_NAME|$WS_BRANCH|$WS_DIR" > pane-out.txt; exec cat'] },
  sh: { setup: ["sh", "-ec", 'printf %s "$WS_BRANCH" > setup-out.txt'], pane: ["env", "sh", "-c", 'printf %s "$WS_NAME|$WS_BRANCH|$WS_DIR" > pane-out.txt; exec cat'] },
  zsh: { setup: ["zsh", "-c", 'printf %s "$WS_BRANCH" > setup-out.txt'], pane: ["zsh", "-c", 'printf %s "$WS_NAME|$WS_BRANCH|$WS_DIR" > pane-out.txt; exec cat'] },
  fish: { setup: ["fish", "-c", 'printf %s "$WS_BRANCH" > setup-out.txt'], pane: ["fish", "--command", 'printf %s "$WS_NAME|$WS_BRANCH|$WS_DIR" > pane-out.txt; exec cat'] },
  python3: {
    setup: ["python3", "-c", 'import os; open("setup-out.txt", "w").write(os.environ["WS_BRANCH"])'],
    pane: ["python3", "-c", 'import os; e = os.environ; open("pane-out.txt", "w").write(e["WS_NAME"] + "|" + e["WS_BRANCH"] + "|" + e["WS_DIR"]); os.execvp("cat", ["cat"])'],
  },
  node: {
    setup: ["node", "-e", 'require("fs").writeFileSync("setup-out.txt", process.env.WS_BRANCH)'],
    pane: ["node", "-e", 'const e = process.env; require("fs").writeFileSync("pane-out.txt", [e.WS_NAME, e.WS_BRANCH, e.WS_DIR].join("|")); setInterval(() => {}, 1e9)'],
  },
};

const toml = (v: unknown) => JSON.stringify(v);

beforeAll(() => {
  for (const p of INTERPRETERS) {
    SCRIPT_FORMS[p].forEach((argv, i) => {
      // The issue's dev.toml: the setup and the pane both put {branch} in script text.
      writeFileSync(join(tdir, `code-${p}-${i}.toml`), `setup = [${toml(argv)}]\n\n[layout]\ntype = "pane"\ncommand = ${toml(argv)}\n`);
      writeFileSync(join(tdir, `pane-${p}-${i}.toml`), `# only the pane\n[layout]\ntype = "pane"\ncommand = ${toml(argv)}\n`);
    });
    writeFileSync(join(tdir, `env-${p}.toml`), `setup = [${toml(ENV_FORMS[p].setup)}]\n\n[layout]\ntype = "pane"\ncommand = ${toml(ENV_FORMS[p].pane)}\n`);
  }
});

/** Hostile workstream names (no /, as the name rule asks): each tries its interpreter's quoting. */
const hostileName = (p: Interp) =>
  ({
    bash: `b';touch\${IFS}PWNED;'$(touch\${IFS}PWNED)\`touch\${IFS}PWNED\``,
    sh: `s;touch\${IFS}PWNED;"$(touch\${IFS}PWNED)"`,
    zsh: `z;touch\${IFS}PWNED;$(touch\${IFS}PWNED)`,
    fish: `f';touch\${IFS}PWNED;(touch PWNED)'`.replace(" ", "_"),
    python3: `p'+__import__("os").system("touch\${IFS}PWNED")+'`,
    node: `n'+require("child_process").execSync("touch\${IFS}PWNED")+'`,
  })[p];

/** Hostile PR head branches, the issue's `pr5;touch${IFS}/tmp/PR_PWN` aimed at this test's root. */
const hostileBranch = (p: Interp) =>
  ({
    bash: `pr5;touch\${IFS}${s.root}/PR_PWN`,
    sh: `pr-sh;touch\${IFS}${s.root}/PR_PWN;$(touch\${IFS}${s.root}/PR_PWN)`,
    zsh: `pr-zsh';touch\${IFS}${s.root}/PR_PWN;'`,
    fish: `pr-fish;touch\${IFS}${s.root}/PR_PWN`,
    python3: `pr-py'+__import__("os").system("touch\${IFS}${s.root}/PR_PWN")+'`,
    node: `pr-node'+require("child_process").execSync("touch\${IFS}${s.root}/PR_PWN")+'`,
  })[p];

/** PR `n` on the remote: a commit published as refs/pull/N/head, whose head branch gh names `head`. */
function publishPr(n: number, head: string): void {
  git(repo, ["checkout", "--quiet", "--detach"], env);
  writeFileSync(join(repo, `pr${n}.txt`), `${n}\n`);
  git(repo, ["add", `pr${n}.txt`], env);
  git(repo, ["commit", "--quiet", "-m", `PR ${n}`], env);
  git(repo, ["push", "--quiet", "origin", `HEAD:refs/pull/${n}/head`], env);
  git(repo, ["checkout", "--quiet", "main"], env);
  writeFileSync(join(gh.dir, "head-branch"), head);
}

test("the issue's templates (a placeholder in bash -lc, sh -ec, env sh -c, zsh, fish, python3 -c, node -e script text) are refused with template_invalid, naming the line and the variable; nothing is made", async () => {
  const before = branches();
  const name = hostileName("bash");
  for (const p of INTERPRETERS)
    for (let i = 0; i < SCRIPT_FORMS[p].length; i++) {
      for (const kind of ["code", "pane"]) {
        const t = `${kind}-${p}-${i}`;
        const r = await s.v6({ type: "new_workstream", template: t, name, repo });
        expect({ t, code: r.code }).toEqual({ t, code: "template_invalid" });
        // The setup is on line 1, the pane's command on line 5 (4 in the pane-only file).
        expect(r.message).toContain(`${join(tdir, `${t}.toml`)}:${kind === "code" ? 1 : 4}:`);
        expect(r.message).toContain("a placeholder fills an argv element only as the whole element, marked as data");
        expect(r.message).toMatch(/WS_(BRANCH|NAME)/);
      }
    }
  // The CLI says the same; and through a PR whose head branch is hostile.
  const cli = await s.run(["new", "code-bash-0", name], { cwd: repo });
  expect(cli.code).toBe(1);
  expect(cli.stderr).toContain(`code-bash-0.toml:1: setup`);
  expect(cli.stderr).toContain('"$WS_BRANCH"');
  publishPr(5, hostileBranch("bash"));
  const pr = await s.run(["new", "code-bash-0", "pr5", "--pr", "5"], { cwd: repo });
  expect(pr.code).toBe(1);
  expect(pr.stderr).toContain("marked as data");
  expect(existsSync(wtRoot) ? readdirSync(wtRoot) : []).toEqual([]);
  expect(branches()).toEqual(before);
  expect(markers(s.root)).toEqual([]);
  // A name with a /, is no workstream name at all.
  const issue = await s.v6({ type: "new_workstream", template: "default", name: "z;touch${IFS}/tmp/PWN", repo });
  expect(issue.code).toBe("invalid_params");
  expect(issue.message).toContain("holds a /");
}, 60_000);

/** Templates that put a placeholder where perl or git reads it as code, though no script flag is
 * in sight: an option's argument, an interpreter's start-up variable, git's ssh command. */
const CODE_SPOTS: Record<string, string> = {
  "perl-M": `[layout]\ntype = "pane"\ncommand = ["perl", "-M{branch}", "-e", "1"]\n`,
  "perl-setup": `setup = [["perl", "-M{branch}", "-e", "1"]]\n`,
  perl5opt: `[layout]\ntype = "pane"\ncommand = ["perl", "-e", "1"]\nenv = { PERL5OPT = "-M{branch}" }\n`,
  "git-ssh": `[layout]\ntype = "pane"\ncommand = ["git", "fetch", "origin"]\nenv = { GIT_SSH_COMMAND = "{branch}" }\n`,
  "ws-ssh": `[layout]\ntype = "pane"\nenv = { WS_SSH_COMMAND = "{branch}" }\n`,
};

test("the issue's perl -M{branch} (from ws new NAME and through a PR's head branch), PERL5OPT and GIT_SSH_COMMAND templates are refused with template_invalid naming the line and WS_BRANCH; nothing runs, nothing is made", async () => {
  for (const [t, text] of Object.entries(CODE_SPOTS)) writeFileSync(join(tdir, `spot-${t}.toml`), text);
  const before = branches();
  // A module name perl loads with `use`, with code after it: what -M{branch} would run.
  const perlName = "strict;system(q(touch),q(PWNED))";
  for (const [t, text] of Object.entries(CODE_SPOTS)) {
    const file = join(tdir, `spot-${t}.toml`);
    const r = await s.v6({ type: "new_workstream", template: `spot-${t}`, name: "perl-1", repo });
    expect({ t, code: r.code }).toEqual({ t, code: "template_invalid" });
    expect(r.message).toContain(`${file}:${text.split("\n").findIndex((l) => l.includes("{branch}")) + 1}:`);
    expect(r.message).toContain('"$WS_BRANCH"');
    const cli = await s.run(["new", `spot-${t}`, perlName], { cwd: repo });
    expect({ t, code: cli.code }).toEqual({ t, code: 1 });
    expect(cli.stderr).toContain(`${file}:`);
  }
  publishPr(9, perlName);
  const pr = await s.run(["new", "spot-perl-M", "pr9", "--pr", "9"], { cwd: repo });
  expect(pr.code).toBe(1);
  expect(pr.stderr).toContain("{branch} in \"-M{branch}\"");
  expect(existsSync(wtRoot) ? readdirSync(wtRoot) : []).toEqual([]);
  expect(branches()).toEqual(before);
  expect(markers(s.root)).toEqual([]);
  // The same value as an element the template marks as data, after git's end of options, reaches
  // git as one argument: the template loads, the pane's git names the branch and runs nothing.
  writeFileSync(join(tdir, "spot-data.toml"), `[layout]\ntype = "pane"\nenv = { WS_SHOWN = "{branch}", BRANCH = "{branch}" }\ncommand = ["sh", "-c", 'git log -1 --format=%s --end-of-options "$1" > data-out.txt; printf %s "$BRANCH|$WS_SHOWN" >> data-out.txt; exec cat', "sh", "{data:branch}"]\n`);
  const made = await s.run(["new", "spot-data", "pr9", "--pr", "9"], { cwd: repo });
  expect(made.code).toBe(0);
  expect(made.stderr).toStartWith("workstream pr9: pane "); // what was made, and nothing else
  const out = await waitFor("the data pane to write what it read", () => existsSync(join(wtRoot, "pr9", "data-out.txt")) && readFileSync(join(wtRoot, "pr9", "data-out.txt"), "utf8").includes("|") && readFileSync(join(wtRoot, "pr9", "data-out.txt"), "utf8"), 20_000);
  expect(out).toBe(`PR 9\n${perlName}|${perlName}`);
  expect(markers(s.root)).toEqual([]);
}, 60_000);

test("in bash, sh, zsh, fish, python3 and node, hostile names from ws new NAME and from a PR's head branch reach the script as data through WS_NAME, WS_BRANCH and WS_DIR, and run nothing", async () => {
  let n = 10;
  for (const p of INTERPRETERS) {
    for (const from of ["name", "pr"] as const) {
      const name = from === "name" ? hostileName(p) : `pr-${p}`;
      let args = ["new", `env-${p}`, name];
      let branch = name;
      if (from === "pr") {
        branch = hostileBranch(p);
        publishPr(++n, branch);
        args = [...args, "--pr", String(n)];
      }
      const out = await s.run(args, { cwd: repo });
      // stderr says what was made (stdout is the pane id) and nothing else.
      const problems = out.stderr.split("\n").filter((l) => l !== "" && !l.startsWith("workstream "));
      expect({ p, from, code: out.code, problems }).toEqual({ p, from, code: 0, problems: [] });
      const dir = join(wtRoot, name);
      expect(git(dir, ["rev-parse", "--abbrev-ref", "HEAD"], env)).toBe(branch);
      expect(readFileSync(join(dir, "setup-out.txt"), "utf8")).toBe(branch);
      const pane = await waitFor(`${p}'s pane to write what it read`, () => existsSync(join(dir, "pane-out.txt")) && readFileSync(join(dir, "pane-out.txt"), "utf8"), 20_000);
      expect(pane).toBe(`${name}|${branch}|${dir}`);
    }
  }
  expect(markers(s.root)).toEqual([]);
}, 180_000);

// ---- copy and .worktreeinclude follow no link out -----------------------------------

/** Another clone of the remote, to push what an attacker would. */
function attackerClone(): string {
  const other = join(s.root, `attacker-${Math.random().toString(36).slice(2, 8)}`);
  git(s.root, ["clone", "--quiet", join(s.root, "remote.git"), other], env);
  return other;
}

test("write escape: origin/main makes conf a link to a directory outside, .worktreeinclude lists conf/authorized_keys; ws new refuses naming the link, twice, writes nothing there and leaves no worktree", async () => {
  const victim = join(s.root, "victim");
  mkdirSync(victim);
  // The main clone: conf/ tracked, conf/authorized_keys the user's own (ignored), listed to copy.
  mkdirSync(join(repo, "conf"));
  writeFileSync(join(repo, "conf", "README"), "config\n");
  writeFileSync(join(repo, ".gitignore"), "conf/authorized_keys\n");
  writeFileSync(join(repo, ".worktreeinclude"), "conf/authorized_keys\n");
  git(repo, ["add", "conf/README", ".gitignore", ".worktreeinclude"], env);
  git(repo, ["commit", "--quiet", "-m", "conf"], env);
  git(repo, ["push", "--quiet", "origin", "main"], env);
  writeFileSync(join(repo, "conf", "authorized_keys"), "ssh-ed25519 AAAA user@host\n");
  // Someone pushes conf as a link to the victim directory.
  const other = attackerClone();
  rmSync(join(other, "conf"), { recursive: true });
  symlinkSync(victim, join(other, "conf"));
  git(other, ["add", "-A"], env);
  git(other, ["commit", "--quiet", "-m", "conf is a link now"], env);
  git(other, ["push", "--quiet", "origin", "main"], env);

  const before = branches();
  for (const attempt of [1, 2]) {
    const r = await s.run(["new", "default", "w"], { cwd: repo });
    expect({ attempt, code: r.code }).toEqual({ attempt, code: 1 });
    expect(r.stderr).toContain('copy "conf/authorized_keys"');
    expect(r.stderr).toContain(`${join(wtRoot, "w", "conf")} is a symbolic link to ${victim}`);
    expect(readdirSync(victim)).toEqual([]);
    expect(existsSync(join(wtRoot, "w"))).toBe(false);
    expect(branches()).toEqual(before);
  }
  expect((await s.v6({ type: "new_workstream", template: "default", name: "w", repo })).code).toBe("path_escapes");
  expect(await workstreams()).not.toContain("w");
  // The link is reverted on the remote, so the next tests start from a plain conf again.
  git(other, ["revert", "--no-edit", "HEAD"], env);
  git(other, ["push", "--quiet", "origin", "main"], env);
  git(repo, ["pull", "--quiet", "--ff-only", "origin", "main"], env);
}, 60_000);

test("read escape: the clone tracks lnk -> a directory outside and lists lnk/id_key (in .worktreeinclude or a template's copy), or lists a link to a file outside, or a directory holding one; all refused, nothing copied, no worktree", async () => {
  const secret = join(s.root, "secretdir");
  mkdirSync(secret);
  writeFileSync(join(secret, "id_key"), "SECRET KEY\n");
  symlinkSync(secret, join(repo, "lnk"));
  git(repo, ["add", "lnk"], env);
  git(repo, ["commit", "--quiet", "-m", "a link"], env);
  git(repo, ["push", "--quiet", "origin", "main"], env);
  // Untracked in the main clone: a link to the secret file, and a directory with one inside.
  symlinkSync(join(secret, "id_key"), join(repo, "keylink"));
  mkdirSync(join(repo, "cfgdir"));
  writeFileSync(join(repo, "cfgdir", "ok.txt"), "fine\n");
  symlinkSync(join(secret, "id_key"), join(repo, "cfgdir", "key"));
  writeFileSync(join(tdir, "copy-lnk.toml"), `copy = ["lnk/id_key"]\n`);

  const before = branches();
  const cases: [string, string, string][] = [
    ["default", "lnk/id_key", `${join(repo, "lnk")} is a symbolic link to ${secret}`],
    ["copy-lnk", "", `${join(repo, "lnk")} is a symbolic link to ${secret}`],
    ["default", "keylink", `${join(repo, "keylink")} is a symbolic link to ${join(secret, "id_key")}`],
    ["default", "cfgdir", `${join(repo, "cfgdir", "key")} is a symbolic link to ${join(secret, "id_key")}`],
  ];
  for (const [template, include, says] of cases) {
    writeFileSync(join(repo, ".worktreeinclude"), include ? `${include}\n` : "");
    const r = await s.v6({ type: "new_workstream", template, name: "r2", repo });
    expect({ template, include, code: r.code }).toEqual({ template, include, code: "path_escapes" });
    expect(r.message).toContain(says);
    expect(r.message).toContain("outside the main checkout");
    expect(existsSync(join(wtRoot, "r2"))).toBe(false);
    expect(branches()).toEqual(before);
  }
  // Links that stay inside are copied as links; plain files and directories as before; a FIFO is
  // skipped (no wait on it).
  rmSync(join(repo, "cfgdir", "key"));
  symlinkSync("ok.txt", join(repo, "cfgdir", "alias"));
  Bun.spawnSync(["mkfifo", join(repo, "cfgdir", "pipe")]);
  writeFileSync(join(repo, ".worktreeinclude"), "cfgdir\n");
  const ok = await s.v6({ type: "new_workstream", template: "default", name: "r3", repo });
  expect(ok.type).toBe("pane");
  expect(readFileSync(join(ok.dir, "cfgdir", "ok.txt"), "utf8")).toBe("fine\n");
  expect(readlinkSync(join(ok.dir, "cfgdir", "alias"))).toBe("ok.txt");
  expect(existsSync(join(ok.dir, "cfgdir", "pipe"))).toBe(false);
  expect(lstatSync(join(ok.dir, "lnk")).isSymbolicLink()).toBe(true); // git's own checkout of it
  git(repo, ["checkout", "--", ".worktreeinclude"], env);
}, 60_000);

// ---- names stay in their directory ----------------------------------------------------

/** Every path under the worktrees' root, two levels down. */
function worktreeDirs(): string[] {
  const root = join(s.root, "data", "ws", "worktrees");
  if (!existsSync(root)) return [];
  return readdirSync(root).flatMap((r) => [r, ...readdirSync(join(root, r)).map((w) => `${r}/${w}`)]);
}

test("workstream, review and template names follow the path-name rule (no /, no .., no leading -), and a refused name creates nothing, not even an empty directory", async () => {
  const before = worktreeDirs();
  const beforeBranches = branches();
  const bad = [
    "../../../../escape2", // from $WS_WORKTREES/app, it would be the test's root
    "../../../../../../tmp/x/escape2",
    "--upload-pack=touch x",
    "-x",
    "..",
    ".",
    "a/b",
  ];
  for (const name of bad) {
    const r = await s.v6({ type: "new_workstream", template: "default", name, branch: "main", repo });
    expect({ name, code: r.code }).toEqual({ name, code: "invalid_params" });
    const cli = await s.run(["new", "default", name, "--branch", "side"], { cwd: repo });
    expect(cli.code).not.toBe(0);
  }
  expect(existsSync(join(s.root, "escape2"))).toBe(false);
  // Names the rule lets through but git refuses as branches: still nothing made.
  for (const name of ["has space", "x.lock", "a:b", "end."]) {
    const r = await s.v6({ type: "new_workstream", template: "default", name, repo });
    expect({ name, code: r.code }).toEqual({ name, code: "invalid_params" });
  }
  expect(worktreeDirs()).toEqual(before);
  expect(branches()).toEqual(beforeBranches);
  // Templates: the same rule.
  for (const t of ["../default", "-x", "a..b"]) expect((await s.v6({ type: "new_workstream", template: t, name: "t1", repo })).code).toBe("template_not_found");
  // Reviews: open_review's name is a workstream's name too, and its paths are absolute.
  const review = (o: Record<string, unknown>) =>
    s.v6({ type: "open_review", workspace: "PR Review", title: "t", name: "review-app-1", template: "review", repo, dir: join(wtRoot, "nope"), vars: [], ...o });
  expect((await review({ name: "../review" })).code).toBe("invalid_params");
  expect((await review({ dir: "relative/dir" })).code).toBe("invalid_params");
  expect(worktreeDirs()).toEqual(before);
}, 60_000);

// ---- ws done finishes, or refuses and the workstream stays -----------------------

test("ws done: a file that appears after its check (git refuses the removal) makes it refuse, and the workstream, its tab and worktree stay; then it finishes", async () => {
  const made = await s.v6({ type: "new_workstream", template: "default", name: "race-1", repo });
  expect(made.type).toBe("pane");
  const dir = made.dir as string;
  writeFileSync(lateTrigger, "");
  const r = await s.run(["done", "race-1"]);
  expect(r.code).toBe(1);
  expect(r.stderr).toContain("changed while ws done ran");
  expect(existsSync(lateTrigger)).toBe(false); // the file did appear, during git's removal
  expect(existsSync(join(dir, "appeared-late.txt"))).toBe(true);
  expect(await workstreams()).toContain("race-1");
  expect((await s.list()).flatMap((w) => w.tabs).some((t) => t.panes.includes(made.pane))).toBe(true);
  // Asked again, it names the file; once it is gone, done finishes: the worktree goes, then the name.
  const again = await s.v6({ type: "workstream_done", name: "race-1" });
  expect(again.code).toBe("uncommitted_changes");
  expect(again.message).toContain("appeared-late.txt");
  rmSync(join(dir, "appeared-late.txt"));
  expect((await s.v6({ type: "workstream_done", name: "race-1" })).type).toBe("ok");
  expect(existsSync(dir)).toBe(false); // gone by the time of the reply
  expect(git(repo, ["worktree", "list"], env)).not.toContain(dir);
  expect((await s.v6({ type: "workstream_done", name: "race-1" })).code).toBe("not_a_workstream");
}, 60_000);

test("ws done while a program keeps writing files into the worktree: each time it either finished (worktree and name gone) or refused (both still there)", async () => {
  const outcomes: string[] = [];
  for (const [i, delay] of ["0", "0.3", "0.6", "1.2"].entries()) {
    const name = `race-w${i}`;
    const made = await s.v6({ type: "new_workstream", template: "default", name, repo });
    const dir = made.dir as string;
    // The writer starts a moment after ws done does, at a different moment each round.
    const writer = Bun.spawn(["sh", "-c", `sleep ${delay}; n=0; while [ $n -lt 1000 ]; do { echo x > "$1/w$n.txt"; } 2>/dev/null || exit 0; n=$((n+1)); done`, "sh", dir]);
    const t0 = performance.now();
    const r = await s.run(["done", name]);
    console.log(`ws done ${name} (writer after ${delay} s): exit ${r.code} after ${(performance.now() - t0).toFixed(0)} ms`);
    await writer.exited;
    if (r.code === 0) {
      outcomes.push("finished");
      expect(await workstreams()).not.toContain(name);
      expect(git(repo, ["worktree", "list", "--porcelain"], env)).not.toContain(`worktree ${dir}\n`);
    } else {
      outcomes.push("refused");
      expect(r.stderr).toMatch(/uncommitted changes|changed while ws done ran|failed/);
      expect(await workstreams()).toContain(name);
      expect((await s.run(["done", name, "--force"])).code).toBe(0);
      expect(await workstreams()).not.toContain(name);
    }
  }
  console.log(`ws done against a writer: ${outcomes.join(", ")}`);
}, 120_000);
