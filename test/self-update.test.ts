// ws self-update against a local HTTPS server serving a release: the checked download replaces the
// running binary atomically; a running server keeps going, doctor sees it is older and restart
// picks up the new binary with the session; a bad download, a SHA256SUMS whose signature does not
// verify, a base or redirect that is not https, an older version and an endless file leave the old
// binary as it was.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { createHash, generateKeyPairSync, sign } from "node:crypto";
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { binaryName, CHECKSUMS, MANIFEST, SIGNATURE } from "../src/cli/release-files";
import { ROOT, TestServer, waitFor } from "./harness";
import { HOST_PLATFORM, olderBinary, serveRelease, type ServeOptions, sourceBuiltNewer, testRelease, type TestRelease, testTls } from "./release-rig";

let release: TestRelease;
let older: string;
let newer: string;
let scratch: string;
beforeAll(async () => {
  release = await testRelease();
  older = await olderBinary();
  newer = await sourceBuiltNewer();
  scratch = mkdtempSync(join(tmpdir(), "ws-self-update-"));
}, 600_000);
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const sha256 = (path: string) => createHash("sha256").update(readFileSync(path)).digest("hex");
const newVersion = () => `${release.manifest.version} (${release.manifest.build})`;
const oldVersion = () => `${release.manifest.version} (0lderbuild00)`;

let n = 0;
/** A bin directory holding `from` as ws, and a private server environment for it. */
function installed(from: string, extraEnv: Record<string, string> = {}) {
  const bin = join(scratch, String(++n));
  mkdirSync(bin);
  copyFileSync(from, join(bin, "ws"));
  chmodSync(join(bin, "ws"), 0o755);
  const s = new TestServer();
  const ws = async (...args: string[]) => {
    const p = Bun.spawn([join(bin, "ws"), ...args], { env: { ...s.env, ...testTls().env, PATH: `${bin}:/usr/bin:/bin`, ...extraEnv }, cwd: s.root, stdout: "pipe", stderr: "pipe" });
    const [stdout, stderr, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
    return { stdout, stderr, code };
  };
  return { bin, s, ws, path: join(bin, "ws") };
}

async function selfUpdate(ws: (...a: string[]) => Promise<{ stdout: string; stderr: string; code: number }>, serve: ServeOptions = {}, ...extra: string[]) {
  const server = serveRelease(release.dir, serve);
  try {
    return await ws("self-update", "--from", server.url, ...extra);
  } finally {
    server.stop();
  }
}

test("an older ws updates itself; its running server keeps going, doctor names it older, restart brings the new build with the session", async () => {
  const { bin, s, ws, path } = installed(older);
  try {
    expect((await ws("--version")).stdout.trim()).toBe(oldVersion());
    expect((await ws("start")).code).toBe(0);
    expect((await ws("workspace", "new", "Kept")).code).toBe(0);
    const info = () => JSON.parse(readFileSync(s.sock.replace(/\.sock$/, ".info.json"), "utf8")) as { pid: number; build: string };
    const before = await waitFor("the server's info file", () => info());
    expect(before.build).toBe("0lderbuild00");

    const r = await selfUpdate(ws);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`ws updated: ${oldVersion()} -> ${newVersion()} at ${path}`);
    expect(r.stdout).toContain(`default.sock (pid ${before.pid}, ${release.manifest.version} build 0lderbuild00)`);
    expect(sha256(path)).toBe(release.manifest.files.find((f) => f.name === binaryName(HOST_PLATFORM))!.sha256);
    expect(readdirSync(bin)).toEqual(["ws"]);
    expect((await ws("--version")).stdout.trim()).toBe(newVersion());

    // The server went on running the old build, and answers the new client.
    expect(info().pid).toBe(before.pid);
    const list = await ws("--json", "workspace", "list");
    expect(list.code).toBe(0);
    expect(JSON.parse(list.stdout).workspaces.map((w: { name: string }) => w.name)).toEqual(["main", "Kept"]);
    const doctor = await ws("doctor");
    expect(doctor.stdout).toContain(`server build 0lderbuild00 differs from this ws (${release.manifest.build})`);

    const restarted = await ws("restart");
    expect(restarted.stderr).toBe("");
    expect(restarted.code).toBe(0);
    const after = await waitFor("the restarted server's info file", () => {
      const i = info();
      return i.pid !== before.pid && i;
    });
    expect(after.build).toBe(release.manifest.build);
    expect(JSON.parse((await ws("--json", "workspace", "list")).stdout).workspaces.map((w: { name: string }) => w.name)).toEqual(["main", "Kept"]);
  } finally {
    await ws("kill-server");
    await s.stop();
  }
}, 120_000);

test("a corrupted, cut-short or missing download, or the wrong version, leaves the old binary in place", async () => {
  const { bin, s, ws, path } = installed(older);
  const file = binaryName(HOST_PLATFORM);
  const oldHash = sha256(path);
  try {
    for (const [serve, message] of [
      [{ corrupt: file }, /checksum mismatch for ws-.*ws is unchanged/],
      [{ truncate: file }, /checksum mismatch/],
      [{ missing: file }, /could not download https:\/\/127\.0\.0\.1:\d+\/ws-.*: HTTP 404/],
      [{ missing: "SHA256SUMS" }, /could not download .*SHA256SUMS: HTTP 404/],
      [{ missing: "manifest.json" }, /could not download .*manifest\.json: HTTP 404/],
    ] as [ServeOptions, RegExp][]) {
      const r = await selfUpdate(ws, serve);
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(message);
      expect(sha256(path)).toBe(oldHash);
      expect(readdirSync(bin)).toEqual(["ws"]);
    }
    const wrong = await selfUpdate(ws, {}, "--to", "9.9.9");
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain(`is ${newVersion()}, not 9.9.9`);
    expect(sha256(path)).toBe(oldHash);
    expect((await ws("--version")).stdout.trim()).toBe(oldVersion());
  } finally {
    await s.stop();
  }
}, 120_000);

test("the release's own build is up to date; from source, self-update refuses", async () => {
  const { ws, path, s } = installed(join(release.dir, binaryName(HOST_PLATFORM)));
  try {
    const same = await selfUpdate(ws, {}, "--to", release.manifest.version);
    expect(same.stdout.trim()).toBe(`ws ${newVersion()} is up to date`);
    expect(same.code).toBe(0);
    expect(sha256(path)).toBe(release.manifest.files.find((f) => f.name === binaryName(HOST_PLATFORM))!.sha256);
    // With no --from, this build knows where it was released (here: nowhere that answers).
    const nowhere = await ws("self-update");
    expect(nowhere.code).toBe(1);
    expect(nowhere.stderr).toContain("could not download https://127.0.0.1:9/no-release-here/SHA256SUMS");
    const source = Bun.spawnSync([process.execPath, join(ROOT, "src/main.ts"), "self-update", "--from", "https://127.0.0.1:9"], { env: s.env });
    expect(source.exitCode).toBe(1);
    expect(source.stderr.toString()).toContain("this ws runs from source");
  } finally {
    await s.stop();
  }
}, 120_000);

const hostFile = () => binaryName(HOST_PLATFORM);
const releaseFile = (name: string) => readFileSync(join(release.dir, name));

/** A stand-in "ws" that answers --version as the release's binary does, and leaves a mark if it
 * is ever run: what an attacker would serve in place of the binary. */
function impostor(mark: string): string {
  return `#!/bin/sh\ntouch '${mark}'\necho '${release.manifest.version} (${release.manifest.build})'\n`;
}

test("a tampered binary with a SHA256SUMS to match is refused when SHA256SUMS's signature is bad, absent or another key's, or the manifest is not the signed one; nothing runs, ws is unchanged", async () => {
  const { bin, s, ws, path } = installed(older);
  const oldHash = sha256(path);
  const mark = join(scratch, "impostor-ran");
  const fake = impostor(mark);
  // SHA256SUMS rewritten for the impostor: every other line as released.
  const sums = releaseFile(CHECKSUMS).toString().replace(new RegExp(`^[0-9a-f]{64}(?=  ${hostFile()}$)`, "m"), createHash("sha256").update(fake).digest("hex"));
  const attacker = generateKeyPairSync("ed25519").privateKey;
  try {
    for (const [label, replace, missing, message] of [
      ["the release's signature", { [hostFile()]: fake, [CHECKSUMS]: sums }, undefined, /signature of .*SHA256SUMS does not verify with this ws's release key/],
      ["no signature", { [hostFile()]: fake, [CHECKSUMS]: sums }, SIGNATURE, /SHA256SUMS\.sig: HTTP 404: the release is unsigned/],
      ["another key's signature", { [hostFile()]: fake, [CHECKSUMS]: sums, [SIGNATURE]: sign(null, Buffer.from(sums), attacker) }, undefined, /does not verify/],
      ["a signature of the wrong length", { [hostFile()]: fake, [CHECKSUMS]: sums, [SIGNATURE]: "x" }, undefined, /does not verify/],
      ["a manifest that says another version", { [MANIFEST]: JSON.stringify({ ...release.manifest, version: "9.9.9" }) }, undefined, /manifest\.json is not the one SHA256SUMS lists/],
    ] as [string, Record<string, string | Buffer>, string | undefined, RegExp][]) {
      const r = await selfUpdate(ws, { replace, missing });
      expect({ label, code: r.code }).toEqual({ label, code: 1 });
      expect(r.stderr).toMatch(message);
      expect(r.stderr).toContain("ws is unchanged");
      expect(sha256(path)).toBe(oldHash);
      expect(readdirSync(bin)).toEqual(["ws"]);
      expect(existsSync(mark)).toBe(false);
    }
    // The same impostor with SHA256SUMS as released is caught by its hash.
    const r = await selfUpdate(ws, { replace: { [hostFile()]: fake } });
    expect(r.stderr).toContain(`checksum mismatch for ${hostFile()}`);
    expect(existsSync(mark)).toBe(false);
  } finally {
    await s.stop();
  }
}, 120_000);

test("only https: an http base is refused before anything is asked, a redirect to http is refused, a redirect to https is followed; file:// and loopback http only with WS_TEST_LOCAL_RELEASE=1, signature checked all the same", async () => {
  const plain = serveRelease(release.dir, { http: true });
  try {
    const a = installed(older);
    const oldHash = sha256(a.path);
    for (const [from, says] of [
      [plain.url, `refusing ${plain.url}/: a release is downloaded over https only (a local http:// release is for tests: WS_TEST_LOCAL_RELEASE=1)`],
      [`file://${release.dir}`, "a local file:// release is for tests"],
      ["http://example.invalid/release", "refusing http://example.invalid/release/: a release is downloaded over https only"],
      ["ftp://127.0.0.1/release", "over https only"],
    ]) {
      const r = await a.ws("self-update", "--from", from!);
      expect({ from, code: r.code }).toEqual({ from, code: 1 });
      expect(r.stderr).toContain(says!);
    }
    expect(plain.requests).toEqual([]);
    // A redirect of the binary to http (where anyone on the path could answer) is refused.
    const r = await selfUpdate(a.ws, { redirect: { [hostFile()]: `${plain.url}/${hostFile()}` } });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`could not download https://127.0.0.1:`);
    expect(r.stderr).toContain(`${plain.url}/${hostFile()}: a redirect to anything but https is refused`);
    expect(plain.requests).toEqual([]);
    expect(sha256(a.path)).toBe(oldHash);
    // One to https is followed (GitHub's downloads redirect to its storage).
    const other = serveRelease(release.dir);
    try {
      const followed = await selfUpdate(a.ws, { redirect: { [hostFile()]: `${other.url}/${hostFile()}` } });
      expect(followed.stderr).toBe("");
      expect(followed.stdout).toContain(`-> ${newVersion()}`);
      expect(other.requests).toEqual([hostFile()]);
    } finally {
      other.stop();
    }
    await a.s.stop();

    // With the testing variable, a local release works, and its signature is still checked.
    for (const from of [plain.url, `file://${release.dir}`]) {
      const b = installed(older, { WS_TEST_LOCAL_RELEASE: "1" });
      try {
        const ok = await b.ws("self-update", "--from", from);
        expect({ from, err: ok.stderr, code: ok.code }).toEqual({ from, err: "", code: 0 });
        expect((await b.ws("--version")).stdout.trim()).toBe(newVersion());
      } finally {
        await b.s.stop();
      }
    }
    const c = installed(older, { WS_TEST_LOCAL_RELEASE: "1" });
    const bad = serveRelease(release.dir, { http: true, missing: SIGNATURE });
    try {
      const r2 = await c.ws("self-update", "--from", bad.url);
      expect(r2.code).toBe(1);
      expect(r2.stderr).toContain("the release is unsigned");
    } finally {
      bad.stop();
      await c.s.stop();
    }
  } finally {
    plain.stop();
  }
}, 180_000);

test("a ws built from source refuses without --force; an older release is refused unless --to names it", async () => {
  const { s, ws, path } = installed(newer);
  const before = sha256(path);
  try {
    expect((await ws("--version")).stdout.trim()).toBe("99.0.0 (s0urcebuild0)");
    const source = await selfUpdate(ws);
    expect(source.code).toBe(1);
    expect(source.stderr).toContain("this ws was built from source (bun run build), not released: update the checkout and run ./install.sh, or give --force");
    const down = await selfUpdate(ws, {}, "--force");
    expect(down.code).toBe(1);
    expect(down.stderr).toContain(`is ${newVersion()}, older than this ws (99.0.0): give --to ${release.manifest.version} to go back to it; ws is unchanged`);
    expect(sha256(path)).toBe(before);
    const named = await selfUpdate(ws, {}, "--force", "--to", release.manifest.version);
    expect(named.stderr).toBe("");
    expect(named.stdout).toContain(`ws updated: 99.0.0 (s0urcebuild0) -> ${newVersion()}`);
    expect((await ws("--version")).stdout.trim()).toBe(newVersion());
  } finally {
    await s.stop();
  }
}, 120_000);

test("an endless SHA256SUMS, signature or manifest is cut off at its bound, not read whole", async () => {
  const { s, ws, path } = installed(older);
  const oldHash = sha256(path);
  try {
    for (const [name, bound] of [
      [CHECKSUMS, 65536],
      [SIGNATURE, 1024],
      [MANIFEST, 1048576],
    ] as [string, number][]) {
      const server = serveRelease(release.dir, { endless: name });
      try {
        const r = await ws("self-update", "--from", server.url);
        expect({ name, code: r.code }).toEqual({ name, code: 1 });
        expect(r.stderr).toContain(`${server.url}/${name} is larger than ${bound} bytes`);
        // What the server pushed before the client hung up: its buffers, not the stream.
        expect(server.state.endlessSent).toBeLessThan(64 * 1024 * 1024);
      } finally {
        server.stop();
      }
    }
    // A file that announces its size is refused before its body is read.
    const big = serveRelease(release.dir, { replace: { [CHECKSUMS]: Buffer.alloc(65537, 0x61) } });
    try {
      const r = await ws("self-update", "--from", big.url);
      expect(r.stderr).toContain("SHA256SUMS is larger than 65536 bytes");
    } finally {
      big.stop();
    }
    expect(sha256(path)).toBe(oldHash);
  } finally {
    await s.stop();
  }
}, 120_000);
