// What a release directory holds and how its files are named: shared by the release script
// (scripts/release.ts), its tests and `ws self-update`.

/** The platforms released, as `<os>-<arch>` in the file names (Bun's names: linux/darwin, x64/arm64). */
export const RELEASE_PLATFORMS = ["linux-x64", "linux-arm64", "darwin-x64", "darwin-arm64"] as const;
export type ReleasePlatform = (typeof RELEASE_PLATFORMS)[number];

export const binaryName = (platform: string) => `ws-${platform}`;
export const CHECKSUMS = "SHA256SUMS";
export const MANIFEST = "manifest.json";
export const INSTALLER = "install.sh";

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
