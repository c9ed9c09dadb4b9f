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
 * "entry" is src/main.ts; "base" is src/'s other top-level files, BASE: small leaf helpers every
 * layer may use. */
const ORDER = ["entry", "cli", "mcp", "web", "remote", "tmux-shim", "server", "ui", "cli-table", "messages", "features", "client", "model", "patterns", "protocol", "platform", "base"] as const;
type Layer = (typeof ORDER)[number];

/** What base may hold, by name: leaf helpers with no domain of their own (paths and XDG
 * directories, safe text, reading and writing files safely, the log, the build's id, reading a
 * TOML file and saying where it is wrong, quoting for a shell, lines from a stream). Domain code
 * goes to its layer: the tmux format language to ui/, the socket checks and the client's libc to
 * platform/, the server's socket files to server/, the global flags and release files to cli/. */
const BASE = ["build-info.ts", "keys-toml.ts", "line-reader.ts", "log.ts", "paths.ts", "safe-file.ts", "safe-text.ts", "safe-write.ts", "shell-quote.ts", "shell-words.ts", "toml-problem.ts", "write-atomic.ts", "xdg-dirs.ts"];

function layerOf(file: string): Layer | undefined {
  const rel = relative(SRC, file);
  if (rel.startsWith("..")) return undefined;
  const parts = rel.split("/");
  // A bare directory ("../messages", its index) is that layer; src/'s own files are base.
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

test("base holds only the leaf helpers it names; a new file at src/'s root has to be given a layer or named here", () => {
  const root = readdirSync(SRC).filter((n) => n.endsWith(".ts") && n !== "main.ts");
  expect(root.sort()).toEqual([...BASE].sort());
});

test("only the platform layer asks which operating system this is", () => {
  // Everything else asks platform/ (hostOs, platformKind), so what differs by system is in one place.
  const asking = sources(SRC).filter((f) => !f.startsWith(join(SRC, "platform") + "/") && /\bprocess\.platform\b/.test(readFileSync(f, "utf8").replace(/^\s*(\/\/|\*).*$/gm, "")));
  expect(asking.map((f) => relative(SRC, f))).toEqual([]);
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
    { path: join(SRC, "features/w.ts"), text: `import { MESSAGES } from "../messages";` },
  ];
  expect(upwardImports(made)).toEqual(["features/w.ts -> ../messages", "model/x.ts -> ../server/daemon", "model/x.ts -> ../ui/grid", "protocol/y.ts -> ../model/pane"]);
});
