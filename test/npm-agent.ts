// An agent CLI from npm (the real package) installed into a temporary prefix for the tests that
// drive it, reused between runs: the packages are large. Undefined when ready, else why not (the
// test then skips with that message).
import { existsSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface NpmAgent {
  /** The executable, once installed. */
  bin: string;
  /** Installs it if needed: undefined when it runs here, else why not. */
  install(): Promise<string | undefined>;
}

export function npmAgent(pkg: string, binName: string, prefixName: string): NpmAgent {
  const prefix = join(tmpdir(), prefixName);
  const bin = join(prefix, "node_modules", ".bin", binName);
  return {
    bin,
    async install() {
      if (!existsSync(bin)) {
        const npm = Bun.which("npm");
        if (!npm) return "npm is not installed";
        mkdirSync(prefix, { recursive: true });
        const p = Bun.spawn([npm, "install", "--prefix", prefix, "--no-audit", "--no-fund", pkg], { stdout: "ignore", stderr: "pipe" });
        const timer = setTimeout(() => p.kill(), 240_000);
        const [err, code] = await Promise.all([new Response(p.stderr).text(), p.exited]);
        clearTimeout(timer);
        if (code !== 0 || !existsSync(bin)) return `npm install ${pkg} failed (${code}): ${err.trim().split("\n").slice(-2).join(" ")}`;
      }
      const v = Bun.spawnSync([bin, "--version"], { stdout: "pipe", stderr: "pipe" });
      return v.exitCode === 0 ? undefined : `the installed ${binName} does not run here: ${v.stderr.toString().trim().split("\n").slice(-1)[0]}`;
    },
  };
}
