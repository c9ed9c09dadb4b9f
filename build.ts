// Compiles src/main.ts into one self-contained executable, dist/ws. The build id is a hash of the
// sources, so client and server can tell whether they are the same build.
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, statSync, mkdirSync, rmSync } from "node:fs";
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
// The split build writes one source map per chunk beside the binary: drop the last build's.
for (const f of readdirSync("dist")) if (f.endsWith(".js.map")) rmSync(join("dist", f));

const result = await Bun.build({
  // The emulator worker is an entry of its own: in the binary it is /$bunfs/root/model/emulator-worker.ts.
  entrypoints: ["src/main.ts", "src/model/emulator-worker.ts"],
  compile: { outfile: "dist/ws" },
  minify: true,
  sourcemap: "linked",
  // ESM with code splitting and bytecode: a CLI call loads only the chunks of its path (the CLI's
  // table, parser and socket call; not the registry, the server or consola) and parses nothing.
  // bench/cli-startup.ts, one run on a loaded machine: `ws workspace list` 1.44x the reference
  // client where CommonJS + bytecode (one bundle, lazily evaluated) was 1.78x. consola reads
  // import.meta.env: defined away.
  format: "esm",
  splitting: true,
  bytecode: true,
  define: { WS_BUILD_ID: JSON.stringify(build), "import.meta.env": "process.env" },
});
if (!result.success) {
  for (const log of result.logs) console.error(log);
  process.exit(1);
}
console.log(`built dist/ws (build ${build})`);
