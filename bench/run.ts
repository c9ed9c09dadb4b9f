// Runs every benchmark in bench/ one after another (they share the machine; never in parallel).
// Build first: bench uses dist/ws (or WS_BIN). `bun run bench [name…]` runs only those.
import { readdirSync } from "node:fs";
import { join } from "node:path";

const only = process.argv.slice(2);
const skip = new Set(["run.ts", "lib.ts"]);
const files = readdirSync(import.meta.dir).filter((f) => f.endsWith(".ts") && !skip.has(f) && (!only.length || only.some((o) => f.startsWith(o))));
let failed = 0;
for (const f of files.sort()) {
  console.log(`\n== ${f}`);
  const p = Bun.spawn([process.execPath, join(import.meta.dir, f)], { stdout: "inherit", stderr: "inherit" });
  if ((await p.exited) !== 0) failed++;
}
process.exit(failed ? 1 : 0);
