// A CLI call loads argument parsing, the socket call and printing: not the registry (its table is
// baked in at build time), not the server, not consola. And the registry itself (which `ws call`,
// `ws api describe` and the server load) pulls in no emulator or server model.
import { expect, test } from "bun:test";
import { join } from "node:path";

async function evalModules(code: string): Promise<any> {
  const p = Bun.spawn([process.execPath, "-e", code], { stdout: "pipe", stderr: "pipe" });
  const [out, err] = [await new Response(p.stdout).text(), await new Response(p.stderr).text()];
  expect(err).toBe("");
  return JSON.parse(out);
}
const src = (path: string) => JSON.stringify(join(import.meta.dir, "../src", path));

test("loading the registry loads no xterm, session or pane module", async () => {
  const loaded = await evalModules(`await import(${src("commands/index.ts")});
console.log(JSON.stringify(Object.keys(require.cache).filter((k) => /xterm|server\\/session|model\\/pane|server\\/daemon/.test(k))));`);
  expect(loaded).toEqual([]);
});

test("the CLI loads no registry, server or consola: its command and message tables are baked in", async () => {
  const got = await evalModules(`const cli = await import(${src("cli/index.ts")}); const c = await import(${src("cli/common.ts")});
console.log(JSON.stringify({ split: c.messageTable().split, tab_new: c.messageTable().tab_new, paths: cli.commandTable().map((x) => x.path),
  loaded: Object.keys(require.cache).filter((k) => /src\\/commands\\/|src\\/server\\/|src\\/model\\/|consola|citty|xterm/.test(k)) }));`);
  expect(got.split).toEqual({ since: 1, longRunning: false, stream: false });
  expect(got.tab_new.since).toBe(2);
  expect(got.paths).toContain("pane send");
  expect(got.loaded).toEqual([]);
});
