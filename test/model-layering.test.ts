// The layers of src/ (docs/architecture.md, "Layers"): each directory is a layer and
// may import only the layers below it. This reads every import in src/ (static, dynamic, re-export,
// type-only: a type import still ties a module to the layer it names) and fails on one that reaches
// up. The last test shows the check can fail.
import { test, expect } from "bun:test";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, resolve, dirname } from "node:path";
import { ROOT } from "./harness";

const SRC = join(ROOT, "src");

/** Top to bottom. A layer may import itself and every layer after it, nothing before it.
 * "entry" is src/main.ts; "base" is src/'s other top-level files (paths, safe text and files, the
 * socket checks, keys.toml's reader): small helpers every layer may use. */
const ORDER = ["entry", "cli", "remote", "tmux-shim", "server", "ui", "cli-table", "commands", "features", "client", "model", "patterns", "protocol", "platform", "base"] as const;
type Layer = (typeof ORDER)[number];

function layerOf(file: string): Layer | undefined {
  const rel = relative(SRC, file);
  if (rel.startsWith("..")) return undefined;
  const parts = rel.split("/");
  // A bare directory ("../commands", its index) is that layer; src/'s own files are base.
  if (parts.length === 1) return rel === "main.ts" ? "entry" : (ORDER.find((l) => l === rel) ?? "base");
  return ORDER.find((l) => l === parts[0]);
}

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? sources(p) : p.endsWith(".ts") ? [p] : [];
  });
}

/** Every module specifier a file imports, statically or dynamically, or re-exports. */
function specifiers(text: string): string[] {
  const found: string[] = [];
  for (const re of [/\bfrom\s+["']([^"']+)["']/g, /\bimport\s*\(\s*["']([^"']+)["']\s*\)/g, /^\s*import\s+["']([^"']+)["']/gm, /\brequire\s*\(\s*["']([^"']+)["']\s*\)/g])
    for (const m of text.matchAll(re)) found.push(m[1]!);
  return found;
}

/** The upward imports in these files, "from-file -> specifier" (paths relative to src/). */
function upwardImports(files: { path: string; text: string }[]): string[] {
  const out: string[] = [];
  for (const { path, text } of files) {
    const from = layerOf(path);
    if (!from) continue;
    for (const spec of specifiers(text)) {
      if (!spec.startsWith(".")) continue;
      const to = layerOf(resolve(dirname(path), spec));
      if (to && ORDER.indexOf(to) < ORDER.indexOf(from)) out.push(`${relative(SRC, path)} -> ${spec}`);
    }
  }
  return out.sort();
}

test("every directory of src/ is a layer of the matrix", () => {
  for (const n of readdirSync(SRC)) if (statSync(join(SRC, n)).isDirectory()) expect(ORDER as readonly string[]).toContain(n);
});

test("no module in src/ imports a layer above its own", () => {
  const files = sources(SRC).map((path) => ({ path, text: readFileSync(path, "utf8") }));
  expect(files.length).toBeGreaterThan(100);
  expect(upwardImports(files)).toEqual([]);
});

test("the layer check sees an upward import when there is one", () => {
  // The same check over made-up files: the model reaching up to the server and the UI (one of them
  // a dynamic import), protocol to the model; a downward import and a package are not flagged.
  const made = [
    { path: join(SRC, "model/x.ts"), text: `import { a } from "../server/daemon";\nconst b = await import("../ui/grid");\nimport { c } from "./layout";` },
    { path: join(SRC, "protocol/y.ts"), text: `import type { Pane } from "../model/pane";\nimport { d } from "smol-toml";` },
    { path: join(SRC, "cli/z.ts"), text: `import { e } from "../client/request";\nimport { f } from "../paths";` },
    // A feature naming the registry by its directory (its index) reaches up to the handlers.
    { path: join(SRC, "features/w.ts"), text: `import { MESSAGES } from "../commands";` },
  ];
  expect(upwardImports(made)).toEqual(["features/w.ts -> ../commands", "model/x.ts -> ../server/daemon", "model/x.ts -> ../ui/grid", "protocol/y.ts -> ../model/pane"]);
});
