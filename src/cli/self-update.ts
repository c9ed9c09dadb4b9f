// ws self-update [--to VERSION] [--from BASE] [--force]: the install script's checked download, done
// by the binary itself. Over https only, it reads the release's SHA256SUMS and checks its Ed25519
// signature against the release key built into this ws, then manifest.json against SHA256SUMS,
// refuses an older version unless --to names it, downloads ws-<os>-<arch> beside the running
// binary, checks its hash and that it runs as the manifest says, then renames it over the running
// binary (atomic: a running server keeps its open file and goes on; `ws restart` picks up the new
// one with the session kept). docs/install.md says what each check stops.
import { createHash } from "node:crypto";
import { closeSync, fsyncSync, openSync, readdirSync, readFileSync, realpathSync, renameSync, rmSync, writeSync, chmodSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { BUILD, RELEASE_BASE, RELEASED, WS_VERSION } from "../build-info";
import { socketDir } from "../paths";
import {
  binaryName,
  CHECKSUMS,
  checksumFor,
  type Manifest,
  MANIFEST,
  MAX_BINARY_BYTES,
  MAX_CHECKSUMS_BYTES,
  MAX_MANIFEST_BYTES,
  MAX_SIGNATURE_BYTES,
  RELEASE_PLATFORMS,
  SIGNATURE,
  verifySignature,
} from "./release-files";
import { safeText } from "../safe-text";
import { probeSocket } from "../server/socket-files";
import { CliError, print } from "./common";
import type { HandlerInput } from "./handlers";
import { hostOs } from "../platform/os";

const SMALL_FILE_TIMEOUT_MS = 30_000;
const BINARY_TIMEOUT_MS = 10 * 60_000;
const MAX_REDIRECTS = 5;
/** Tests only: also take a file:// directory or an http:// server on this machine (the signature is
 * checked all the same). install-release.sh reads the same variable. */
export const LOCAL_RELEASE_VARIABLE = "WS_TEST_LOCAL_RELEASE";

/** Where VERSION's release is: GitHub's per-tag address when the default is GitHub's latest. */
export function releaseBase(to: string | undefined, from: string | undefined, defaultBase = RELEASE_BASE): string {
  if (from) return from.replace(/\/+$/, "");
  if (!defaultBase) throw new CliError("this ws knows no release location (it was not built by a release): give --from URL, the directory holding SHA256SUMS");
  if (!to) return defaultBase;
  const latest = /\/releases\/latest\/download$/;
  if (!latest.test(defaultBase)) throw new CliError(`cannot find version ${to} from ${defaultBase}: give --from with that release's address`);
  return defaultBase.replace(latest, `/releases/download/v${to.replace(/^v/, "")}`);
}

const LOOPBACK = new Set(["127.0.0.1", "localhost", "[::1]"]);

/** Why `url` may not be downloaded from, or undefined: https only; a local file or an http server
 * on this machine with WS_TEST_LOCAL_RELEASE=1. A redirect must lead to https (as curl's
 * --proto-redir =https). */
export function urlProblem(url: string, redirect = false, env: Record<string, string | undefined> = process.env): string | undefined {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return `${url} is not a URL`;
  }
  if (u.protocol === "https:") return undefined;
  const local = u.protocol === "file:" || (u.protocol === "http:" && LOOPBACK.has(u.hostname));
  if (redirect) return `${url}: a redirect to anything but https is refused`;
  if (local && env[LOCAL_RELEASE_VARIABLE] === "1") return undefined;
  return `refusing ${url}: a release is downloaded over https only${local ? ` (a local ${u.protocol}// release is for tests: ${LOCAL_RELEASE_VARIABLE}=1)` : ""}`;
}

/** The response for `url`, following at most MAX_REDIRECTS redirects, each to https only. */
async function open(url: string, timeoutMs: number): Promise<Response> {
  const signal = AbortSignal.timeout(timeoutMs);
  let at = url;
  for (let hop = 0; ; hop++) {
    let res: Response;
    try {
      res = await fetch(at, { signal, redirect: "manual" });
    } catch (e) {
      throw new CliError(`could not download ${url}: ${(e as Error).message}`);
    }
    const location = res.status >= 300 && res.status < 400 ? res.headers.get("location") : null;
    if (location === null) {
      if (!res.ok) throw new CliError(`could not download ${url}: HTTP ${res.status}`);
      return res;
    }
    await res.body?.cancel();
    if (hop >= MAX_REDIRECTS) throw new CliError(`could not download ${url}: more than ${MAX_REDIRECTS} redirects`);
    at = new URL(location, at).href;
    const bad = urlProblem(at, true);
    if (bad) throw new CliError(`could not download ${url}: ${bad}`);
  }
}

/** Each chunk of `res`'s body, refused past `max` bytes (before reading it when its length says so). */
async function* bounded(res: Response, url: string, max: number, what: string): AsyncGenerator<Uint8Array> {
  const tooBig = () => new CliError(`${url} is larger than ${max} bytes: not ${what}`);
  if (Number(res.headers.get("content-length") ?? 0) > max) {
    await res.body?.cancel();
    throw tooBig();
  }
  if (!res.body) return;
  let size = 0;
  const reader = res.body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      size += value.length;
      if (size > max) throw tooBig();
      yield value;
    }
  } catch (e) {
    throw e instanceof CliError ? e : new CliError(`could not download ${url}: ${(e as Error).message}`);
  } finally {
    await reader.cancel().catch(() => {});
  }
}

/** A small release file, whole, at most `max` bytes. */
async function fetchSmall(url: string, max: number, what: string): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of bounded(await open(url, SMALL_FILE_TIMEOUT_MS), url, max, what)) chunks.push(chunk);
  return Buffer.concat(chunks);
}

/** Streams `url` into `path`, returning its SHA-256 (bounded, synced to disk). */
async function download(url: string, path: string): Promise<string> {
  const res = await open(url, BINARY_TIMEOUT_MS);
  const hash = createHash("sha256");
  const fd = openSync(path, "wx", 0o700);
  try {
    for await (const chunk of bounded(res, url, MAX_BINARY_BYTES, "a ws binary")) {
      hash.update(chunk);
      for (let off = 0; off < chunk.length; ) off += writeSync(fd, chunk, off);
    }
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  return hash.digest("hex");
}

/** -1, 0 or 1 as semver `a` is older, the same or newer than `b` (a pre-release before its release). */
export function compareVersions(a: string, b: string): number {
  const parse = (v: string) => {
    const [core = "", pre] = v.replace(/^v/, "").split("+")[0]!.split(/-(.*)/s);
    return { nums: core.split(".").map((n) => Number.parseInt(n, 10) || 0), pre };
  };
  const x = parse(a);
  const y = parse(b);
  for (let i = 0; i < Math.max(x.nums.length, y.nums.length); i++) {
    const d = (x.nums[i] ?? 0) - (y.nums[i] ?? 0);
    if (d) return Math.sign(d);
  }
  if (x.pre === y.pre) return 0;
  if (x.pre === undefined) return 1;
  if (y.pre === undefined) return -1;
  return x.pre < y.pre ? -1 : 1;
}

/** SHA256SUMS, once its signature verifies with this ws's release key. */
async function signedChecksums(base: string): Promise<string> {
  const sums = await fetchSmall(`${base}/${CHECKSUMS}`, MAX_CHECKSUMS_BYTES, "a release's SHA256SUMS");
  const signature = await fetchSmall(`${base}/${SIGNATURE}`, MAX_SIGNATURE_BYTES, "a signature").catch((e) => {
    throw new CliError(`${(e as Error).message}: the release is unsigned or incomplete; ws is unchanged`);
  });
  if (!verifySignature(sums, signature))
    throw new CliError(`the signature of ${base}/${CHECKSUMS} does not verify with this ws's release key: not a ws release, or altered on the way; ws is unchanged`);
  return sums.toString("utf8");
}

/** The running servers whose build is not `build`, for the advice after an update. */
async function olderServers(build: string): Promise<string[]> {
  const dir = socketDir();
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => n.endsWith(".sock"));
  } catch {
    return [];
  }
  const out: string[] = [];
  for (const n of names) {
    try {
      const info = JSON.parse(readFileSync(join(dir, n.replace(/\.sock$/, ".info.json")), "utf8")) as { build?: string; version?: string; pid?: number };
      if (info.build && info.build !== build && (await probeSocket(join(dir, n))) === "live") out.push(`${n} (pid ${info.pid}, ${safeText(String(info.version ?? "?"))} build ${safeText(info.build)})`);
    } catch {}
  }
  return out;
}

export async function selfUpdate({ fields }: HandlerInput): Promise<void> {
  const to = fields.to === undefined ? undefined : String(fields.to).replace(/^v/, "");
  const from = fields.from === undefined ? undefined : String(fields.from);
  if (BUILD === "dev") throw new CliError("this ws runs from source, not a compiled binary: update the checkout and run ./install.sh");
  if (!RELEASED && fields.force !== true)
    throw new CliError("this ws was built from source (bun run build), not released: update the checkout and run ./install.sh, or give --force to replace it with a release's binary");
  const platform = `${hostOs}-${process.arch}`;
  if (!(RELEASE_PLATFORMS as readonly string[]).includes(platform)) throw new CliError(`no ws release for ${platform}`);
  const base = releaseBase(to, from);
  const refused = urlProblem(`${base}/`);
  if (refused) throw new CliError(refused);

  const sums = await signedChecksums(base);
  const manifestText = await fetchSmall(`${base}/${MANIFEST}`, MAX_MANIFEST_BYTES, "a release manifest");
  const manifestHash = createHash("sha256").update(manifestText).digest("hex");
  if (checksumFor(sums, MANIFEST) !== manifestHash) throw new CliError(`${base}/${MANIFEST} is not the one SHA256SUMS lists: altered, or from another release; ws is unchanged`);
  let manifest: Manifest;
  try {
    manifest = JSON.parse(manifestText.toString("utf8"));
    if (typeof manifest.version !== "string" || typeof manifest.build !== "string") throw new Error("no version or build");
  } catch (e) {
    throw new CliError(`${base}/${MANIFEST} is not a ws release manifest (${(e as Error).message})`);
  }
  const release = `${safeText(manifest.version)} (${safeText(manifest.build)})`;
  if (to && manifest.version !== to) throw new CliError(`the release at ${base} is ${release}, not ${to}`);
  if (manifest.build === BUILD) return print(`ws ${WS_VERSION} (${BUILD}) is up to date`);
  if (compareVersions(manifest.version, WS_VERSION) < 0 && to !== manifest.version)
    throw new CliError(`the release at ${base} is ${release}, older than this ws (${WS_VERSION}): give --to ${safeText(manifest.version)} to go back to it; ws is unchanged`);

  const name = binaryName(platform);
  const want = checksumFor(sums, name);
  if (!want) throw new CliError(`${base}/${CHECKSUMS} lists no ${name}: that release has no build for ${platform}`);

  // Beside the binary, so the rename is atomic; through a symlink, beside what it points at.
  const target = realpathSync(process.execPath);
  const staged = join(dirname(target), `.${basename(target)}.update-${process.pid}`);
  try {
    const got = await download(`${base}/${name}`, staged).catch((e) => {
      if ((e as NodeJS.ErrnoException).code === "EACCES") throw new CliError(`cannot write to ${dirname(target)}: install the update where you can write, or run as the binary's owner`);
      throw e;
    });
    if (got !== want) throw new CliError(`checksum mismatch for ${name} (expected ${want}, got ${got}): a corrupt or partial download; ws is unchanged`);
    chmodSync(staged, 0o755);
    const ran = Bun.spawnSync([staged, "--version"], { stdout: "pipe", stderr: "pipe", env: { ...process.env, WS_SOCKET: undefined } });
    const says = ran.stdout.toString().trim();
    if (ran.exitCode !== 0 || says !== `${manifest.version} (${manifest.build})`) throw new CliError(`the downloaded ${name} does not run as ${release} (it says: ${safeText(says || ran.stderr.toString().trim())}); ws is unchanged`);
    renameSync(staged, target);
  } finally {
    rmSync(staged, { force: true });
  }
  print(`ws updated: ${WS_VERSION} (${BUILD}) -> ${release} at ${target}`);
  const older = await olderServers(manifest.build);
  if (older.length)
    print(`running servers are older than this ws now (ws doctor shows it): ${older.join(", ")}; they keep running; \`ws restart\` (with -L NAME for a named one) picks up the new binary with the session kept`);
}
