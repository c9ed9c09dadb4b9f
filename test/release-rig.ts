// One release directory for the release, curl-install and self-update tests: built once per
// source tree (keyed by its build id, kept under dist/test-release so a rerun reuses it), and a
// local HTTP server on 127.0.0.1 that serves it, with a file corrupted, cut short or missing on demand.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { buildId, compile, packageVersion } from "../scripts/compile";
import { release } from "../scripts/release";
import { type Manifest, MANIFEST, RELEASE_PLATFORMS } from "../src/release-files";
import { ROOT } from "./harness";

const CACHE = join(ROOT, "dist/test-release");
/** This machine's platform as the release names it. */
export const HOST_PLATFORM = `${process.platform}-${process.arch}`;

/** The release location written into the test release: nothing listens there (the discard port). */
export const TEST_DEFAULT_BASE = "http://127.0.0.1:9/no-release-here";

let built: Promise<{ dir: string; manifest: Manifest }> | undefined;

/** Every platform's release of the current sources (about 5 s a platform the first time). */
export function testRelease(): Promise<{ dir: string; manifest: Manifest }> {
  return (built ??= (async () => {
    const id = buildId();
    const dir = join(CACHE, id);
    const done = join(dir, ".complete");
    if (!existsSync(done)) {
      if (existsSync(CACHE)) for (const old of readdirSync(CACHE)) rmSync(join(CACHE, old), { recursive: true, force: true });
      await release({ out: dir, platforms: RELEASE_PLATFORMS, baseUrl: TEST_DEFAULT_BASE });
      writeFileSync(done, "");
    }
    return { dir, manifest: JSON.parse(readFileSync(join(dir, MANIFEST), "utf8")) as Manifest };
  })());
}

let older: Promise<string> | undefined;
/** A compiled ws for this machine with another build id ("0lderbuild00"): what self-update replaces. */
export function olderBinary(): Promise<string> {
  return (older ??= (async () => {
    const { dir } = await testRelease();
    const out = join(dir, "older", "ws");
    if (!existsSync(out)) {
      mkdirSync(join(dir, "older"), { recursive: true });
      await compile({ outfile: out + ".tmp", build: "0lderbuild00", version: packageVersion(), sourcemap: false });
      require("node:fs").renameSync(out + ".tmp", out);
    }
    return out;
  })());
}

export interface ServeOptions {
  /** Served with one byte changed. */
  corrupt?: string;
  /** Served cut to half its length. */
  truncate?: string;
  /** Answered 404. */
  missing?: string;
}

/** Serves `dir` on 127.0.0.1 (an ephemeral port); `url` is the release base. */
export function serveRelease(dir: string, o: ServeOptions = {}) {
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch(req) {
      const name = decodeURIComponent(new URL(req.url).pathname.slice(1));
      if (name.includes("/") || name.startsWith(".") || name === o.missing || !existsSync(join(dir, name))) return new Response("not found", { status: 404 });
      if (name === o.corrupt || name === o.truncate) {
        const data = readFileSync(join(dir, name));
        if (name === o.corrupt) data[data.length >> 1]! ^= 0xff;
        return new Response(name === o.truncate ? data.subarray(0, data.length >> 1) : data);
      }
      return new Response(Bun.file(join(dir, name)));
    },
  });
  return { url: `http://127.0.0.1:${server.port}`, stop: () => server.stop(true) };
}
