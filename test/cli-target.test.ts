// No guessing the target: outside ws a command that acts on a pane needs one (ws run used to type
// into whatever pane the person was looking at); inside a pane $WS_PANE_ID is the default, and may
// be left out before other words (`ws pane keys Enter`).
import { expect, test } from "bun:test";
import { commandTable } from "../src/cli/index";
import { parseArgs } from "../src/cli-table/parse";
import { useServer } from "./harness";

const cmd = (path: string) => commandTable().find((c) => c.path === path)!;

test("inside a pane, a word that is not a number goes to the argument after the pane", () => {
  const inPane = { WS_PANE_ID: "7" };
  expect(parseArgs(cmd("pane keys"), ["Enter"], inPane)).toMatchObject({ pane: 7, keys: ["Enter"] });
  expect(parseArgs(cmd("pane keys"), ["C-c", "Enter"], inPane)).toMatchObject({ pane: 7, keys: ["C-c", "Enter"] });
  expect(parseArgs(cmd("pane keys"), ["3", "Enter"], inPane)).toMatchObject({ pane: 3, keys: ["Enter"] });
  expect(parseArgs(cmd("pane send"), ["hello"], inPane)).toMatchObject({ pane: 7, text: "hello" });
  expect(parseArgs(cmd("pane rename"), ["logs"], inPane)).toMatchObject({ pane: 7, name: "logs" });
  // Outside a pane there is no default to fall back on.
  expect(() => parseArgs(cmd("pane keys"), ["Enter"], {})).toThrow("which pane?");
  expect(() => parseArgs(cmd("run"), ["--", "make"], {})).toThrow("which pane?");
  expect(() => parseArgs(cmd("layout select"), ["tiled"], {})).toThrow("which pane?");
  expect(parseArgs(cmd("run"), ["--", "make"], inPane)).toMatchObject({ pane: 7, command: ["make"] });
});

const s = useServer();

test("ws run outside a pane refuses without a PANE and types nothing anywhere", async () => {
  const pane = Number((await s.ok(["tab", "new", "--focus", "--cwd", "/tmp", "--", "bash"])).trim());
  await s.run(["run", String(pane), "--", "true"]);
  const r = await s.run(["run", "--", "echo", "GUESSED-TARGET"]);
  expect(r.code).toBe(2);
  expect(r.stderr).toContain("which pane?");
  // The round trip below is served after anything the refused call could have sent.
  expect(await s.screen(pane)).not.toContain("GUESSED-TARGET");
  // With the pane named, or from inside it, it runs there.
  expect(await s.run(["run", "--", "echo", "inside"], { env: { WS_PANE_ID: String(pane) } })).toMatchObject({ code: 0, stdout: "inside\n" });
});

test("ws pane keys Enter inside a pane presses Enter in that pane", async () => {
  const pane = Number((await s.ok(["tab", "new", "--cwd", "/tmp", "--", "sh", "-c", "read line; echo \"got [$line]\"; exec cat"])).trim());
  await s.ok(["pane", "send", String(pane), "typed"]);
  expect(await s.run(["pane", "keys", "Enter"], { env: { WS_PANE_ID: String(pane) } })).toMatchObject({ code: 0 });
  await s.waitScreen(pane, "got [typed]");
});

test("split --size takes a percentage of the pane it splits, as tmux's -l N%", async () => {
  expect(parseArgs(cmd("split"), ["--size", "40%"], { WS_PANE_ID: "1" })).toMatchObject({ percent: 40 });
  expect(() => parseArgs(cmd("split"), ["--size", "x%"], { WS_PANE_ID: "1" })).toThrow("percentage");
  const pane = Number((await s.ok(["tab", "new", "--cwd", "/tmp", "--", "cat"])).trim());
  const before = (await s.v6({ type: "pane_info", pane })).cols as number;
  const right = Number((await s.ok(["split", String(pane), "--size", "40%", "--cwd", "/tmp", "--", "cat"])).trim());
  const cols = (await s.v6({ type: "pane_info", pane: right })).cols as number;
  expect(Math.abs(cols - Math.round(before * 0.4))).toBeLessThanOrEqual(1);
  const below = Number((await s.ok(["split", String(pane), "--below", "--size=25%", "--cwd", "/tmp", "--", "cat"])).trim());
  const rows = (await s.v6({ type: "pane_info", pane: below })).rows as number;
  const total = (await s.v6({ type: "pane_info", pane })).rows as number + rows;
  expect(rows).toBeLessThan(total / 2);
});
