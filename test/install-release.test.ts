// The curl install (scripts/install-release.sh, shipped as install.sh) against a local HTTPS server
// serving the release directory: `curl -fsSL <base>/install.sh | sh`, as a user runs it. Its
// checks: https only (no http base, no redirect to http; a local release only with
// WS_TEST_LOCAL_RELEASE=1), SHA256SUMS's signature (openssl 3), the binary's hash, bounded downloads.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { binaryName, CHECKSUMS, SIGNATURE } from "../src/cli/release-files";
import { ROOT } from "./harness";
import { HOST_PLATFORM, serveRelease, type ServeOptions, testRelease, type TestRelease, testTls } from "./release-rig";

const SCRIPT = join(ROOT, "scripts/install-release.sh");
let release: TestRelease;
let scratch: string;

beforeAll(async () => {
  release = await testRelease();
  scratch = mkdtempSync(join(tmpdir(), "ws-install-test-"));
}, 600_000);
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

let n = 0;
/** A fresh HOME and TMPDIR, and a bin directory of fakes put first on the PATH. */
function sandbox() {
  const root = join(scratch, String(++n));
  const home = join(root, "home");
  const tmp = join(root, "tmp");
  const fakes = join(root, "fakes");
  for (const d of [home, tmp, fakes]) mkdirSync(d, { recursive: true });
  const fake = (name: string, body: string) => {
    writeFileSync(join(fakes, name), `#!/bin/sh\n${body}\n`);
    chmodSync(join(fakes, name), 0o755);
  };
  return { root, home, tmp, fakes, fake };
}

/** `curl -fsSL <base>/install.sh | sh -s -- ARGS`, with the release served as `serve` says. */
async function curlInstall(box: ReturnType<typeof sandbox>, args: string[], serve: ServeOptions = {}, env: Record<string, string> = {}) {
  const server = serveRelease(release.dir, serve);
  try {
    const argv = args.map((a) => (a === "$URL" ? server.url : a));
    const p = Bun.spawn(["sh", "-c", 'curl -fsSL "$BASE/install.sh" | sh -s -- "$@"', "sh", ...argv], {
      env: { PATH: `${box.fakes}:/usr/local/bin:/usr/bin:/bin`, HOME: box.home, TMPDIR: box.tmp, BASE: server.url, WS_INSTALL_BASE: server.url, ...testTls().env, ...env },
      stdout: "pipe",
      stderr: "pipe",
    });
    const [stdout, stderr, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
    return { stdout, stderr, code, url: server.url };
  } finally {
    server.stop();
  }
}

/** Every file under `dir`, relative. */
function tree(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => !e.isDirectory())
    .map((e) => join(e.parentPath, e.name).slice(dir.length + 1))
    .sort();
}

const expectedVersion = () => `${release.manifest.version} (${release.manifest.build})`;

describe("curl | sh", () => {
  test("installs the checked binary in ~/.local/bin, its completions, and says how to put it on the PATH", async () => {
    const box = sandbox();
    const r = await curlInstall(box, []);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("SHA256SUMS is signed by the ws release key");
    const bin = join(box.home, ".local/bin/ws");
    const v = Bun.spawnSync([bin, "--version"], { env: { PATH: "/usr/bin:/bin", HOME: box.home } });
    expect(v.stdout.toString().trim()).toBe(expectedVersion());
    expect(r.stdout).toContain(`installed ws ${expectedVersion()} at ${bin}`);
    expect(r.stdout).toContain(`export PATH="${join(box.home, ".local/bin")}:$PATH"`);
    expect(tree(join(box.home, ".local"))).toEqual(["bin/ws", "share/bash-completion/completions/ws", "share/fish/vendor_completions.d/ws.fish", "share/man/man1/ws.1", "share/zsh/site-functions/_ws"]);
    // The man page is the installed binary's own (ws help --man, from its command table).
    const man = Bun.spawnSync([bin, "help", "--man"], { env: { PATH: "/usr/bin:/bin", HOME: box.home } }).stdout.toString();
    expect(readFileSync(join(box.home, ".local/share/man/man1/ws.1"), "utf8")).toBe(man);
    expect(man).toContain(".TH WS 1");
    expect(r.stdout).toContain(`man page: ${join(box.home, ".local/share/man/man1/ws.1")}`);
    for (const f of ["bash-completion/completions/ws", "zsh/site-functions/_ws", "fish/vendor_completions.d/ws.fish"]) expect(r.stdout).toContain(join(box.home, ".local/share", f));
    expect(tree(box.tmp)).toEqual([]);
    // fish finds the completions where they were put, with no configuration (bash-completion and
    // zsh's fpath are covered by test/completion.test.ts and docs/install.md).
    if (Bun.which("fish")) {
      const fish = Bun.spawnSync(["fish", "-c", 'complete -C "ws pa"'], { env: { PATH: `${join(box.home, ".local/bin")}:/usr/bin:/bin`, HOME: box.home }, stderr: "pipe" });
      expect(fish.stdout.toString().trim()).toBe("pane");
    }
  }, 120_000);

  test("--prefix installs DIR/bin/ws, --base names the release, and a bin directory already on the PATH gets no PATH advice", async () => {
    const box = sandbox();
    const prefix = join(box.root, "opt");
    const r = await curlInstall(box, ["--prefix", prefix, "--no-completions", "--base", "$URL"], {}, { WS_INSTALL_BASE: "http://127.0.0.1:9/not-this-one", PATH: `${box.fakes}:${prefix}/bin:/usr/local/bin:/usr/bin:/bin` });
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(tree(prefix)).toEqual(["bin/ws", "share/man/man1/ws.1"]);
    expect(tree(box.home)).toEqual([]);
    expect(r.stdout).toContain(`downloading ${r.url}/${binaryName(HOST_PLATFORM)}`);
    expect(r.stdout).not.toContain("is not on your PATH");
    expect(Bun.spawnSync([join(prefix, "bin/ws"), "--version"]).stdout.toString().trim()).toBe(expectedVersion());
  }, 120_000);

  test("with no release location known it says how to give one", () => {
    const box = sandbox();
    const p = Bun.spawnSync(["sh", SCRIPT], { env: { PATH: "/usr/bin:/bin", HOME: box.home, TMPDIR: box.tmp } });
    expect(p.exitCode).toBe(1);
    expect(p.stderr.toString()).toContain("set WS_INSTALL_BASE=URL or pass --base URL");
    expect(tree(box.root)).toEqual([]);
  });
});

/** Runs the curl install over an older ws already installed, and checks it refused with `message`,
 * left that ws as it was and nothing in TMPDIR. */
async function refusedWith(serve: ServeOptions, message: string | RegExp, setup?: (box: ReturnType<typeof sandbox>) => void, args: string[] = [], env: Record<string, string> = {}) {
  const box = sandbox();
  setup?.(box);
  const bin = join(box.home, ".local/bin");
  mkdirSync(bin, { recursive: true });
  writeFileSync(join(bin, "ws"), "#!/bin/sh\necho old\n");
  const r = await curlInstall(box, args, serve, env);
  expect(r.code).toBe(1);
  expect(r.stderr).toMatch(message);
  expect(tree(join(box.home, ".local"))).toEqual(["bin/ws"]);
  expect(Bun.file(join(bin, "ws")).size).toBe("#!/bin/sh\necho old\n".length);
  expect(tree(box.tmp)).toEqual([]);
  return { ...r, box };
}

describe("refusals leave nothing behind", () => {
  const refused = (serve: ServeOptions, message: string | RegExp, setup?: (box: ReturnType<typeof sandbox>) => void) => refusedWith(serve, message, setup);
  const file = binaryName(HOST_PLATFORM);

  test("a corrupted binary", () => refused({ corrupt: file }, /checksum mismatch for ws-.*nothing installed/), 120_000);
  test("a partial download (the binary cut short)", () => refused({ truncate: file }, /checksum mismatch/), 120_000);
  test("a missing binary", () => refused({ missing: file }, `could not download`), 120_000);
  test("a missing SHA256SUMS", () => refused({ missing: "SHA256SUMS" }, `could not download`), 120_000);
  test("an unknown OS", () => refused({}, "no ws build for FreeBSD", (b) => b.fake("uname", 'case "$1" in -s) echo FreeBSD ;; *) echo amd64 ;; esac')), 120_000);
  test("an unknown CPU", () => refused({}, "no ws build for linux on riscv64", (b) => b.fake("uname", 'case "$1" in -s) echo Linux ;; *) echo riscv64 ;; esac')), 120_000);
  test("musl libc", () => refused({}, "no ws build for musl libc", (b) => {
    b.fake("uname", 'case "$1" in -s) echo Linux ;; *) echo x86_64 ;; esac');
    b.fake("ldd", 'echo "musl libc (x86_64)" >&2; exit 1');
  }), 120_000);
});

test("a Mac running the shell under Rosetta gets the arm64 build", () => {
  const box = sandbox();
  box.fake("uname", 'case "$1" in -s) echo Darwin ;; *) echo x86_64 ;; esac');
  box.fake("sysctl", '[ "$2" = sysctl.proc_translated ] && echo 1');
  // The download fails on purpose (nothing serves it): the message names the file chosen.
  const p = Bun.spawnSync(["sh", SCRIPT, "--base", "https://127.0.0.1:9"], { env: { PATH: `${box.fakes}:/usr/bin:/bin`, HOME: box.home, TMPDIR: box.tmp } });
  expect(p.stdout.toString()).toContain("downloading https://127.0.0.1:9/ws-darwin-arm64");
  expect(p.exitCode).toBe(1);
  expect(tree(box.home)).toEqual([]);
});

test("install-release.sh passes sh -n and shellcheck", () => {
  expect(Bun.spawnSync(["sh", "-n", SCRIPT]).exitCode).toBe(0);
  if (!Bun.which("shellcheck")) {
    console.warn("shellcheck is not installed: skipped (apt-get install shellcheck)");
    return;
  }
  const r = Bun.spawnSync(["shellcheck", "--shell=sh", SCRIPT]);
  expect(r.stdout.toString()).toBe("");
  expect(r.exitCode).toBe(0);
});

/** A stand-in "ws" that answers --version as the release's binary does and leaves a mark when run. */
const impostor = (mark: string) => `#!/bin/sh\ntouch '${mark}'\necho '${release.manifest.version} (${release.manifest.build})'\n`;

describe("what the install trusts", () => {
  const file = binaryName(HOST_PLATFORM);

  test("a tampered binary with a SHA256SUMS to match is refused when the signature is bad or absent; it never runs", async () => {
    const mark = join(scratch, "impostor-ran");
    const fake = impostor(mark);
    const sums = readFileSync(join(release.dir, CHECKSUMS), "utf8").replace(new RegExp(`^[0-9a-f]{64}(?=  ${file}$)`, "m"), createHash("sha256").update(fake).digest("hex"));
    await refusedWith({ replace: { [file]: fake, [CHECKSUMS]: sums } }, /the signature of https:\/\/127\.0\.0\.1:\d+\/SHA256SUMS does not verify with the ws release key.*nothing installed/);
    await refusedWith({ replace: { [file]: fake, [CHECKSUMS]: sums }, missing: SIGNATURE }, /could not download .*SHA256SUMS\.sig, the release's signature; nothing installed/);
    expect(existsSync(mark)).toBe(false);
  }, 120_000);

  test("without OpenSSL 3 it says plainly that it checked only the sums", async () => {
    const box = sandbox();
    box.fake("openssl", 'echo "LibreSSL 3.3.6"');
    const r = await curlInstall(box, ["--no-completions"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("warning: no OpenSSL 3 here (openssl pkeyutl -rawin), so the release's signature can't be checked: the binary is checked only against SHA256SUMS, which comes from the same place");
    expect(r.stdout).not.toContain("is signed by");
  }, 120_000);

  test("an http base is refused before anything is downloaded; so is anything but https", async () => {
    const plain = serveRelease(release.dir, { http: true });
    try {
      await refusedWith({}, `refusing ${plain.url}: a release is downloaded over https only (a local file:// or http://127.0.0.1 release is for tests: WS_TEST_LOCAL_RELEASE=1)`, undefined, ["--base", plain.url]);
      await refusedWith({}, "refusing http://example.invalid/r: a release is downloaded over https only (https://…)", undefined, ["--base", "http://example.invalid/r"]);
      await refusedWith({}, "refusing ftp://127.0.0.1/r", undefined, ["--base", "ftp://127.0.0.1/r"]);
      await refusedWith({}, `refusing file://${release.dir}`, undefined, ["--base", `file://${release.dir}`]);
      expect(plain.requests).toEqual([]);
    } finally {
      plain.stop();
    }
  }, 120_000);

  test("a redirect to http is refused (curl --proto-redir =https); one to https is followed", async () => {
    const plain = serveRelease(release.dir, { http: true });
    const other = serveRelease(release.dir);
    try {
      await refusedWith({ redirect: { [file]: `${plain.url}/${file}` } }, `could not download https://127.0.0.1:`);
      await refusedWith({ redirect: { [CHECKSUMS]: `${plain.url}/${CHECKSUMS}` } }, "could not download");
      expect(plain.requests).toEqual([]);
      const box = sandbox();
      const r = await curlInstall(box, ["--no-completions"], { redirect: { [file]: `${other.url}/${file}` } });
      expect({ code: r.code, err: r.stderr }).toEqual({ code: 0, err: "" });
      expect(other.requests).toEqual([file]);
    } finally {
      plain.stop();
      other.stop();
    }
  }, 120_000);

  test("curl is asked for https only, TLS 1.2 or newer, no redirect to anything else and a size bound, for every download", async () => {
    const box = sandbox();
    const log = join(box.root, "curl-args");
    box.fake("curl", `printf '%s\\n' "$*" >> '${log}'\nexec '${Bun.which("curl")}' "$@"`);
    const r = await curlInstall(box, ["--no-completions"]);
    expect(r.code).toBe(0);
    // The first line is the test's own `curl … | sh`; then the script's three downloads.
    const calls = readFileSync(log, "utf8").trim().split("\n").slice(1);
    expect(calls.map((c) => c.split(" ").at(-1)!.replace(/^.*\//, ""))).toEqual([CHECKSUMS, SIGNATURE, file]);
    for (const c of calls) expect(c).toMatch(/--proto =https --proto-redir =https --tlsv1\.2 --max-filesize \d+ /);
  }, 120_000);

  test("an endless SHA256SUMS, or one too big, is cut off at 64 KiB, not written to disk whole", async () => {
    const r = await refusedWith({ endless: CHECKSUMS }, /SHA256SUMS is larger than 65536 bytes: not a ws release file; nothing installed/);
    expect(r.code).toBe(1);
    await refusedWith({ endless: SIGNATURE }, /SHA256SUMS\.sig is larger than 1024 bytes/);
    await refusedWith({ replace: { [CHECKSUMS]: Buffer.alloc(70_000, 0x61) } }, /could not download .*SHA256SUMS|SHA256SUMS is larger than 65536 bytes/);
  }, 120_000);

  test("a local release (loopback http, file://) installs only with WS_TEST_LOCAL_RELEASE=1, and its signature is checked all the same", async () => {
    const plain = serveRelease(release.dir, { http: true });
    try {
      for (const base of [plain.url, `file://${release.dir}`]) {
        const box = sandbox();
        const r = await curlInstall(box, ["--no-completions", "--base", base], {}, { WS_TEST_LOCAL_RELEASE: "1" });
        expect({ base, code: r.code, err: r.stderr }).toEqual({ base, code: 0, err: "" });
        expect(r.stdout).toContain("SHA256SUMS is signed by the ws release key");
        expect(tree(join(box.home, ".local"))).toEqual(["bin/ws", "share/man/man1/ws.1"]);
      }
      const copy = join(scratch, "unsigned-copy");
      mkdirSync(copy, { recursive: true });
      for (const f of readdirSync(release.dir)) if (f !== SIGNATURE && !f.startsWith(".") && f !== "older") copyFileSync(join(release.dir, f), join(copy, f));
      await refusedWith({}, "SHA256SUMS.sig, the release's signature", undefined, ["--base", `file://${copy}`], { WS_TEST_LOCAL_RELEASE: "1" });
    } finally {
      plain.stop();
    }
  }, 120_000);
});

describe("./install.sh (the source install)", () => {
  const INSTALL = join(ROOT, "install.sh");

  test("outside a checkout it downloads nothing and points at the release's checked install.sh", () => {
    const box = sandbox();
    const lone = join(box.root, "lone");
    mkdirSync(lone);
    copyFileSync(INSTALL, join(lone, "install.sh"));
    const p = Bun.spawnSync(["bash", join(lone, "install.sh")], { env: { PATH: "/usr/bin:/bin", HOME: box.home, WS_RELEASE_URL: "https://127.0.0.1:9/x" } });
    expect(p.exitCode).toBe(1);
    expect(p.stdout.toString()).toContain("this is not a ws checkout: to install a released ws, run the release's own install.sh");
    expect(tree(box.home)).toEqual([]);
  });

  test("with WS_RELEASE_URL it goes through the checked installer: http refused, and a release not signed by the project's key refused", async () => {
    const plain = serveRelease(release.dir, { http: true });
    const server = serveRelease(release.dir);
    try {
      for (const [url, says] of [
        [plain.url, "a release is downloaded over https only"],
        // The checkout's installer trusts the project's key, not the tests' one.
        [server.url, "does not verify with the ws release key"],
      ]) {
        const box = sandbox();
        const p = Bun.spawn(["bash", INSTALL, "--prefix", join(box.root, "p")], { env: { PATH: "/usr/bin:/bin", HOME: box.home, TMPDIR: box.tmp, WS_RELEASE_URL: url!, ...testTls().env }, stdout: "pipe", stderr: "pipe" });
        const [stderr, code] = await Promise.all([new Response(p.stderr).text(), p.exited]);
        expect({ url, code }).toEqual({ url, code: 1 });
        expect(stderr).toContain(says!);
        expect(tree(join(box.root, "p"))).toEqual([]);
        expect(tree(box.tmp)).toEqual([]);
      }
      expect(plain.requests).toEqual([]);
      expect(server.requests).toEqual([CHECKSUMS, SIGNATURE]);
    } finally {
      plain.stop();
      server.stop();
    }
  }, 120_000);
});
