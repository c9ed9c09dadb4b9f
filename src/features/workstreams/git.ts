// Running git (and gh) for workstreams: argv arrays through Bun.spawn, never a shell string, never
// synchronously (the daemon serves everyone else meanwhile). Output is bounded; a command that
// hangs is stopped after its time.
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

/** Run a program; never throws for its exit status (a missing program is code 127). */
export async function run(argv: string[], o: { cwd: string; env?: Record<string, string | undefined>; timeoutMs?: number; stdin?: string }): Promise<Ran> {
  let proc: Bun.Subprocess<"pipe" | "ignore", "pipe", "pipe">;
  try {
    proc = Bun.spawn(argv, {
      cwd: o.cwd,
      env: { ...process.env, GIT_TERMINAL_PROMPT: "0", GH_PROMPT_DISABLED: "1", ...o.env },
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

export const git = (cwd: string, args: string[], o: { timeoutMs?: number } = {}) => run(["git", ...args], { cwd, ...o });

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
