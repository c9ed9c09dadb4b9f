// `bun run release --sign-key FILE [--platforms linux-x64,…] [--out DIR] [--base-url URL]`: the
// release directory (default dist/release): ws-<os>-<arch> for every platform, the curl install
// script as install.sh, manifest.json (version, build id, each file's size and hash), SHA256SUMS
// over all of them, and SHA256SUMS.sig, its Ed25519 signature by FILE (a PEM private key whose
// public half is the release key built into ws and install.sh: anything else is refused).
// Bun fetches each target's runtime from npm the first time (about 5 s a target).
//
// The base URL (where the files will be published) is written into install.sh and the binaries as
// the default download location. Default: GitHub's latest-release address for $GITHUB_REPOSITORY
// (set in GitHub Actions); none elsewhere (install.sh and self-update then ask for one).
import { createHash } from "node:crypto";
import { chmodSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { buildId, compile, packageVersion, ROOT } from "./compile";
import { binaryName, CHECKSUMS, formatChecksums, INSTALLER, type Manifest, type ManifestFile, MANIFEST, PROJECT_RELEASE_KEY, RELEASE_PLATFORMS, SIGNATURE, signWith } from "../src/cli/release-files";

/** The lines of install-release.sh that the release rewrites: its base URL, and (tests only) its key. */
const BASE_LINE = /^DEFAULT_BASE=.*$/m;
export const KEY_LINE = /^RELEASE_KEY=.*$/m;

export interface ReleaseOptions {
  out: string;
  platforms: readonly string[];
  /** Where the release will be published ("" : nowhere known). */
  baseUrl: string;
  /** The Ed25519 private key (PEM text) that signs SHA256SUMS. */
  signKey: string;
  /** Tests only: the release key (base64 SPKI) the binaries and install.sh trust instead of the
   * project's, so a test can sign with a key of its own. */
  testingReleaseKey?: string;
  /** Tests only: the platforms whose binaries carry precompiled bytecode (default: every one). It
   * doubles a binary's build time, and a test machine runs only its own platform's. */
  bytecodeFor?: readonly string[];
  log?: (line: string) => void;
}

const sha256 = (data: Uint8Array) => createHash("sha256").update(data).digest("hex");

export function defaultBaseUrl(env = process.env): string {
  return env.GITHUB_REPOSITORY ? `https://github.com/${env.GITHUB_REPOSITORY}/releases/latest/download` : "";
}

export async function release(o: ReleaseOptions): Promise<Manifest> {
  const log = o.log ?? (() => {});
  for (const p of o.platforms) if (!(RELEASE_PLATFORMS as readonly string[]).includes(p)) throw new Error(`no such platform ${p} (one of ${RELEASE_PLATFORMS.join(", ")})`);
  if (/['\\\n]/.test(o.baseUrl)) throw new Error(`the base URL may not hold quotes, backslashes or newlines: ${o.baseUrl}`);
  if (o.baseUrl && !o.baseUrl.startsWith("https://")) throw new Error(`the base URL must be https:// (install.sh and ws self-update download over https only): ${o.baseUrl}`);
  const key = o.testingReleaseKey ?? PROJECT_RELEASE_KEY;
  if (!/^[A-Za-z0-9+/=]+$/.test(key)) throw new Error("the release key must be base64");
  // Refused before anything is built: a key that is not the release key's private half.
  signWith(Buffer.alloc(0), o.signKey, key);
  const version = packageVersion();
  const build = buildId();
  rmSync(o.out, { recursive: true, force: true });
  mkdirSync(o.out, { recursive: true });
  const files: ManifestFile[] = [];
  for (const platform of o.platforms) {
    const name = binaryName(platform);
    const started = performance.now();
    // No source maps: a release ships the binary alone (compile.ts; README, "Install", for the cost of each part).
    await compile({ outfile: join(o.out, name), target: `bun-${platform}`, build, version, sourcemap: false, releaseBase: o.baseUrl, bytecode: o.bytecodeFor?.includes(platform) ?? true, ...(o.testingReleaseKey ? { testingReleaseKey: key } : {}) });
    const data = readFileSync(join(o.out, name));
    files.push({ name, platform, size: data.length, sha256: sha256(data) });
    log(`${name}: ${(data.length / 1e6).toFixed(1)} MB in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  }
  const script = readFileSync(join(ROOT, "scripts/install-release.sh"), "utf8");
  if (!BASE_LINE.test(script) || !KEY_LINE.test(script)) throw new Error("scripts/install-release.sh has no DEFAULT_BASE= or RELEASE_KEY= line");
  const installer = Buffer.from(script.replace(BASE_LINE, `DEFAULT_BASE='${o.baseUrl}'`).replace(KEY_LINE, `RELEASE_KEY='${key}'`));
  writeFileSync(join(o.out, INSTALLER), installer);
  chmodSync(join(o.out, INSTALLER), 0o755);
  files.push({ name: INSTALLER, size: installer.length, sha256: sha256(installer) });
  const manifest: Manifest = { name: "ws", version, build, files };
  const manifestText = Buffer.from(JSON.stringify(manifest, null, 2) + "\n");
  writeFileSync(join(o.out, MANIFEST), manifestText);
  // The manifest is listed too, so the version self-update reads from it is signed.
  const sums = Buffer.from(formatChecksums([...files, { name: MANIFEST, size: manifestText.length, sha256: sha256(manifestText) }]));
  writeFileSync(join(o.out, CHECKSUMS), sums);
  writeFileSync(join(o.out, SIGNATURE), signWith(sums, o.signKey, key));
  log(`ws ${version} (${build}) in ${o.out}`);
  return manifest;
}

if (import.meta.main) {
  const { values } = parseArgs({ options: { platforms: { type: "string" }, out: { type: "string" }, "base-url": { type: "string" }, "sign-key": { type: "string" } } });
  try {
    if (!values["sign-key"]) throw new Error("give --sign-key FILE: the release key's private half (PEM), which signs SHA256SUMS (docs/install.md, \"Making a release\")");
    await release({
      signKey: readFileSync(values["sign-key"], "utf8"),
      out: resolve(values.out ?? join(ROOT, "dist/release")),
      platforms: values.platforms ? values.platforms.split(",") : RELEASE_PLATFORMS,
      baseUrl: values["base-url"] ?? process.env.WS_RELEASE_BASE ?? defaultBaseUrl(),
      log: (line) => console.log(line),
    });
  } catch (e) {
    for (const err of (e as AggregateError).errors ?? []) console.error(err);
    console.error(`release: ${(e as Error).message}`);
    process.exit(1);
  }
}
