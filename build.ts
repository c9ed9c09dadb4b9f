// Compiles src/main.ts into one self-contained executable, dist/ws. The build id is a hash of the
// sources, so client and server can tell whether they are the same build.
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, statSync, mkdirSync } from "node:fs";
import { join } from "node:path";

function files(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((n) => {
      const p = join(dir, n);
      return statSync(p).isDirectory() ? files(p) : [p];
    });
}

const hash = createHash("sha256");
for (const f of [...files("src"), "package.json", "bun.lock"]) {
  try {
    hash.update(f).update(readFileSync(f));
  } catch {}
}
const build = hash.digest("hex").slice(0, 12);
mkdirSync("dist", { recursive: true });

const result = await Bun.build({
  entrypoints: ["src/main.ts"],
  compile: { outfile: "dist/ws" },
  minify: true,
  sourcemap: "linked",
  // CommonJS + bytecode: builtins (node:util, node:tty, … ~20 ms each) load when a module first
  // needs them instead of all at start-up, and nothing is parsed at start. `ws report` runs on
  // every agent hook: ~13 ms instead of ~50-130 ms. consola reads import.meta.env, absent in CJS.
  format: "cjs",
  bytecode: true,
  define: { WS_BUILD_ID: JSON.stringify(build), "import.meta.env": "process.env" },
});
if (!result.success) {
  for (const log of result.logs) console.error(log);
  process.exit(1);
}
console.log(`built dist/ws (build ${build})`);
