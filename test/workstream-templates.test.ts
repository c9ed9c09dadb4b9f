// Templates without a server: placeholders stay single argv elements (quoted in shell scripts),
// mistakes name the file and line, the built-ins parse.
import { expect, test } from "bun:test";
import { BUILTINS, fillArgv, instantiate, loadTemplate, parseTemplate, setupCommands } from "../src/features/workstreams/templates";

const hostile = { name: "n", branch: "x$(echo injected);`echo id`'q", dir: "/wt/a b" };

test("a placeholder is one argv element; in a sh -c script and a setup string it is shell-quoted", async () => {
  expect(fillArgv(["git", "log", "{branch}"], hostile)).toEqual(["git", "log", hostile.branch]);
  const script = fillArgv(["sh", "-c", "printf '%s\\n' {branch} {dir}"], hostile)[2]!;
  const out = Bun.spawnSync(["sh", "-c", script]).stdout.toString();
  expect(out).toBe(`${hostile.branch}\n/wt/a b\n`);
  const t = parseTemplate("t", `setup = ["printf '%s' {branch}", ["echo", "{branch}"]]\n`);
  const [line, argv] = setupCommands(t, hostile);
  expect(Bun.spawnSync(line!).stdout.toString()).toBe(hostile.branch);
  expect(argv).toEqual(["echo", hostile.branch]);
  // {review_command} is a command line by nature: it goes in as written.
  expect(fillArgv(["sh", "-c", "{review_command}"], { review_command: "claude 'hi'" })).toEqual(["sh", "-c", "claude 'hi'"]);
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
});

test("the built-ins parse: default is one shell in the worktree, review its agent beside a shell", async () => {
  const none = { XDG_CONFIG_HOME: "/nonexistent" };
  expect(BUILTINS).toEqual(["default", "review"]);
  const def = instantiate(await loadTemplate("default", none), {}, "/wt/x", "x");
  expect(def).toEqual({ type: "pane", cwd: "/wt/x", env: { WS_WORKSTREAM: "x" } });
  const review = await loadTemplate("review", none);
  expect(review.workspace).toBe("PR Review");
  const tree = instantiate(review, { review_command: "agent --go" }, "/wt/r", "r");
  expect(tree).toMatchObject({ type: "split", first: { command: ["sh", "-c", "agent --go"], cwd: "/wt/r" }, second: { type: "pane", cwd: "/wt/r" } });
});
