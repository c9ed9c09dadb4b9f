// A CLI call loads argument parsing, the socket call and printing: not the registry (its table is
// baked in at build time), not the server, not consola. And the registry itself (which `ws call`,
// `ws api describe` and the server load) pulls in no emulator or server model.
import { expect, test } from "bun:test";
import { join } from "node:path";

async function evalModules<T>(code: string): Promise<T> {
  const p = Bun.spawn([process.execPath, "-e", code], { stdout: "pipe", stderr: "pipe" });
  const [out, err] = [await new Response(p.stdout).text(), await new Response(p.stderr).text()];
  expect(err).toBe("");
  return JSON.parse(out);
}
const src = (path: string) => JSON.stringify(join(import.meta.dir, "../src", path));

// xterm is the package (@xterm/…): model/xterm-internals.ts, which text-capture.ts reads rows
// through, holds types and casts only and loads none of it.
test("loading the registry loads no xterm, session or pane module", async () => {
  const loaded = await evalModules<string[]>(`await import(${src("messages/index.ts")});
console.log(JSON.stringify(Object.keys(require.cache).filter((k) => /@xterm|server\\/session|model\\/pane|server\\/daemon/.test(k))));`);
  expect(loaded).toEqual([]);
});

test("the CLI loads no registry, server or consola: its command and message tables are baked in", async () => {
  const got = await evalModules<{ split: unknown; tab_new: { since: number }; paths: string[]; loaded: string[] }>(`const cli = await import(${src("cli/index.ts")}); const c = await import(${src("cli/common.ts")});
console.log(JSON.stringify({ split: c.messageTable().split, tab_new: c.messageTable().tab_new, paths: cli.commandTable().map((x) => x.path),
  loaded: Object.keys(require.cache).filter((k) => /src\\/messages\\/|src\\/server\\/|src\\/model\\/|consola|citty|xterm|modelcontextprotocol/.test(k)) }));`);
  expect(got.split).toEqual({ since: 1, longRunning: false, stream: false });
  expect(got.tab_new.since).toBe(2);
  expect(got.paths).toContain("pane send");
  expect(got.loaded).toEqual([]);
});

/** Every module main.ts loads before it runs (static imports, followed through src/), and what they import from outside. */
function staticGraph(entry: string): { files: string[]; external: string[] } {
  const { existsSync, readFileSync } = require("node:fs") as typeof import("node:fs");
  const { dirname, resolve } = require("node:path") as typeof import("node:path");
  const transpiler = new Bun.Transpiler({ loader: "ts" });
  const files = new Set<string>();
  const external = new Set<string>();
  const visit = (file: string) => {
    if (files.has(file)) return;
    files.add(file);
    const text = readFileSync(file, "utf8").replace(/^#!.*/, "");
    // Macros (`with { type: "macro" }`) run when the build bundles; the binary never loads them.
    const macros = new Set([...text.matchAll(/from\s+"([^"]+)"\s+with\s*\{\s*type:\s*"macro"\s*\}/g)].map((m) => m[1]));
    for (const imp of transpiler.scanImports(text)) {
      if (imp.kind !== "import-statement" || macros.has(imp.path)) continue; // dynamic imports load only when their path runs
      if (!imp.path.startsWith(".")) {
        external.add(imp.path);
        continue;
      }
      const base = resolve(dirname(file), imp.path);
      const target = [base, `${base}.ts`, `${base}/index.ts`].find((p) => existsSync(p) && p.endsWith(".ts"));
      if (target) visit(target);
    }
  };
  visit(entry);
  return { files: [...files], external: [...external] };
}

test("a CLI call loads no node module, no bun:ffi wrapper and no consola: each costs a call milliseconds to load", () => {
  const { files, external } = staticGraph(join(import.meta.dir, "../src/main.ts"));
  expect(files.length).toBeGreaterThan(5); // the walk really follows imports
  expect(files.some((f) => f.endsWith("src/platform/socket-check.ts"))).toBe(true);
  // Type-only imports (bun, bun:ffi types) are erased by the transpiler, so anything here is loaded.
  expect(external).toEqual([]);
});
