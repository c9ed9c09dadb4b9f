// How ws is compiled, shared by `bun run build` (dist/ws, this machine) and `bun run release`
// (every platform): the build id, the version, and one Bun.build call per target.
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";

export const ROOT = join(import.meta.dir, "..");

function files(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((n) => {
      const p = join(dir, n);
      return statSync(p).isDirectory() ? files(p) : [p];
    });
}

/** A hash of the sources, so client and server can tell whether they are the same build. Paths are
 * hashed relative to the root: the same tree gives the same id wherever it is checked out. */
export function buildId(root = ROOT): string {
  const hash = createHash("sha256");
  for (const f of [...files(join(root, "src")), join(root, "package.json"), join(root, "bun.lock")]) {
    try {
      hash.update(f.slice(root.length + 1)).update(readFileSync(f));
    } catch {}
  }
  return hash.digest("hex").slice(0, 12);
}

/** The semver in package.json: the one place the version is written. */
export function packageVersion(root = ROOT): string {
  return JSON.parse(readFileSync(join(root, "package.json"), "utf8")).version;
}

export interface CompileOptions {
  outfile: string;
  /** A Bun target such as "bun-linux-arm64"; absent: this machine. */
  target?: string;
  build: string;
  version: string;
  /** Linked source maps beside the binary (dist/ws keeps them for debugging; a release ships none). */
  sourcemap?: boolean;
  /** Precompiled bytecode: faster start-up, a bigger file (README, "Install"). */
  bytecode?: boolean;
  /** Built by `bun run release` (self-update replaces it without --force): with `releaseBase`,
   * where releases are published, self-update's default download location ("" : none). */
  releaseBase?: string;
  /** Tests only: the release key (base64 SPKI) this binary trusts instead of the project's. */
  testingReleaseKey?: string;
}

export async function compile(o: CompileOptions): Promise<void> {
  const result = await Bun.build({
    // The emulator worker is an entry of its own: in the binary it is /$bunfs/root/model/emulator-worker.ts.
    entrypoints: [join(ROOT, "src/main.ts"), join(ROOT, "src/model/emulator-worker.ts")],
    compile: { outfile: o.outfile, ...(o.target ? { target: o.target as Bun.Build.CompileTarget } : {}) },
    minify: true,
    sourcemap: o.sourcemap ? "linked" : "none",
    // ESM with code splitting and bytecode: a CLI call loads only the chunks of its path (the CLI's
    // table, parser and socket call; not the registry, the server or consola) and parses nothing.
    // bench/cli-startup.ts, one run on a loaded machine: `ws workspace list` 1.44x the reference
    // client where CommonJS + bytecode (one bundle, lazily evaluated) was 1.78x. consola reads
    // import.meta.env: defined away.
    format: "esm",
    splitting: true,
    bytecode: o.bytecode ?? true,
    define: {
      WS_BUILD_ID: JSON.stringify(o.build),
      WS_BUILD_VERSION: JSON.stringify(o.version),
      WS_RELEASED: JSON.stringify(o.releaseBase !== undefined),
      WS_RELEASE_BASE: JSON.stringify(o.releaseBase ?? ""),
      ...(o.testingReleaseKey !== undefined ? { WS_RELEASE_KEY: JSON.stringify(o.testingReleaseKey) } : {}),
      "import.meta.env": "process.env",
    },
  });
  if (!result.success) throw new AggregateError(result.logs, `could not compile ${o.outfile}${o.target ? ` for ${o.target}` : ""}`);
}
