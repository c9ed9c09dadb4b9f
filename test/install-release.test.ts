// The curl install (scripts/install-release.sh, shipped as install.sh) against a local HTTP server
// serving the release directory: `curl -fsSL <base>/install.sh | sh`, as a user runs it.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { binaryName, type Manifest } from "../src/release-files";
import { ROOT } from "./harness";
import { HOST_PLATFORM, serveRelease, type ServeOptions, testRelease } from "./release-rig";

const SCRIPT = join(ROOT, "scripts/install-release.sh");
let release: { dir: string; manifest: Manifest };
let scratch: string;

beforeAll(async () => {
  release = await testRelease();
  scratch = mkdtempSync(join(tmpdir(), "ws-install-test-"));
}, 240_000);
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
      env: { PATH: `${box.fakes}:/usr/local/bin:/usr/bin:/bin`, HOME: box.home, TMPDIR: box.tmp, BASE: server.url, WS_INSTALL_BASE: server.url, ...env },
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
    const bin = join(box.home, ".local/bin/ws");
    const v = Bun.spawnSync([bin, "--version"], { env: { PATH: "/usr/bin:/bin", HOME: box.home } });
    expect(v.stdout.toString().trim()).toBe(expectedVersion());
    expect(r.stdout).toContain(`installed ws ${expectedVersion()} at ${bin}`);
    expect(r.stdout).toContain(`export PATH="${join(box.home, ".local/bin")}:$PATH"`);
    expect(tree(join(box.home, ".local"))).toEqual(["bin/ws", "share/bash-completion/completions/ws", "share/fish/vendor_completions.d/ws.fish", "share/zsh/site-functions/_ws"]);
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
    expect(tree(prefix)).toEqual(["bin/ws"]);
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

describe("refusals leave nothing behind", () => {
  const refused = async (serve: ServeOptions, message: string | RegExp, setup?: (box: ReturnType<typeof sandbox>) => void) => {
    const box = sandbox();
    setup?.(box);
    // An older ws already installed stays as it was.
    const bin = join(box.home, ".local/bin");
    mkdirSync(bin, { recursive: true });
    writeFileSync(join(bin, "ws"), "#!/bin/sh\necho old\n");
    const r = await curlInstall(box, [], serve);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(message);
    expect(tree(join(box.home, ".local"))).toEqual(["bin/ws"]);
    expect(Bun.file(join(bin, "ws")).size).toBe("#!/bin/sh\necho old\n".length);
    expect(tree(box.tmp)).toEqual([]);
  };
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
  const p = Bun.spawnSync(["sh", SCRIPT, "--base", "http://127.0.0.1:9"], { env: { PATH: `${box.fakes}:/usr/bin:/bin`, HOME: box.home, TMPDIR: box.tmp } });
  expect(p.stdout.toString()).toContain("downloading http://127.0.0.1:9/ws-darwin-arm64");
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
