// ws self-update against a local HTTP server serving a release: the checked download replaces the
// running binary atomically; a running server keeps going, doctor sees it is older and restart
// picks up the new binary with the session; a bad download leaves the old binary as it was.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { binaryName, type Manifest } from "../src/release-files";
import { ROOT, TestServer, waitFor } from "./harness";
import { HOST_PLATFORM, olderBinary, serveRelease, type ServeOptions, testRelease } from "./release-rig";

let release: { dir: string; manifest: Manifest };
let older: string;
let scratch: string;
beforeAll(async () => {
  release = await testRelease();
  older = await olderBinary();
  scratch = mkdtempSync(join(tmpdir(), "ws-self-update-"));
}, 240_000);
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const sha256 = (path: string) => createHash("sha256").update(readFileSync(path)).digest("hex");
const newVersion = () => `${release.manifest.version} (${release.manifest.build})`;
const oldVersion = () => `${release.manifest.version} (0lderbuild00)`;

let n = 0;
/** A bin directory holding `from` as ws, and a private server environment for it. */
function installed(from: string) {
  const bin = join(scratch, String(++n));
  mkdirSync(bin);
  copyFileSync(from, join(bin, "ws"));
  chmodSync(join(bin, "ws"), 0o755);
  const s = new TestServer();
  const ws = async (...args: string[]) => {
    const p = Bun.spawn([join(bin, "ws"), ...args], { env: { ...s.env, PATH: `${bin}:/usr/bin:/bin` }, cwd: s.root, stdout: "pipe", stderr: "pipe" });
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
      [{ missing: file }, /could not download http:\/\/127\.0\.0\.1:\d+\/ws-.*: HTTP 404/],
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
    expect(nowhere.stderr).toContain("could not download http://127.0.0.1:9/no-release-here/manifest.json");
    const source = Bun.spawnSync([process.execPath, join(ROOT, "src/main.ts"), "self-update", "--from", "http://127.0.0.1:9"], { env: s.env });
    expect(source.exitCode).toBe(1);
    expect(source.stderr.toString()).toContain("this ws runs from source");
  } finally {
    await s.stop();
  }
}, 120_000);
