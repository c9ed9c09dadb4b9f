// src/model/ is the bottom layer (DESIGN.md "The model"): it imports nothing from the layers above
// it. This reads every import in src/model/ and fails on one that reaches up.
import { test, expect } from "bun:test";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, resolve, dirname } from "node:path";
import { ROOT } from "./harness";

const MODEL = join(ROOT, "src/model");
const ABOVE = ["server", "ui", "commands", "cli", "features", "client"].map((d) => join(ROOT, "src", d));

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

test("src/model imports nothing from server, ui, commands, cli, features or client", () => {
  const files = sources(MODEL);
  expect(files.length).toBeGreaterThan(0);
  const violations: string[] = [];
  for (const file of files) {
    for (const spec of specifiers(readFileSync(file, "utf8"))) {
      if (!spec.startsWith(".")) continue;
      const target = resolve(dirname(file), spec);
      if (ABOVE.some((d) => target === d || target.startsWith(d + "/"))) violations.push(`${relative(ROOT, file)} imports ${spec}`);
    }
  }
  expect(violations).toEqual([]);
});

test("the layering check sees a violation when there is one", () => {
  // The check itself must be able to fail: an import reaching up from the model is caught.
  const specs = specifiers(`import { x } from "../server/session";\nconst y = await import("../ui/grid");`);
  const reaching = specs.map((s) => resolve(MODEL, s)).filter((t) => ABOVE.some((d) => t.startsWith(d + "/")));
  expect(reaching.length).toBe(2);
});
