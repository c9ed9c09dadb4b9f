// Templates without a server: placeholders fill only what stays data (cwd, label, a data
// variable's env value, a whole argv element the template marks as data), anything else is refused
// on load, naming the WS_ variable to read instead; mistakes name the file and line; the built-ins parse.
import { expect, test } from "bun:test";
import { BUILTINS, argvProblem, fillArgv, instantiate, loadTemplate, parseTemplate, placeholderEnv, setupCommands } from "../src/features/workstreams/templates";

const hostile = { name: "n", branch: "x$(echo injected);`echo id`'q", dir: "/wt/a b" };

test("a placeholder fills a whole argv element marked as data, cwd, a label and a data variable; its value is in the environment as WS_<NAME>", async () => {
  expect(fillArgv(["git", "log", "--end-of-options", "{data:branch}", "{data:dir}"], hostile)).toEqual(["git", "log", "--end-of-options", hostile.branch, "/wt/a b"]);
  // A script's arguments ($1, …) are data: a placeholder may be one.
  const argv = fillArgv(["sh", "-c", 'printf "%s|%s" "$1" "$WS_BRANCH"', "sh", "{data:branch}"], hostile);
  const t = parseTemplate("t", `setup = ["printf '%s' \\"$WS_BRANCH\\"", ["echo", "{data:branch}"]]\n`);
  const env = { ...process.env, ...placeholderEnv(hostile) };
  expect(Bun.spawnSync(argv, { env }).stdout.toString()).toBe(`${hostile.branch}|${hostile.branch}`);
  const [line, echo] = setupCommands(t, hostile);
  expect(Bun.spawnSync(line!, { env }).stdout.toString()).toBe(hostile.branch);
  expect(echo).toEqual(["echo", hostile.branch]);
  expect(placeholderEnv(hostile)).toMatchObject({ WS_NAME: "n", WS_BRANCH: hostile.branch, WS_DIR: "/wt/a b", WS_PR: "" });
  const tree = instantiate(parseTemplate("t", `[layout]\ntype = "pane"\ncommand = ["sh", "-c", "echo \\"$WS_BRANCH\\""]\n`), hostile, "/wt/a b", "n");
  expect(tree).toMatchObject({ command: ["sh", "-c", 'echo "$WS_BRANCH"'], env: { WS_BRANCH: hostile.branch, WS_WORKSTREAM: "n" } });
  const data = parseTemplate("t", `[layout]\ntype = "pane"\nlabel = "{name}"\ncwd = "sub/{name}"\nenv = { WS_TICKET = "{branch}", BRANCH = "{branch}", PR = "{pr}", PR_URL = "{url}" }\n`);
  expect(instantiate(data, { ...hostile, pr: "5", url: "https://x.invalid/5" }, "/wt", "n")).toMatchObject({ label: "n", cwd: "/wt/sub/n", env: { WS_TICKET: hostile.branch, BRANCH: hostile.branch, PR: "5", PR_URL: "https://x.invalid/5" } });
});

test("a placeholder anywhere else in an argv is refused, whatever the program: an option, part of an element, script text, the program, an unmarked element", () => {
  const refused = (argv: string[]) => argvProblem(argv);
  for (const argv of [
    // The issue's: perl loads a module named by the branch, and code runs at its import.
    ["perl", "-M{branch}", "-e", "1"],
    ["perl", "-M{data:branch}"],
    ["perl", "{branch}"],
    ["ruby", "-r{branch}"],
    ["python3", "-m", "{branch}"],
    ["git", "-c", "core.sshCommand={branch}", "fetch"],
    ["git", "log", "{branch}"], // not marked as data: git would take "--output=…" as an option
    ["ssh", "-oProxyCommand={branch}", "host"],
    ["bash", "-lc", "echo {branch}; exec bash"],
    ["sh", "-ec", "echo {data:branch}"],
    ["env", "sh", "-c", "echo {branch}"],
    ["python3", "-c", "print('{branch}')"],
    ["node", "-e", "console.log('{branch}')"],
    ["nvim", "+{branch}"],
    ["some-tool-nobody-listed", "--hook={branch}"],
    ["git", "log", "origin/{branch}..HEAD"],
    ["echo", "hi {name}"],
    ["{data:dir}/run.sh"],
    ["{branch}"],
  ])
    expect({ argv, problem: refused(argv) }).toMatchObject({ argv, problem: expect.stringContaining("WS_") });
  for (const argv of [
    ["git", "log", "--end-of-options", "{data:branch}"],
    ["sh", "-c", 'echo "$1"', "sh", "{data:branch}"],
    ["bash", "{data:dir}"],
    ["open", "{data:url}"],
    ["tool", "{data:pr}", "{not_ours}", "--x={also_not_ours}"],
  ])
    expect({ argv, problem: refused(argv) }).toEqual({ argv, problem: undefined });
  // The message names the marker and the variable to read.
  expect(refused(["perl", "-M{branch}"])).toContain('"{data:branch}"');
  expect(refused(["perl", "-M{branch}"])).toContain('"$WS_BRANCH" in a shell');
  expect(refused(["node", "-e", "console.log('{name}')"])).toContain("process.env.WS_NAME");
  expect(refused(["{branch}"])).toContain("names the program");
});

test("an env value takes a placeholder only for WS_* (not *_COMMAND) and BRANCH, PR, PR_URL: PERL5OPT, GIT_SSH_COMMAND, PS1, BASH_ENV and the rest are refused", () => {
  const load = (env: string) => {
    try {
      parseTemplate("t", `# a pane\n[layout]\ntype = "pane"\nenv = { ${env} }\n`, "/cfg/t.toml");
      return "loaded";
    } catch (e) {
      return (e as Error).message;
    }
  };
  for (const env of [
    'PERL5OPT = "-M{branch}"',
    'GIT_SSH_COMMAND = "{branch}"',
    'GIT_SSH_COMMAND = "{data:branch}"',
    'PS1 = "{branch} $ "',
    'BASH_ENV = "{dir}/env.sh"',
    'NODE_OPTIONS = "--require={branch}"',
    'PYTHONSTARTUP = "{branch}"',
    'LD_PRELOAD = "{branch}"',
    'EDITOR = "{branch}"',
    'GREETING = "hi {branch}"',
    'WS_SSH_COMMAND = "{branch}"',
    'WS_REVIEW_COMMAND = "{context}"',
  ]) {
    const message = load(env);
    expect({ env, message }).toMatchObject({ env, message: expect.stringMatching(/^\/cfg\/t\.toml:4: env [A-Z0-9_]+: \{[a-z]+\} may fill only .*"\$WS_[A-Z]+" in a shell/) });
  }
  for (const env of ['WS_TICKET = "{branch}"', 'BRANCH = "{branch}"', 'PR = "{pr}"', 'PR_URL = "{url}"', 'PERL5OPT = "-Mstrict"', 'GREETING = "hi"']) expect({ env, message: load(env) }).toEqual({ env, message: "loaded" });
});

test("mistakes name the file and line", () => {
  const bad = (text: string) => {
    try {
      parseTemplate("t", text, "/cfg/t.toml");
    } catch (e) {
      return (e as Error).message;
    }
    return "no error";
  };
  expect(bad(`workspace = "a"\n\n[layout]\ntype = "split"\ndirection = "sideways"\nratio = 0.5\n`)).toStartWith("/cfg/t.toml:5: `layout.direction`");
  expect(bad(`[layout]\ntype = "pane"\n\n[layout.first]\ncomand = ["x"]\n`)).toContain("/cfg/t.toml:");
  expect(bad(`[layout]\ntype = "split"\ndirection = "right"\nratio = 0.5\n[layout.first]\ntype = "pane"\n[layout.second]\ntype = "pane"\ncomand = ["vim"]\n`)).toStartWith(
    "/cfg/t.toml:9: unknown field `layout.second.comand`",
  );
  expect(bad(`copy = ["../outside"]\n`)).toStartWith("/cfg/t.toml:1: copy entry");
  expect(bad(`colour = "red"\n`)).toStartWith('/cfg/t.toml:1: unknown setting "colour"');
  expect(bad(`setup = [1]\n`)).toStartWith("/cfg/t.toml:1: setup must be");
  expect(bad(`x = [\n`)).toStartWith("/cfg/t.toml:");
  // A placeholder where it could be code names the line and the variable to use.
  expect(bad(`[layout]\ntype = "pane"\nenv = { PS1 = "{branch} $ " }\n`)).toStartWith("/cfg/t.toml:3: env PS1: {branch} may fill only");
  expect(bad(`workspace = "w"\nsetup = ["echo {branch}"]\n`)).toStartWith('/cfg/t.toml:2: setup "echo {branch}": {branch} is in a command line string (sh -c, a setup string)');
  expect(bad(`check = "make test B={branch}"\n`)).toStartWith("/cfg/t.toml:1: check");
  expect(bad(`check = ["make", "B={branch}"]\n`)).toContain('"$WS_BRANCH"');
  expect(bad(`[layout]\ntype = "split"\ndirection = "right"\nratio = 0.5\n[layout.first]\ntype = "pane"\n[layout.second]\ntype = "pane"\ncommand = ["perl", "-M{branch}", "-e", "1"]\n`)).toMatch(
    /^\/cfg\/t\.toml:9: command .*\{branch\} in "-M\{branch\}".*"\$WS_BRANCH"/,
  );
});

test("the built-ins parse: default is one shell in the worktree, review its agent beside a shell", async () => {
  const none = { XDG_CONFIG_HOME: "/nonexistent" };
  expect(BUILTINS).toEqual(["default", "review"]);
  const def = instantiate(await loadTemplate("default", none), {}, "/wt/x", "x");
  expect(def).toMatchObject({ type: "pane", cwd: "/wt/x", env: { WS_WORKSTREAM: "x", WS_NAME: "x", WS_DIR: "/wt/x" } });
  expect(def.type === "pane" && def.command).toBeFalsy();
  const review = await loadTemplate("review", none);
  expect(review.workspace).toBe("PR Review");
  const tree = instantiate(review, { review_command: "agent --go" }, "/wt/r", "r");
  expect(tree).toMatchObject({ type: "split", first: { command: ["sh", "-c", 'eval "$WS_REVIEW_COMMAND"'], cwd: "/wt/r", env: { WS_REVIEW_COMMAND: "agent --go" } }, second: { type: "pane", cwd: "/wt/r" } });
});
