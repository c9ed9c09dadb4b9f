// `bun run release`: every platform's binary, install.sh, manifest.json, SHA256SUMS and its
// signature, with the hashes agreeing, one version and build id in every binary, each file the
// right format, and the signature verifying with the key the binaries and install.sh trust.
import { expect, test } from "bun:test";
import { createHash, generateKeyPairSync } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildId, packageVersion } from "../scripts/compile";
import { binaryName, checksumFor, CHECKSUMS, INSTALLER, MANIFEST, PROJECT_RELEASE_KEY, RELEASE_KEY, RELEASE_PLATFORMS, SIGNATURE, signWith, verifySignature } from "../src/cli/release-files";
import { ROOT } from "./harness";
import { HOST_PLATFORM, TEST_DEFAULT_BASE, testRelease } from "./release-rig";

const sha256 = (data: Uint8Array) => createHash("sha256").update(data).digest("hex");

/** The executable format and CPU a file's header names. */
function header(data: Buffer): string {
  if (data.readUInt32BE(0) === 0x7f454c46) {
    const machine = data.readUInt16LE(18); // e_machine (little-endian ELF64)
    return `elf-${machine === 0x3e ? "x64" : machine === 0xb7 ? "arm64" : machine}`;
  }
  if (data.readUInt32LE(0) === 0xfeedfacf) {
    const cpu = data.readInt32LE(4);
    return `macho-${cpu === 0x01000007 ? "x64" : cpu === 0x0100000c ? "arm64" : cpu}`;
  }
  return "unknown";
}

/** A Mach-O's load commands include a code signature (macOS on arm64 runs nothing unsigned). */
function machoSigned(data: Buffer): boolean {
  const count = data.readUInt32LE(16);
  let off = 32;
  for (let i = 0; i < count; i++, off += data.readUInt32LE(off + 4)) if (data.readUInt32LE(off) === 0x1d) return true;
  return false;
}

test("the release directory holds every platform's binary, install.sh, SHA256SUMS and a manifest that agree", async () => {
  const { dir, manifest } = await testRelease();
  const build = buildId();
  expect(manifest.version).toBe(packageVersion());
  expect(manifest.build).toBe(build);
  const names = [...RELEASE_PLATFORMS.map(binaryName), INSTALLER];
  expect(manifest.files.map((f) => f.name).sort()).toEqual([...names].sort());
  expect(readdirSync(dir).filter((n) => !n.startsWith(".") && n !== "older").sort()).toEqual([...names, CHECKSUMS, SIGNATURE, MANIFEST].sort());
  const sums = readFileSync(join(dir, CHECKSUMS), "utf8");
  // Every file, and the manifest, so the version self-update reads is signed too.
  expect(sums.trim().split("\n")).toHaveLength(names.length + 1);
  expect(checksumFor(sums, MANIFEST)).toBe(sha256(readFileSync(join(dir, MANIFEST))));
  for (const f of manifest.files) {
    const data = readFileSync(join(dir, f.name));
    expect(data.length).toBe(f.size);
    expect(sha256(data)).toBe(f.sha256);
    expect(checksumFor(sums, f.name)).toBe(f.sha256);
    if (!f.platform) continue;
    const [os, arch] = f.platform.split("-");
    expect(header(data)).toBe(`${os === "linux" ? "elf" : "macho"}-${arch}`);
    if (os === "darwin") expect(machoSigned(data)).toBe(true);
    // The same version and build id is compiled into every binary (defined as string constants).
    expect(data.includes(`"${manifest.version}"`) || data.includes(`'${manifest.version}'`)).toBe(true);
    expect(data.includes(build)).toBe(true);
  }
}, 240_000);

test("this machine's binary runs and reports the manifest's version and build id", async () => {
  const { dir, manifest } = await testRelease();
  const p = Bun.spawnSync([join(dir, binaryName(HOST_PLATFORM)), "--version"], { env: { PATH: "/usr/bin:/bin", HOME: dir } });
  expect(p.stderr.toString()).toBe("");
  expect(p.stdout.toString().trim()).toBe(`${manifest.version} (${manifest.build})`);
}, 240_000);

test("the shipped install.sh is the repository's script with only its base URL line (and here, the tests' key) rewritten", async () => {
  const { dir, key } = await testRelease();
  const shipped = readFileSync(join(dir, INSTALLER), "utf8").split("\n");
  const source = readFileSync(join(import.meta.dir, "../scripts/install-release.sh"), "utf8").split("\n");
  expect(shipped.length).toBe(source.length);
  const differing = source.map((line, i) => (line === shipped[i] ? -1 : i)).filter((i) => i >= 0);
  expect(differing.map((i) => shipped[i])).toEqual([`DEFAULT_BASE='${TEST_DEFAULT_BASE}'`, `RELEASE_KEY='${key.publicKey}'`]);
  // The binaries carry it too, as self-update's default.
  expect(readFileSync(join(dir, binaryName(HOST_PLATFORM))).includes(TEST_DEFAULT_BASE)).toBe(true);
}, 240_000);

test("the GitHub workflows run scripts that exist, with the Bun this project pins", () => {
  const root = join(import.meta.dir, "..");
  const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
  for (const file of ["ci.yml", "release.yml"]) {
    const text = readFileSync(join(root, ".github/workflows", file), "utf8");
    for (const [, script] of text.matchAll(/bun run ([a-z-]+)/g)) expect(pkg.scripts[script!], `${file}: bun run ${script}`).toBeDefined();
    for (const [, version] of text.matchAll(/bun-version: (\S+)/g)) expect(version).toBe(pkg.devDependencies["@types/bun"]);
  }
  const workflow = readFileSync(join(root, ".github/workflows/release.yml"), "utf8");
  expect(workflow).toContain("sha256sum -c SHA256SUMS");
  expect(workflow).toContain("bun run release --sign-key");
  expect(workflow).toContain("openssl pkeyutl -verify");
});

test("SHA256SUMS.sig is the Ed25519 signature of SHA256SUMS by the key the release's binaries and install.sh trust; openssl agrees", async () => {
  const { dir, key } = await testRelease();
  const sums = readFileSync(join(dir, CHECKSUMS));
  const sig = readFileSync(join(dir, SIGNATURE));
  expect(sig.length).toBe(64);
  expect(verifySignature(sums, sig, key.publicKey)).toBe(true);
  expect(verifySignature(Buffer.concat([sums, Buffer.from("\n")]), sig, key.publicKey)).toBe(false);
  // Not the project's key: a test release is no release anyone else trusts.
  expect(verifySignature(sums, sig, PROJECT_RELEASE_KEY)).toBe(false);
  for (const f of readdirSync(dir).filter((n) => n.startsWith("ws-"))) {
    const data = readFileSync(join(dir, f));
    expect({ f, test: data.includes(key.publicKey) }).toEqual({ f, test: true });
  }
  const scratch = mkdtempSync(join(tmpdir(), "ws-release-sig-"));
  try {
    writeFileSync(join(scratch, "key.pem"), `-----BEGIN PUBLIC KEY-----\n${key.publicKey}\n-----END PUBLIC KEY-----\n`);
    const verified = Bun.spawnSync(["openssl", "pkeyutl", "-verify", "-pubin", "-inkey", join(scratch, "key.pem"), "-rawin", "-in", join(dir, CHECKSUMS), "-sigfile", join(dir, SIGNATURE)]);
    expect(verified.stdout.toString()).toContain("Signature Verified Successfully");
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}, 240_000);

test("the project's release key is what ws and the repository's install.sh trust by default; signing with any other key is refused; a release needs --sign-key", () => {
  expect(RELEASE_KEY).toBe(PROJECT_RELEASE_KEY);
  expect(readFileSync(join(ROOT, "scripts/install-release.sh"), "utf8")).toContain(`\nRELEASE_KEY='${PROJECT_RELEASE_KEY}'\n`);
  const other = generateKeyPairSync("ed25519").privateKey.export({ type: "pkcs8", format: "pem" }) as string;
  expect(() => signWith(Buffer.from("x"), other)).toThrow("is not the release key the binaries and install.sh trust");
  const rsa = generateKeyPairSync("rsa", { modulusLength: 1024 }).privateKey.export({ type: "pkcs8", format: "pem" }) as string;
  expect(() => signWith(Buffer.from("x"), rsa)).toThrow("not Ed25519");
  const bare = Bun.spawnSync([process.execPath, join(ROOT, "scripts/release.ts"), "--out", join(tmpdir(), "ws-release-never")], { stderr: "pipe" });
  expect(bare.exitCode).toBe(1);
  expect(bare.stderr.toString()).toContain("give --sign-key FILE");
});
