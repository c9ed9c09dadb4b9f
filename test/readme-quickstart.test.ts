// The README's quick start, run as written, line by line, as a new user would
// paste it: every line succeeds, and what the comments promise is there.
import { afterAll, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { TestServer, waitFor } from "./harness";
import { splitWords } from "../src/ui/command-line";

const readme = readFileSync(join(import.meta.dir, "../README.md"), "utf8");
/** The indented block under "## Quick start", without comments. */
const quickStart = (() => {
  const from = readme.indexOf("## Quick start");
  const lines: string[] = [];
  for (const line of readme.slice(from).split("\n").slice(1)) {
    if (line.startsWith("    ")) lines.push(line.trim().replace(/\s+#.*$/, ""));
    else if (lines.length && line.trim()) break;
  }
  return lines;
})();

const server = new TestServer();
afterAll(async () => {
  await server.stop();
});

test("the README's quick start runs as written", async () => {
  expect(quickStart[0]).toBe("ws start");
  expect(quickStart.at(-1)).toBe("ws kill-server");
  for (const line of quickStart.slice(0, -1)) {
    const words = splitWords(line);
    expect(words[0]).toBe("ws");
    const r = await server.run(words.slice(1));
    expect(r.code, `${line}: ${r.stderr}`).toBe(0);
    if (words[1] === "tab") expect(r.stdout.trim()).toMatch(/^\d+$/);
  }
  // What the comments promise: two workspaces; the Build tab (its program still running, or kept
  // showing how it ended); pane 1 ran ls.
  const list = await server.list();
  expect(list.map((w) => w.name)).toEqual(["main", "Games"]);
  const games = list[1];
  expect(games!.tabs.map((t) => t.name)).toContain("Build");
  expect(list[0]!.tabs[0]!.panes.length).toBe(2); // pane 1 and the split below it
  await server.waitScreen(1, /total \d+/);
  expect(await server.ok(["pane", "read", "1", "--lines", "5"])).toBeTruthy();
  const r = await server.run(["kill-server"]);
  expect(r.code).toBe(0);
  await waitFor("the server gone", async () => (await server.run(["workspace", "list"])).code !== 0);
}, 60000);
