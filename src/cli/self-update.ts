// ws self-update [--to VERSION] [--from BASE]: the install script's checked download, done by the
// binary itself. It reads the release's manifest.json and SHA256SUMS, downloads ws-<os>-<arch>
// beside the running binary, checks its hash and that it runs, then renames it over the running
// binary (atomic: a running server keeps its open file and goes on; `ws restart` picks up the new
// one with the session kept).
import { createHash } from "node:crypto";
import { closeSync, fsyncSync, openSync, readdirSync, readFileSync, realpathSync, renameSync, rmSync, writeSync, chmodSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { BUILD, RELEASE_BASE, WS_VERSION } from "../build-info";
import { socketDir } from "../paths";
import { binaryName, CHECKSUMS, checksumFor, type Manifest, MANIFEST, RELEASE_PLATFORMS } from "../release-files";
import { safeText } from "../safe-text";
import { probeSocket } from "../socket-files";
import { CliError, print } from "./common";
import type { HandlerInput } from "./handlers";

/** Bounds on what is read from the release location. */
const SMALL_FILE_LIMIT = 1 << 20;
const BINARY_LIMIT = 512 << 20;
const SMALL_FILE_TIMEOUT_MS = 30_000;
const BINARY_TIMEOUT_MS = 10 * 60_000;

/** Where VERSION's release is: GitHub's per-tag address when the default is GitHub's latest. */
export function releaseBase(to: string | undefined, from: string | undefined, defaultBase = RELEASE_BASE): string {
  if (from) return from.replace(/\/+$/, "");
  if (!defaultBase) throw new CliError("this ws knows no release location (it was not built by a release): give --from URL, the directory holding SHA256SUMS");
  if (!to) return defaultBase;
  const latest = /\/releases\/latest\/download$/;
  if (!latest.test(defaultBase)) throw new CliError(`cannot find version ${to} from ${defaultBase}: give --from with that release's address`);
  return defaultBase.replace(latest, `/releases/download/v${to.replace(/^v/, "")}`);
}

async function fetchSmall(url: string): Promise<string> {
  let res: Response;
  try {
    res = await fetch(url, { signal: AbortSignal.timeout(SMALL_FILE_TIMEOUT_MS) });
  } catch (e) {
    throw new CliError(`could not download ${url}: ${(e as Error).message}`);
  }
  if (!res.ok) throw new CliError(`could not download ${url}: HTTP ${res.status}`);
  const body = await res.arrayBuffer();
  if (body.byteLength > SMALL_FILE_LIMIT) throw new CliError(`${url} is larger than ${SMALL_FILE_LIMIT} bytes: not a release file`);
  return new TextDecoder().decode(body);
}

/** Streams `url` into `path`, returning its SHA-256 (bounded, synced to disk). */
async function download(url: string, path: string): Promise<string> {
  let res: Response;
  try {
    res = await fetch(url, { signal: AbortSignal.timeout(BINARY_TIMEOUT_MS) });
  } catch (e) {
    throw new CliError(`could not download ${url}: ${(e as Error).message}`);
  }
  if (!res.ok || !res.body) throw new CliError(`could not download ${url}: HTTP ${res.status}`);
  const hash = createHash("sha256");
  const fd = openSync(path, "wx", 0o700);
  try {
    let size = 0;
    for await (const chunk of res.body) {
      size += chunk.length;
      if (size > BINARY_LIMIT) throw new CliError(`${url} is larger than ${BINARY_LIMIT} bytes: not a ws binary`);
      hash.update(chunk);
      for (let off = 0; off < chunk.length; ) off += writeSync(fd, chunk, off);
    }
    fsyncSync(fd);
  } catch (e) {
    throw e instanceof CliError ? e : new CliError(`could not download ${url}: ${(e as Error).message}`);
  } finally {
    closeSync(fd);
  }
  return hash.digest("hex");
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
  const platform = `${process.platform}-${process.arch}`;
  if (!(RELEASE_PLATFORMS as readonly string[]).includes(platform)) throw new CliError(`no ws release for ${platform}`);
  const base = releaseBase(to, from);

  let manifest: Manifest;
  try {
    manifest = JSON.parse(await fetchSmall(`${base}/${MANIFEST}`));
    if (typeof manifest.version !== "string" || typeof manifest.build !== "string") throw new Error("no version or build");
  } catch (e) {
    throw e instanceof CliError ? e : new CliError(`${base}/${MANIFEST} is not a ws release manifest (${(e as Error).message})`);
  }
  const release = `${safeText(manifest.version)} (${safeText(manifest.build)})`;
  if (to && manifest.version !== to) throw new CliError(`the release at ${base} is ${release}, not ${to}`);
  if (manifest.build === BUILD) return print(`ws ${WS_VERSION} (${BUILD}) is up to date`);

  const name = binaryName(platform);
  const want = checksumFor(await fetchSmall(`${base}/${CHECKSUMS}`), name);
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
