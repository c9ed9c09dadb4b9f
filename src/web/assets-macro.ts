// Build-time only (imported `with { type: "macro" }`): the pages' scripts and styles, bundled for
// the browser when ws is compiled (or its sources first run), so the binary carries every byte the
// pages load and no third-party origin serves any. Bun.build may not run inside a macro (the
// bundler waits on it), hence the CLI.
import { readFileSync } from "node:fs";
import { join } from "node:path";

/** A browser script of src/web/browser, with what it imports (xterm.js), as one minified ES module. */
export function browserScript(name: string): string {
  const entry = join(import.meta.dir, "browser", name);
  const r = Bun.spawnSync([process.execPath, "build", entry, "--target=browser", "--format=esm", "--minify"], { stdout: "pipe", stderr: "pipe", env: { ...process.env, BUN_BE_BUN: "1" } });
  if (r.exitCode !== 0) throw new Error(`bundling ${name} for the browser failed: ${r.stderr.toString()}`);
  return r.stdout.toString();
}

/** A style sheet: one of src/web/browser, or a package's (xterm.js's own). */
export function styleSheet(spec: string): string {
  const path = spec.startsWith("./") ? join(import.meta.dir, "browser", spec) : Bun.resolveSync(spec, import.meta.dir);
  return readFileSync(path, "utf8");
}
