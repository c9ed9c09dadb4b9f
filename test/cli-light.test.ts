// The registry (which every CLI command loads) must not pull in the emulator or the server model:
// the v6 message modules use type-only imports of them.
import { expect, test } from "bun:test";
import { join } from "node:path";

test("loading the registry loads no xterm, session or pane module", async () => {
  const code = `await import(${JSON.stringify(join(import.meta.dir, "../src/commands/index.ts"))}); await import(${JSON.stringify(join(import.meta.dir, "../src/cli/api-cmds.ts"))});
console.log(JSON.stringify(Object.keys(require.cache).filter((k) => /xterm|server\\/session|model\\/pane|server\\/daemon/.test(k))));`;
  const p = Bun.spawn([process.execPath, "-e", code], { stdout: "pipe", stderr: "pipe" });
  const [out, err] = [await new Response(p.stdout).text(), await new Response(p.stderr).text()];
  expect(err).toBe("");
  expect(JSON.parse(out)).toEqual([]);
});

test("sending a message from the CLI loads no registry: its versions are baked in at build time", async () => {
  const code = `const c = await import(${JSON.stringify(join(import.meta.dir, "../src/cli/common.ts"))});
console.log(JSON.stringify({ split: c.MESSAGE_TABLE.split, tab_new: c.MESSAGE_TABLE.tab_new, loaded: Object.keys(require.cache).filter((k) => /src\\/commands\\//.test(k)) }));`;
  const p = Bun.spawn([process.execPath, "-e", code], { stdout: "pipe", stderr: "pipe" });
  const [out, err] = [await new Response(p.stdout).text(), await new Response(p.stderr).text()];
  expect(err).toBe("");
  const got = JSON.parse(out);
  expect(got.split).toEqual({ since: 1, longRunning: false });
  expect(got.tab_new.since).toBe(2);
  expect(got.loaded).toEqual([]);
});
