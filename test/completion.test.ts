// ws completion bash|zsh|fish: loaded in real shells, completing from the command table, with
// dynamic values from a real running server (and nothing, quickly, when none runs).
import { afterAll, beforeAll, expect, test } from "bun:test";
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { commandJsonByPath } from "../src/cli/message-table";
import { TestServer, wsArgv } from "./harness";
import { GLOBALS } from "../src/cli-table/globals";

let s: TestServer;
let dir: string;
let env: Record<string, string>;
const scripts: Record<string, string> = {};

beforeAll(async () => {
  s = new TestServer();
  dir = mkdtempSync(join(tmpdir(), "ws-completion-"));
  // `ws` on the PATH, as the scripts call it: this checkout (or WS_BIN).
  writeFileSync(join(dir, "ws"), `#!/bin/sh\nexec ${wsArgv().map((a) => `'${a}'`).join(" ")} "$@"\n`);
  chmodSync(join(dir, "ws"), 0o755);
  env = { ...s.env, PATH: `${dir}:${process.env.PATH}` };
  for (const shell of ["bash", "zsh", "fish"]) {
    const r = await s.run(["completion", shell]);
    expect(r.code).toBe(0);
    scripts[shell] = join(dir, `completion.${shell}`);
    writeFileSync(scripts[shell]!, r.stdout);
  }
}, 60_000);
afterAll(async () => {
  await s.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** What bash's completion offers for the command line `words` (the last word being completed). */
function bashComplete(...words: string[]): string[] {
  const p = Bun.spawnSync(
    ["bash", "--norc", "--noprofile", "-c", `source "$0"; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _ws; printf '%s\\n' "\${COMPREPLY[@]}"`, scripts.bash!, "ws", ...words],
    { env, stderr: "pipe" },
  );
  expect(p.stderr.toString()).toBe("");
  return p.stdout.toString().split("\n").filter(Boolean);
}

const table = Object.values(commandJsonByPath()).map((j) => JSON.parse(j) as { path: string; params: { flag?: string }[] });

test("bash: the script registers _ws for ws", () => {
  const p = Bun.spawnSync(["bash", "--norc", "--noprofile", "-c", 'source "$0" && complete -p ws', scripts.bash!], { env, stderr: "pipe" });
  expect(p.stderr.toString()).toBe("");
  expect(p.stdout.toString().trim()).toBe("complete -o filenames -F _ws ws");
});

test("bash: commands, subcommands and flags come from the command table", () => {
  expect(bashComplete("pa")).toEqual(["pane"]);
  const paneSubs = table.filter((c) => c.path.startsWith("pane ")).map((c) => c.path.slice(5));
  expect(bashComplete("pane", "").sort()).toEqual(paneSubs.sort());
  expect(bashComplete("workspace", "n")).toEqual(["new"]);
  // A command's flags (one letter: one dash), and the values its arguments accept.
  const split = table.find((c) => c.path === "split")!;
  const flags = split.params.filter((p) => p.flag).map((p) => (p.flag!.length === 1 ? `-${p.flag}` : `--${p.flag}`));
  const globalsAfter = GLOBALS.flatMap((g) => g.flags).filter((f) => !["--help", "-h", "--version", "-v"].includes(f));
  expect(bashComplete("split", "-").sort()).toEqual([...flags, "--help", ...globalsAfter].sort());
  expect(bashComplete("completion", "")).toEqual(["--values", "--install", "--help", "bash", "zsh", "fish"]);
  // Global flags come first and are skipped; their values are not commands.
  expect(bashComplete("-L", "work", "--json", "pa")).toEqual(["pane"]);
  expect(bashComplete("--timeout", "500", "pa")).toEqual(["pane"]);
  // Every global flag, from the one list help prints: at the start, and after a command when the
  // word begins with a dash.
  const globals = GLOBALS.flatMap((g) => g.flags);
  expect(bashComplete("-").sort()).toEqual(globals.sort());
  expect(bashComplete("pane", "list", "--t")).toEqual(["--timeout"]);
  expect(bashComplete("split", "--j")).toEqual(["--json"]);
  expect(bashComplete("pane", "list", "")).not.toContain("--json");
  // ws help takes a command's words.
  expect(bashComplete("help", "pa")).toEqual(["pane"]);
  // A directory for --cwd, and programs after --.
  expect(bashComplete("split", "--cwd", "/bi")).toContain("/bin");
  expect(bashComplete("split", "--", "bas")).toContain("bash");
}, 30_000);

test("dynamic values come from the running server, and nothing when none runs", async () => {
  expect(bashComplete("pane", "send", "")).toEqual(["--enter", "--wait-output", "--timeout", "--help"]);
  const quiet = await s.run(["completion", "--values", "pane"]);
  expect(quiet).toEqual({ code: 0, stdout: "", stderr: "" });
  // Nothing, and no server started to answer (how fast is not a test's to time).
  expect(existsSync(s.sock)).toBe(false);

  await s.start();
  await s.ok(["workspace", "new", "Games"]);
  await s.ok(["tab", "new", "--workspace", "Games", "--name", "Build"]);
  const panes = JSON.parse(await s.ok(["--json", "pane", "list"])).panes as { pane: number }[];
  expect(panes.length).toBe(3);
  expect(bashComplete("pane", "send", "").sort()).toEqual(["--enter", "--wait-output", "--timeout", "--help", ...panes.map((p) => String(p.pane))].sort());
  expect(bashComplete("workspace", "focus", "G")).toEqual(["Games"]);
  expect(bashComplete("tab", "new", "--workspace", "")).toEqual(["main", "Games"]);
  expect(bashComplete("tab", "close", "B")).toEqual(["Build"]);
  expect(bashComplete("new", "rev")).toEqual(["review"]);
}, 60_000);

test("ws -L <Tab> offers the servers running here, by name", async () => {
  // A second server beside the test's, by -L name, in the same socket directory.
  try {
    expect((await s.run(["-L", "work", "start"])).code).toBe(0);
    if (!existsSync(s.sock)) await s.start();
    expect(bashComplete("-L", "").sort()).toEqual(["default", "work"]);
    expect(bashComplete("--socket-name", "w")).toEqual(["work"]);
    // After the name, the command as before, against that server.
    expect(bashComplete("-L", "work", "pa")).toEqual(["pane"]);
  } finally {
    await s.run(["-L", "work", "kill-server"]);
  }
}, 60_000);

test("ws completion for a shell it has no script for says which shells it knows (usage, exit 2)", async () => {
  const r = await s.run(["completion", "tcsh"]);
  expect(r.code).toBe(2);
  expect(r.stderr).toContain('SHELL for completion is one of bash, zsh, fish, got "tcsh"');
  expect(r.stdout).toBe("");
});

// compinit and _ws_candidates run ws itself (from source: seconds each on a loaded 2-core box).
test("zsh: the script loads through compinit, from fpath or sourced, and completes", () => {
  const fp = join(dir, "zfunc");
  require("node:fs").mkdirSync(fp, { recursive: true });
  require("node:fs").copyFileSync(scripts.zsh!, join(fp, "_ws"));
  const p = Bun.spawnSync(
    ["zsh", "-f", "-c", `fpath=("$0" $fpath); autoload -U compinit && compinit -u -D; print -r -- "\${_comps[ws]}"; source "$1"; _ws_candidates | grep -x pane`, fp, scripts.zsh!],
    { env: { ...env, HOME: dir }, stderr: "pipe" },
  );
  expect(p.stderr.toString()).toBe("");
  expect(p.stdout.toString().split("\n").filter(Boolean)).toEqual(["_ws", "pane"]);
}, 60_000);

test("fish: the script loads and completes through fish's own complete -C", () => {
  const p = Bun.spawnSync(["fish", "--no-config", "-c", `source $argv[1]; and complete -C "ws pa"; and complete -C "ws pane re"; and complete -C "ws pane list --ti"`, scripts.fish!], { env: { ...env, HOME: dir }, stderr: "pipe" });
  expect(p.stderr.toString()).toBe("");
  expect(p.stdout.toString().split("\n").filter(Boolean)).toEqual(["pane", "read", "rename", "resize", "respawn", "--timeout"]);
});

test("ws completion --install PREFIX writes each shell's script where it looks, as ws completion SHELL prints it", async () => {
  const prefix = join(dir, "prefix");
  const r = await s.run(["completion", "--install", prefix]);
  expect(r.code).toBe(0);
  const placed = { bash: "bash-completion/completions/ws", zsh: "zsh/site-functions/_ws", fish: "fish/vendor_completions.d/ws.fish" };
  for (const [shell, rel] of Object.entries(placed)) {
    const file = join(prefix, "share", rel);
    expect(r.stdout).toContain(`${shell} completions: ${file}`);
    expect(readFileSync(file, "utf8")).toBe(readFileSync(scripts[shell]!, "utf8"));
    expect(statSync(file).mode & 0o777).toBe(0o644);
  }
  expect(r.stdout).toContain(`add ${join(prefix, "share")} to XDG_DATA_DIRS`);
});
