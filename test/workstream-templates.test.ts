// Templates without a server: placeholders fill whole argv elements or plain parts of them, never
// script text (refused on load, naming the WS_ variable to read instead); mistakes name the file
// and line; the built-ins parse.
import { expect, test } from "bun:test";
import { BUILTINS, argvProblem, fillArgv, instantiate, loadTemplate, parseTemplate, placeholderEnv, setupCommands } from "../src/features/workstreams/templates";

const hostile = { name: "n", branch: "x$(echo injected);`echo id`'q", dir: "/wt/a b" };

test("a placeholder fills a whole argv element or a plain part of one; its value is in the environment as WS_<NAME>", async () => {
  expect(fillArgv(["git", "log", "{branch}", "origin/{branch}", "--dir={dir}"], hostile)).toEqual(["git", "log", hostile.branch, `origin/${hostile.branch}`, "--dir=/wt/a b"]);
  // A script's arguments ($1, …) are data: a placeholder may be one.
  const argv = fillArgv(["sh", "-c", 'printf "%s|%s" "$1" "$WS_BRANCH"', "sh", "{branch}"], hostile);
  const t = parseTemplate("t", `setup = ["printf '%s' \\"$WS_BRANCH\\"", ["echo", "{branch}"]]\n`);
  const env = { ...process.env, ...placeholderEnv(hostile) };
  expect(Bun.spawnSync(argv, { env }).stdout.toString()).toBe(`${hostile.branch}|${hostile.branch}`);
  const [line, echo] = setupCommands(t, hostile);
  expect(Bun.spawnSync(line!, { env }).stdout.toString()).toBe(hostile.branch);
  expect(echo).toEqual(["echo", hostile.branch]);
  expect(placeholderEnv(hostile)).toMatchObject({ WS_NAME: "n", WS_BRANCH: hostile.branch, WS_DIR: "/wt/a b", WS_PR: "" });
  const tree = instantiate(parseTemplate("t", `[layout]\ntype = "pane"\ncommand = ["sh", "-c", "echo \\"$WS_BRANCH\\""]\n`), hostile, "/wt/a b", "n");
  expect(tree).toMatchObject({ command: ["sh", "-c", 'echo "$WS_BRANCH"'], env: { WS_BRANCH: hostile.branch, WS_WORKSTREAM: "n" } });
});

test("a placeholder inside script text is refused, whatever the interpreter and however its flags are written", () => {
  const refused = (argv: string[]) => argvProblem(argv);
  for (const argv of [
    ["bash", "-lc", "echo {branch}; exec bash"],
    ["bash", "--login", "-c", "echo {branch}"],
    ["bash", "-o", "pipefail", "-c", "{branch}"],
    ["sh", "-ec", "echo {branch}"],
    ["env", "sh", "-c", "echo {branch}"],
    ["env", "A=1", "/bin/sh", "-xc", "{branch}"],
    ["nice", "-n", "5", "zsh", "-c", "echo {name}"],
    ["fish", "-c", "echo {branch}"],
    ["fish", "--command=echo {branch}"],
    ["fish", "-C", "echo {branch}"],
    ["python3", "-c", "print('{branch}')"],
    ["/usr/bin/python3.12", "-Ic", "print('{name}')"],
    ["node", "-e", "console.log('{branch}')"],
    ["node", "-pe", "'{branch}'"],
    ["node", "--eval={branch}"],
    ["bun", "--eval", "{branch}"],
    ["deno", "eval", "{branch}"],
    ["perl", "-ne", "print '{branch}'"],
    ["ruby", "-e", "puts '{branch}'"],
    ["awk", "-F", ":", "{branch}"],
    ["sed", "s/a/{branch}/"],
    ["nvim", "-c", "e {dir}"],
    ["nvim", "{branch}"],
    ["ssh", "host", "echo", "{branch}"],
    ["pwsh", "-Command", "Write-Host", "{branch}"],
    ["some-tool", "-e", "{branch}"],
    ["echo", "hi {name}"], // more than a plain part: some program could read it as code
  ])
    expect({ argv, problem: refused(argv) }).toMatchObject({ argv, problem: expect.stringContaining("{") });
  for (const argv of [
    ["git", "log", "origin/{branch}..HEAD"],
    ["sh", "-c", 'echo "$1"', "sh", "{branch}"],
    ["bash", "{dir}/setup.sh", "{branch}"],
    ["nvim", "{dir}/README.md"],
    ["awk", "-f", "prog.awk", "{dir}/data"],
    ["open", "https://example.invalid/pull/{pr}"],
    ["tool", "--branch={branch}"],
    ["find", ".", "-name", "{name}"], // a long option that happens to end in e is no -e
  ])
    expect({ argv, problem: refused(argv) }).toEqual({ argv, problem: undefined });
  // The message names the variable to read, as the interpreter writes it.
  expect(refused(["python3", "-c", "print('{branch}')"])).toContain('os.environ["WS_BRANCH"]');
  expect(refused(["node", "-e", "console.log('{name}')"])).toContain("process.env.WS_NAME");
  expect(refused(["bash", "-lc", "echo {dir}"])).toContain('"$WS_DIR"');
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
  // A placeholder in script text names the line and the variable to use.
  expect(bad(`[layout]\ntype = "pane"\nenv = { PS1 = "{branch} $ " }\n`)).toStartWith("/cfg/t.toml:3: env PS1: {branch} is inside script text");
  expect(bad(`[layout]\ntype = "pane"\nenv = { GREETING = "hi {branch}" }\n`)).toBe("no error");
  expect(bad(`workspace = "w"\nsetup = ["echo {branch}"]\n`)).toStartWith('/cfg/t.toml:2: setup "echo {branch}": {branch} is inside script text');
  expect(bad(`[layout]\ntype = "split"\ndirection = "right"\nratio = 0.5\n[layout.first]\ntype = "pane"\n[layout.second]\ntype = "pane"\ncommand = ["bash", "-lc", "echo {branch}; exec bash"]\n`)).toMatch(
    /^\/cfg\/t\.toml:9: command .*\{branch\} is inside script text \(bash -lc\).*"\$WS_BRANCH"/,
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
