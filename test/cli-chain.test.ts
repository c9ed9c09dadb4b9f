// Command chains (`ws a \; b`) and `ws batch`: many commands in one process and one connection,
// in order, stopping at the first that fails.
import { expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { splitWords } from "../src/shell-words";
import { useServer } from "./harness";

const s = useServer();

const tabNames = async () => (await s.v6({ type: "workspace_list" })).workspaces.flatMap((w) => w.tabs.map((t) => t.name));

test("a chain: the pane a command made is the next one's default, each reply printed in order", async () => {
  const r = await s.run(["tab", "new", "--name", "Build", "--cwd", "/tmp", "--", "cat", ";", "split", "--below", "--cwd", "/tmp", "--", "cat", ";", "pane", "send", "hi-from-chain", "--enter"]);
  expect(r.code).toBe(0);
  const [tabPane, splitPane] = r.stdout.trim().split("\n").map(Number);
  expect(splitPane).toBeGreaterThan(tabPane!);
  // The split is in the new tab, and the text went to the split pane.
  const listed = (await s.v6({ type: "pane_list" })).panes;
  const where = (p: number) => listed.find((x) => x.pane === p);
  expect(where(splitPane!)!.tab).toBe(where(tabPane!)!.tab);
  await s.waitScreen(splitPane!, "hi-from-chain");
  expect(await s.screen(tabPane!)).not.toContain("hi-from-chain");
});

test("a chain stops at the first command that fails; its code and status are ws's", async () => {
  const r = await s.run(["--json", "tab", "new", "--name", "first", "--", "cat", ";", "pane", "close", "999", ";", "tab", "new", "--name", "never", "--", "cat"]);
  expect(r.code).toBe(1);
  expect(r.stderr).toContain("command 2 (pane close 999)");
  expect(JSON.parse(r.stdout.trim().split("\n").at(-1)!)).toMatchObject({ code: "pane_not_found" });
  const names = await tabNames();
  expect(names).toContain("first");
  expect(names).not.toContain("never");
  // A mistake in the command line stops it with status 2; a literal ";" is written "\;".
  expect((await s.run(["pane", "list", ";", "pane", "frob"])).code).toBe(2);
  const p = Number((await s.ok(["tab", "new", "--", "cat"])).trim());
  await s.ok(["pane", "send", String(p), "a", ";", "pane", "send", String(p), "\\;", ";", "pane", "send", String(p), "b", "--enter"]);
  await s.waitScreen(p, "a;b");
});

test("ws batch: one command line per stdin line, quoted as a shell would, comments skipped", async () => {
  const stdin = ["# set up the build tab", "tab new --name 'batch tab' -- sh -c 'echo \"batch ran\"; exec cat'", "", "pane send \"two words\" --enter", "workspace list"].join("\n");
  const r = await s.run(["batch"], { stdin });
  expect(r.code).toBe(0);
  const pane = Number(r.stdout.split("\n")[0]);
  await s.waitScreen(pane, "batch ran");
  await s.waitScreen(pane, "two words");
  expect(r.stdout).toContain("batch tab");
  // It stops at the first failure and names the line's command; nothing after it runs.
  const bad = await s.run(["batch"], { stdin: "search no-such-text-anywhere-at-all\ntab new --name after-failure -- cat\n" });
  expect(bad.code).toBe(1);
  expect(await tabNames()).not.toContain("after-failure");
  const unclosed = await s.run(["batch"], { stdin: "pane send 'oops\n" });
  expect(unclosed.code).toBe(2);
  expect(unclosed.stderr).toContain("ws: -:1: an unclosed ' quote");
});

test("ws batch FILE: as source-file, errors name FILE:LINE and nothing after the failure runs; --keep-going runs every line and exits with the first failure's status", async () => {
  const file = join(s.root, "setup.ws");
  writeFileSync(
    file,
    [
      "# a ws batch file",
      "tab new --name 'from file' -- cat   # the first tab",
      "",
      "pane close 999",
      "tab new --name after-file-failure -- cat",
      "pane send 'unclosed",
      "search no-such-text-anywhere-at-all",
      "tab new --name last-line -- cat",
    ].join("\n"),
  );
  const stops = await s.run(["batch", file]);
  expect(stops.code).toBe(1);
  expect(stops.stderr).toBe(`ws: ${file}:4: no pane 999 (have: ${stops.stderr.match(/have: ([^)]*)/)?.[1]})\n`);
  expect(await tabNames()).toContain("from file");
  expect(await tabNames()).not.toContain("after-file-failure");

  const all = await s.run(["--json", "batch", "--keep-going", file]);
  expect(all.code).toBe(1);
  const errors = all.stdout.split("\n").filter(Boolean).map((l) => JSON.parse(l)).filter((o) => o.type === "error");
  expect(errors.map((e) => [e.at, e.code])).toEqual([[`${file}:4`, "pane_not_found"], [`${file}:6`, "usage"]]);
  expect(all.stderr.split("\n").filter(Boolean)).toEqual([expect.stringMatching(new RegExp(`^ws: ${file}:4: no pane 999`)), `ws: ${file}:6: an unclosed ' quote`]);
  expect(await tabNames()).toEqual(expect.arrayContaining(["after-file-failure", "last-line"]));

  // The first failure's status: a line that is no command line first, so 2.
  writeFileSync(file, "pane send 'oops\npane close 999\n");
  expect((await s.run(["batch", "--keep-going", file])).code).toBe(2);
  // Only a regular file, never waited on: a FIFO with no writer is refused at once.
  const fifo = join(s.root, "commands.fifo");
  Bun.spawnSync(["mkfifo", fifo]);
  const r = await s.run(["batch", fifo]);
  expect(r.code).toBe(1);
  expect(r.stderr).toContain("is not a regular file (a FIFO)");
  expect(JSON.parse((await s.run(["--json", "batch", join(s.root, "missing.ws")])).stdout)).toMatchObject({ v: 6, type: "error", code: "client_failed" });
});

test("ws batch keeps going over a connection the server closed while stdin was quiet", async () => {
  // The server closes a connection idle for 2 s: the batch opens it again for the next line.
  const proc = Bun.spawn([process.execPath, `${import.meta.dir}/../src/main.ts`, "batch"], { env: s.env, stdin: "pipe", stdout: "pipe", stderr: "pipe" });
  proc.stdin.write("tab new --name before-quiet -- cat\n");
  proc.stdin.flush();
  await Bun.sleep(2600); // the quiet period itself is what is tested
  proc.stdin.write("tab new --name after-quiet -- cat\n");
  proc.stdin.end();
  expect(await proc.exited).toBe(0);
  expect(await tabNames()).toEqual(expect.arrayContaining(["before-quiet", "after-quiet"]));
});

test("splitWords: quotes and escapes as a shell, no expansion", () => {
  expect(splitWords(`a 'b c' "d \\"e\\" $HOME" f\\ g # comment`)).toEqual(["a", "b c", 'd "e" $HOME', "f g"]);
  expect(splitWords("  ")).toEqual([]);
  expect(() => splitWords("'open")).toThrow("unclosed");
  expect(() => splitWords('"open')).toThrow("unclosed");
});
