// Compiles src/main.ts into one self-contained executable for this machine, dist/ws
// (scripts/compile.ts; `bun run release` builds every platform), and its man page, dist/ws.1.
import { mkdirSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { buildId, compile, packageVersion, ROOT } from "./scripts/compile";
import { writeManPage } from "./scripts/man-page";

const dist = join(ROOT, "dist");
const build = buildId();
mkdirSync(dist, { recursive: true });
// The split build writes one source map per chunk beside the binary: drop the last build's.
for (const f of readdirSync(dist)) if (f.endsWith(".js.map")) rmSync(join(dist, f));
try {
  await compile({ outfile: join(dist, "ws"), build, version: packageVersion(), sourcemap: true });
} catch (e) {
  for (const log of (e as AggregateError).errors ?? [e]) console.error(log);
  process.exit(1);
}
// The man page, from the same command table the binary was built with.
writeManPage(join(dist, "ws.1"));
console.log(`built dist/ws and dist/ws.1 (build ${build})`);
