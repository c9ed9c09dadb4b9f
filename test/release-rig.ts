// One release directory for the release, curl-install and self-update tests: built once per
// source tree (keyed by its build id, kept under dist/test-release so a rerun reuses it) and signed
// with a key of the tests' own (the binaries and install.sh built for it trust that key instead of
// the project's: compile.ts's testingReleaseKey), and a local HTTPS server on 127.0.0.1 with a
// certificate of its own that serves it, with a file corrupted, cut short, missing, replaced,
// endless or redirected on demand.
import { generateKeyPairSync } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { buildId, compile, packageVersion } from "../scripts/compile";
import { release } from "../scripts/release";
import { type Manifest, MANIFEST, RELEASE_PLATFORMS } from "../src/cli/release-files";
import { processAlive, ROOT } from "./harness";

const CACHE = join(ROOT, "dist/test-release");
/** Held (a directory holding its holder's pid) while one test process writes under CACHE: the
 * suite's workers run the release tests' files side by side, and the first builds for all. */
const LOCK = `${CACHE}.lock`;

/** Runs `write` while holding LOCK: waits for another live holder to finish (within 10 minutes, a
 * slow machine's whole release build), and takes over a lock whose holder died. */
async function exclusively<T>(write: () => Promise<T> | T): Promise<T> {
  mkdirSync(dirname(LOCK), { recursive: true });
  const deadline = Date.now() + 600_000;
  for (;;) {
    try {
      mkdirSync(LOCK);
      writeFileSync(join(LOCK, "pid"), String(process.pid));
      break;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
    }
    let holder = 0;
    try {
      holder = Number(readFileSync(join(LOCK, "pid"), "utf8"));
    } catch {} // just made: its pid follows
    if (holder > 0 && !processAlive(holder)) rmSync(LOCK, { recursive: true, force: true });
    else if (Date.now() > deadline) throw new Error(`${LOCK} is still held by process ${holder || "(unknown)"} after 10 minutes`);
    else await Bun.sleep(100); // polled until the deadline: a lock directory's removal has no event to wait on
  }
  try {
    return await write();
  } finally {
    rmSync(LOCK, { recursive: true, force: true });
  }
}
/** This machine's platform as the release names it. */
export const HOST_PLATFORM = `${process.platform}-${process.arch}`;

/** The release location written into the test release: https, where nothing listens (the discard port). */
export const TEST_DEFAULT_BASE = "https://127.0.0.1:9/no-release-here";

export interface TestRelease {
  dir: string;
  manifest: Manifest;
  /** The tests' signing key: its private half (PEM) and public half (base64 SPKI, as built in). */
  key: { privatePem: string; publicKey: string };
}

function makeKey(dir: string): TestRelease["key"] {
  const file = join(dir, ".test-signing-key.json");
  if (existsSync(file)) return JSON.parse(readFileSync(file, "utf8"));
  const { publicKey, privateKey } = generateKeyPairSync("ed25519");
  const key = { privatePem: privateKey.export({ type: "pkcs8", format: "pem" }) as string, publicKey: (publicKey.export({ type: "spki", format: "der" }) as Buffer).toString("base64") };
  writeFileSync(file, JSON.stringify(key), { mode: 0o600 });
  return key;
}

/** The tests check signatures and make their certificate with OpenSSL 3 (LibreSSL, macOS's
 * openssl, can't check Ed25519), as install.sh does where it is there. */
export function requireOpenssl3(): void {
  const v = Bun.which("openssl") ? Bun.spawnSync(["openssl", "version"]).stdout.toString() : "";
  if (!/^OpenSSL [3-9]/.test(v)) throw new Error(`OpenSSL 3 is not the openssl on the PATH (${v.trim() || "none"}): the release tests need it (apt-get install openssl; brew install openssl@3 and put its bin first on the PATH)`);
}

let built: Promise<TestRelease> | undefined;

/** Every platform's release of the current sources (about 5 s a platform the first time). */
export function testRelease(): Promise<TestRelease> {
  requireOpenssl3();
  return (built ??= (async () => {
    const id = buildId();
    const dir = join(CACHE, id);
    const done = join(dir, ".complete");
    if (!existsSync(done))
      await exclusively(async () => {
        if (existsSync(done)) return; // another test process built it meanwhile
        if (existsSync(CACHE)) for (const old of readdirSync(CACHE)) rmSync(join(CACHE, old), { recursive: true, force: true });
        const keyDir = join(CACHE, `${id}.key`);
        mkdirSync(keyDir, { recursive: true });
        const key = makeKey(keyDir);
        // Bytecode (half of each build's time) only in the binary this machine runs, as released.
        await release({ out: dir, platforms: RELEASE_PLATFORMS, baseUrl: TEST_DEFAULT_BASE, signKey: key.privatePem, testingReleaseKey: key.publicKey, bytecodeFor: [HOST_PLATFORM] });
        renameSync(join(keyDir, ".test-signing-key.json"), join(dir, ".test-signing-key.json"));
        rmSync(keyDir, { recursive: true, force: true });
        writeFileSync(done, "");
      });
    return { dir, manifest: JSON.parse(readFileSync(join(dir, MANIFEST), "utf8")) as Manifest, key: makeKey(dir) };
  })());
}

const extra = new Map<string, Promise<string>>();
/** A compiled ws for this machine that trusts the test key, cached beside the release under older/. */
function extraBinary(name: string, o: { build: string; version: string; released: boolean }): Promise<string> {
  let p = extra.get(name);
  if (!p) {
    p = (async () => {
      const { dir, key } = await testRelease();
      const out = join(dir, "older", name);
      if (!existsSync(out))
        await exclusively(async () => {
          if (existsSync(out)) return;
          mkdirSync(join(dir, "older"), { recursive: true });
          // No bytecode: these stand for other builds, and bytecode doubles a build's time.
          await compile({ outfile: `${out}.tmp`, build: o.build, version: o.version, sourcemap: false, bytecode: false, testingReleaseKey: key.publicKey, ...(o.released ? { releaseBase: TEST_DEFAULT_BASE } : {}) });
          renameSync(`${out}.tmp`, out);
        });
      return out;
    })();
    extra.set(name, p);
  }
  return p;
}

/** A released ws for this machine with another build id ("0lderbuild00"): what self-update replaces. */
export const olderBinary = () => extraBinary("ws", { build: "0lderbuild00", version: packageVersion(), released: true });

/** A ws built from source (`bun run build`, not released) at version 99.0.0: newer than the release. */
export const sourceBuiltNewer = () => extraBinary("ws-source", { build: "s0urcebuild0", version: "99.0.0", released: false });

let tls: { cert: string; key: string } | undefined;
/** A certificate for 127.0.0.1 (made once with openssl), and the environment that trusts it:
 * curl reads CURL_CA_BUNDLE, Bun (ws) NODE_EXTRA_CA_CERTS. */
export function testTls(): { cert: string; key: string; env: Record<string, string> } {
  if (!tls) {
    const dir = join(CACHE, ".tls");
    const cert = join(dir, "cert.pem");
    const key = join(dir, "key.pem");
    if (!existsSync(cert)) {
      // Made in a directory of this process's own and moved into place whole, so a test process
      // making it at the same time can't pair its key with this certificate.
      const mine = `${dir}.${process.pid}`;
      rmSync(mine, { recursive: true, force: true });
      mkdirSync(mine, { recursive: true });
      const made = Bun.spawnSync(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", join(mine, "key.pem"), "-out", join(mine, "cert.pem"), "-days", "3650", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"], { stderr: "pipe" });
      if (made.exitCode !== 0) throw new Error(`openssl could not make a test certificate: ${made.stderr.toString()}`);
      try {
        renameSync(mine, dir);
      } catch {
        rmSync(mine, { recursive: true, force: true }); // another process's came first
      }
    }
    tls = { cert, key };
  }
  return { ...tls, env: { CURL_CA_BUNDLE: tls.cert, NODE_EXTRA_CA_CERTS: tls.cert } };
}

export interface ServeOptions {
  /** Served with one byte changed. */
  corrupt?: string;
  /** Served cut to half its length. */
  truncate?: string;
  /** Answered 404. */
  missing?: string;
  /** Served with these contents instead. */
  replace?: Record<string, Uint8Array | string>;
  /** Served forever, with no length announced. */
  endless?: string;
  /** Answered with a redirect to this URL. */
  redirect?: Record<string, string>;
  /** Plain http instead of https. */
  http?: boolean;
}

/** Serves `dir` on 127.0.0.1 (an ephemeral port), over https unless `http`; `url` is the release
 * base, `requests` the names asked for, `sent` the bytes of endless answers sent. */
export function serveRelease(dir: string, o: ServeOptions = {}) {
  const requests: string[] = [];
  const state = { endlessSent: 0 };
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    ...(o.http ? {} : { tls: { cert: Bun.file(testTls().cert), key: Bun.file(testTls().key) } }),
    fetch(req) {
      const name = decodeURIComponent(new URL(req.url).pathname.slice(1));
      requests.push(name);
      if (o.redirect?.[name] !== undefined) return Response.redirect(o.redirect[name]!, 302);
      if (o.replace?.[name] !== undefined) return new Response(o.replace[name] as BodyInit);
      if (name === o.endless) {
        const chunk = new Uint8Array(64 * 1024).fill(0x61);
        return new Response(
          new ReadableStream({
            pull(c) {
              state.endlessSent += chunk.length;
              c.enqueue(chunk);
            },
          }),
        );
      }
      if (name.includes("/") || name.startsWith(".") || name === o.missing || !existsSync(join(dir, name))) return new Response("not found", { status: 404 });
      if (name === o.corrupt || name === o.truncate) {
        const data = readFileSync(join(dir, name));
        if (name === o.corrupt) data[data.length >> 1]! ^= 0xff;
        return new Response(name === o.truncate ? data.subarray(0, data.length >> 1) : data);
      }
      return new Response(Bun.file(join(dir, name)));
    },
  });
  return { url: `${o.http ? "http" : "https"}://127.0.0.1:${server.port}`, requests, state, stop: () => server.stop(true) };
}
