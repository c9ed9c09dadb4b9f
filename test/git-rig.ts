// Real git for workstream tests: a repository with a local bare repository as its remote, and a
// git configuration of the test's own (GIT_CONFIG_GLOBAL), so nothing depends on the machine's.
// ws's own git runs with no GIT_* variable, so the same configuration is also ROOT/.gitconfig,
// which it reads when ROOT is the daemon's HOME (as TestServer's root is).
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { TestServer } from "./harness";

export function gitEnv(root: string): Record<string, string> {
  const cfg = join(root, "gitconfig");
  const text = "[user]\n\tname = Test\n\temail = test@example.invalid\n[init]\n\tdefaultBranch = main\n[advice]\n\tdetachedHead = false\n";
  writeFileSync(cfg, text);
  writeFileSync(join(root, ".gitconfig"), text);
  return { GIT_CONFIG_GLOBAL: cfg, GIT_CONFIG_NOSYSTEM: "1", XDG_DATA_HOME: join(root, "data") };
}

/** Run git; throws with its output when it fails. */
export function git(cwd: string, args: string[], env: Record<string, string>): string {
  const r = Bun.spawnSync(["git", ...args], { cwd, env: { ...process.env, ...env } });
  if (r.exitCode !== 0) throw new Error(`git ${args.join(" ")} in ${cwd}: ${r.stderr.toString()}`);
  return r.stdout.toString().trim();
}

/** `app` with one commit pushed to the bare `remote.git`, origin/HEAD set. */
export function makeRepo(root: string, env: Record<string, string>, files: Record<string, string> = {}): { repo: string; remote: string } {
  const repo = join(root, "app");
  const remote = join(root, "remote.git");
  mkdirSync(repo, { recursive: true });
  git(root, ["init", "--quiet", "--bare", remote], env);
  git(repo, ["init", "--quiet"], env);
  writeFileSync(join(repo, "README.md"), "# app\n");
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(repo, path, ".."), { recursive: true });
    writeFileSync(join(repo, path), text);
  }
  git(repo, ["add", "-A"], env);
  git(repo, ["commit", "--quiet", "-m", "first"], env);
  git(repo, ["remote", "add", "origin", remote], env);
  git(repo, ["push", "--quiet", "-u", "origin", "main"], env);
  git(repo, ["remote", "set-head", "origin", "main"], env);
  return { repo, remote };
}

/** A TestServer, not yet started, whose daemon and CLI use the test's git configuration, with
 * `app` made by makeRepo; `wtRoot` is where ws puts app's worktrees. */
export function gitServer(files: Record<string, string> = {}): { s: TestServer; env: Record<string, string>; repo: string; wtRoot: string } {
  const s = new TestServer();
  const env = gitEnv(s.root);
  Object.assign(s.env, env);
  const { repo } = makeRepo(s.root, env, files);
  return { s, env, repo, wtRoot: join(s.root, "data", "ws", "worktrees", "app") };
}

/** A stand-in `gh` on PATH: answers `pr view` from $GH_STANDIN/pr.json, `api graphql` from
 * threads.json, `pr checkout N [--branch B]` by fetching origin's pull/N/head, and `pr create` by
 * writing its argv, each word ended by an ASCII RS (0x1e), to pr-create.argv and printing a PR
 * URL. Every call is logged to calls.log. */
export function ghStandIn(root: string): { bin: string; dir: string } {
  const bin = join(root, "gh-bin");
  const dir = join(root, "gh-data");
  mkdirSync(bin, { recursive: true });
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(bin, "gh"),
    `#!/bin/sh
d='${dir}'
echo "$*" >> "$d/calls.log"
case "$1 $2" in
  "pr view") cat "$d/pr.json" ;;
  "api graphql") cat "$d/threads.json" ;;
  "pr checkout")
    n=$3; shift 3; branch=$(cat "$d/head-branch" 2>/dev/null || echo pr-head)
    while [ $# -gt 0 ]; do [ "$1" = --branch ] && { branch=$2; shift; }; shift; done
    git fetch -q origin "pull/$n/head" && git checkout -q -B "$branch" FETCH_HEAD ;;
  "pr create") printf '%s\\036' "$@" > "$d/pr-create.argv"; echo "https://github.example.invalid/o/app/pull/7" ;;
  *) echo "stand-in gh: no answer for: $*" >&2; exit 1 ;;
esac
`,
    { mode: 0o755 },
  );
  return { bin, dir };
}

/** PR `n` on the bare remote: a branch `head` with one commit, published as refs/pull/N/head. */
export function makePr(repo: string, env: Record<string, string>, n: number, head: string): void {
  git(repo, ["checkout", "--quiet", "-b", head], env);
  writeFileSync(join(repo, `${head}.txt`), `${head}\n`);
  git(repo, ["add", "-A"], env);
  git(repo, ["commit", "--quiet", "-m", `${head}: change`], env);
  git(repo, ["push", "--quiet", "origin", `${head}:${head}`, `${head}:refs/pull/${n}/head`], env);
  git(repo, ["checkout", "--quiet", "main"], env);
}
