// Which implementation answers ws's questions to the operating system (a process's cwd, its
// terminal's foreground process group, its argv, the ports a process tree listens on):
// "linux" reads /proc; "portable" asks what every Unix has (ps, lsof), as on macOS and the BSDs.
// WS_PLATFORM=portable forces the portable path on Linux, so its tests run here
// (test/platform-portable.test.ts). Read on each call: cheap, and a test can switch it.
export type PlatformKind = "linux" | "portable";

export function platformKind(env: Record<string, string | undefined> = process.env): PlatformKind {
  if (env.WS_PLATFORM === "portable") return "portable";
  return process.platform === "linux" ? "linux" : "portable";
}
