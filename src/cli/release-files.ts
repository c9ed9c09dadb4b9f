// What a release directory holds and how its files are named, the key that signs it and the
// bounds on reading it: shared by the release script (scripts/release.ts), its tests and
// `ws self-update`. docs/install.md says what each check stops.
import { createPublicKey, sign, verify } from "node:crypto";

/** The platforms released, as `<os>-<arch>` in the file names (Bun's names: linux/darwin, x64/arm64). */
export const RELEASE_PLATFORMS = ["linux-x64", "linux-arm64", "darwin-x64", "darwin-arm64"] as const;
export type ReleasePlatform = (typeof RELEASE_PLATFORMS)[number];

export const binaryName = (platform: string) => `ws-${platform}`;
export const CHECKSUMS = "SHA256SUMS";
export const MANIFEST = "manifest.json";
export const INSTALLER = "install.sh";
/** SHA256SUMS's Ed25519 signature, the 64 raw bytes (what `openssl pkeyutl -verify -rawin` reads). */
export const SIGNATURE = "SHA256SUMS.sig";

/** The project's release key: the public half of the Ed25519 key that signs SHA256SUMS, as the
 * base64 of its SubjectPublicKeyInfo (a PEM's body). scripts/install-release.sh holds the same
 * line (test/release.test.ts checks it); the private half is never in the repository. */
export const PROJECT_RELEASE_KEY = "MCowBQYDK2VwAyEAhLTR8rfvYA0STtYZQkdITv14sxI3csBtZ8M+307XxNA=";

declare const WS_RELEASE_KEY: string | undefined;
/** The key this ws trusts: the project's, unless a test compiled it with its own (compile.ts's
 * testingReleaseKey; nothing at run time can change it). */
export const RELEASE_KEY: string = typeof WS_RELEASE_KEY === "string" ? WS_RELEASE_KEY : PROJECT_RELEASE_KEY;

/** Bounds on what is read from a release location (docs/limits.md). */
export const MAX_CHECKSUMS_BYTES = 64 * 1024;
export const MAX_SIGNATURE_BYTES = 1024;
export const MAX_MANIFEST_BYTES = 1024 * 1024;
export const MAX_BINARY_BYTES = 512 * 1024 * 1024;

const publicKey = (base64: string) => createPublicKey({ key: Buffer.from(base64, "base64"), format: "der", type: "spki" });

/** Whether `signature` is `key`'s Ed25519 signature of `data` (false for anything malformed). */
export function verifySignature(data: Uint8Array, signature: Uint8Array, key = RELEASE_KEY): boolean {
  try {
    const k = publicKey(key);
    return k.asymmetricKeyType === "ed25519" && verify(null, data, k, signature);
  } catch {
    return false;
  }
}

/** Signs `data` with an Ed25519 private key (PEM), refusing a key whose public half is not
 * `expected`: a release signed with another key would be refused by every ws and install.sh. */
export function signWith(data: Uint8Array, privatePem: string, expected = RELEASE_KEY): Buffer {
  const ownPublic = createPublicKey(privatePem);
  if (ownPublic.asymmetricKeyType !== "ed25519") throw new Error(`the signing key is ${ownPublic.asymmetricKeyType ?? "not a key"}, not Ed25519`);
  const base64 = (ownPublic.export({ type: "spki", format: "der" }) as Buffer).toString("base64");
  if (base64 !== expected) throw new Error(`the signing key's public half (${base64}) is not the release key the binaries and install.sh trust (${expected})`);
  return sign(null, data, privatePem);
}

export interface ManifestFile {
  name: string;
  /** "linux-x64" for a binary; absent for the install script. */
  platform?: string;
  size: number;
  sha256: string;
}

export interface Manifest {
  name: "ws";
  version: string;
  build: string;
  files: ManifestFile[];
}

/** SHA256SUMS as sha256sum writes it: "<hex>  <name>" per line. */
export function formatChecksums(files: readonly ManifestFile[]): string {
  return files.map((f) => `${f.sha256}  ${f.name}\n`).join("");
}

/** The hash SHA256SUMS gives `name`, or undefined. Accepts sha256sum's binary marker ("*name"). */
export function checksumFor(sums: string, name: string): string | undefined {
  for (const line of sums.split("\n")) {
    const m = /^([0-9a-f]{64}) [ *](.+)$/.exec(line.trim());
    if (m && m[2] === name) return m[1];
  }
  return undefined;
}
