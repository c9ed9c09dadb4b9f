// Running git (and gh) for workstreams: argv arrays through Bun.spawn, never a shell string, never
// synchronously (the daemon serves everyone else meanwhile). Output is bounded; a command that
// hangs is stopped after its time. ws's own git runs no program the repository names: no hooks
// (an agent can set core.hooksPath in its worktree), no fsmonitor, and no GIT_* variable from the
// environment ws was started in (a daemon started from a pane has the pane's). Names that came
// from a repo, a PR or a person go after --end-of-options, and one starting with "-" is refused
// before git runs (optionName). docs/security.md, "Workstreams".
import { WsError } from "../../protocol/errors";

export interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

/** Output kept per stream: enough for any answer we parse, bounded against a runaway program. */
const MAX_OUTPUT = 4 * 1024 * 1024;
const DEFAULT_TIMEOUT_MS = 120_000;

async function readBounded(stream: ReadableStream<Uint8Array>): Promise<string> {
  const dec = new TextDecoder();
  let out = "";
  for await (const chunk of stream) if (out.length < MAX_OUTPUT) out += dec.decode(chunk, { stream: true });
  return out.slice(0, MAX_OUTPUT);
}

interface RunOptions {
  cwd: string;
  env?: Record<string, string | undefined>;
  timeoutMs?: number;
  stdin?: string;
  /** Leave out every GIT_* variable of this process's environment (o.env's are kept). */
  noGitEnv?: boolean;
}

/** This process's environment, without GIT_* when asked. */
function baseEnv(noGitEnv: boolean | undefined): Record<string, string | undefined> {
  if (!noGitEnv) return process.env;
  return Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("GIT_")));
}

/** Run a program; never throws for its exit status (a missing program is code 127). */
export async function run(argv: string[], o: RunOptions): Promise<Ran> {
  let proc: Bun.Subprocess<"pipe" | "ignore", "pipe", "pipe">;
  try {
    proc = Bun.spawn(argv, {
      cwd: o.cwd,
      env: { ...baseEnv(o.noGitEnv), GIT_TERMINAL_PROMPT: "0", GH_PROMPT_DISABLED: "1", ...o.env },
      stdin: o.stdin !== undefined ? new Blob([o.stdin]) : "ignore",
      stdout: "pipe",
      stderr: "pipe",
    }) as Bun.Subprocess<"pipe" | "ignore", "pipe", "pipe">;
  } catch (e) {
    return { code: 127, stdout: "", stderr: `${argv[0]}: ${(e as Error).message}` };
  }
  const timer = setTimeout(() => proc.kill("SIGKILL"), o.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  try {
    const [stdout, stderr, code] = await Promise.all([readBounded(proc.stdout), readBounded(proc.stderr), proc.exited]);
    return { code, stdout, stderr };
  } finally {
    clearTimeout(timer);
  }
}

/** The settings every git call of ws's own carries: no hooks, no fsmonitor. */
export const NO_HOOKS = ["-c", "core.hooksPath=/dev/null", "-c", "core.fsmonitor=false"];
/** The same for the git that gh runs (gh pr checkout), through git's GIT_CONFIG_* variables. */
const NO_HOOKS_ENV = { GIT_CONFIG_COUNT: "2", GIT_CONFIG_KEY_0: "core.hooksPath", GIT_CONFIG_VALUE_0: "/dev/null", GIT_CONFIG_KEY_1: "core.fsmonitor", GIT_CONFIG_VALUE_1: "false" };

/** ws's own git: no hooks, no fsmonitor, no GIT_* from this process's environment (o.env's, such as
 * GIT_INDEX_FILE, are ws's own and kept). */
export const git = (cwd: string, args: string[], o: { timeoutMs?: number; env?: Record<string, string>; stdin?: string } = {}) =>
  run(["git", ...NO_HOOKS, ...args], { cwd, noGitEnv: true, ...o });

/** ws's own git twice, the first's output the second's input (binary, never held whole here): a
 * pack made in one repository and indexed into another. The second's result; the first's failure
 * is the second's (an incomplete pack). Both are stopped after the time. */
export async function gitPipe(from: { cwd: string; args: string[]; stdin: string }, to: { cwd: string; args: string[] }, timeoutMs = DEFAULT_TIMEOUT_MS): Promise<Ran> {
  const env = { ...baseEnv(true), GIT_TERMINAL_PROMPT: "0" };
  const a = Bun.spawn(["git", ...NO_HOOKS, ...from.args], { cwd: from.cwd, env, stdin: new Blob([from.stdin]), stdout: "pipe", stderr: "pipe" });
  const b = Bun.spawn(["git", ...NO_HOOKS, ...to.args], { cwd: to.cwd, env, stdin: a.stdout, stdout: "pipe", stderr: "pipe" });
  const timer = setTimeout(() => (a.kill("SIGKILL"), b.kill("SIGKILL")), timeoutMs);
  try {
    const [aErr, stdout, stderr, aCode, code] = await Promise.all([readBounded(a.stderr), readBounded(b.stdout), readBounded(b.stderr), a.exited, b.exited]);
    return aCode !== 0 ? { code: aCode, stdout: "", stderr: aErr } : { code, stdout, stderr };
  } finally {
    clearTimeout(timer);
  }
}

/** gh, with the git it runs held to the same (no hooks, no GIT_* from this environment). */
export const gh = (cwd: string, args: string[], o: { timeoutMs?: number } = {}) => run(["gh", ...args], { cwd, noGitEnv: true, env: NO_HOOKS_ENV, ...o });

/** git as the person runs it (ws ship in their shell commits with their hooks and environment). */
export const userGit = (cwd: string, args: string[], o: { timeoutMs?: number } = {}) => run(["git", ...args], { cwd, ...o });

/** Why `name` (a branch, a remote, a PR's head) can't be handed to git or gh, or undefined: one
 * starting with "-" would read as an option wherever --end-of-options can't go first. */
export function optionName(name: string): string | undefined {
  return name.startsWith("-") ? `starts with "-", so git would read it as an option` : undefined;
}

/** The last line git said, for an error message. */
export function gitSaid(r: Ran): string {
  const lines = (r.stderr || r.stdout).trim().split("\n").filter(Boolean);
  return lines.length ? lines.slice(-3).join("; ").replace(/^(fatal|error): /, "") : `exit status ${r.code}`;
}

/** Run git and return its stdout trimmed; a failure is a `git_failed` error saying what git said. */
export async function gitOk(cwd: string, args: string[], what: string): Promise<string> {
  const r = await git(cwd, args);
  if (r.code !== 0) throw new WsError(`${what}: git ${args[0]} failed: ${gitSaid(r)}`, "git_failed");
  return r.stdout.trim();
}

/** Whether a program is on PATH (gh is optional everywhere). */
export function onPath(program: string): boolean {
  return Bun.which(program) !== null;
}
