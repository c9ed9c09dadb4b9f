// Reaching another machine's ws through OpenSSH: the ssh command line (the user's ssh, or
// WS_SSH_COMMAND), one master connection per host, the remote command that finds ws there, and
// opening a bridge: `ssh -T HOST ws proxy …`, whose first line (the preamble) says which protocol
// versions the remote ws speaks or why it could not reach its server.
import { mkdirSync } from "node:fs";
import { BUILD } from "../build-info";
import { ConnectionFailure } from "../client/connect";
import { NoServer } from "../client/stream";
import { checkSocketPath, socketDirProblem, socketPathProblem } from "../platform/socket-check";
import { joinPath, sanitizeName, socketDir } from "../paths";
import { MIN_VERSION, VERSION } from "../protocol/version";

/** What `ws proxy` writes first, one JSON line. */
export interface Preamble {
  ws_proxy: 1;
  min: number;
  max: number;
  build: string;
  /** Set when the proxy could not reach its server; `code` "no_server" when none runs. */
  error?: string;
  code?: string;
}

/** The exit status (and stderr line) of the remote command when it finds no ws. */
export const NOT_INSTALLED_EXIT = 127;
const NOT_INSTALLED_MARK = "ws-proxy: no ws";

/**
 * The command ssh runs on HOST, from constant strings only: look for ws on PATH, then at
 * ~/.local/bin/ws (where install.sh and `ws remote install` put it), and run it with `args`.
 * `args` are flags and a sanitised socket name, so no word needs quoting.
 */
export function remoteCommand(args: string[]): string {
  for (const a of args) if (!/^[A-Za-z0-9_-]+$/.test(a)) throw new Error(`unsafe remote argument ${JSON.stringify(a)}`);
  const script = `w=$(command -v ws 2>/dev/null) || w="$HOME/.local/bin/ws"; [ -x "$w" ] || { echo "${NOT_INSTALLED_MARK}" >&2; exit ${NOT_INSTALLED_EXIT}; }; exec "$w" "$@"`;
  return ["sh", "-c", `'${script}'`, "ws", ...args].join(" ");
}

/** The ssh program and its options: WS_SSH_COMMAND split on whitespace (no shell), else `ssh`. */
export function sshProgram(env = process.env): string[] {
  const words = (env.WS_SSH_COMMAND ?? "").trim().split(/\s+/).filter(Boolean);
  return words.length ? words : ["ssh"];
}

/** The private directory `dir` (0700, ours), made when missing; a failure when it is unsafe. */
function privateDir(dir: string): string {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const problem = socketDirProblem(dir, { private: true });
  if (problem) throw new ConnectionFailure(problem.replace("socket directory", "ssh control directory"));
  return dir;
}

/** The private directory for ssh's master sockets, beside ws's own sockets (0700, ours). */
export function controlDir(): string {
  const base = socketDir();
  mkdirSync(base, { recursive: true, mode: 0o700 });
  const problem = socketDirProblem(base, { private: true });
  if (problem) throw new ConnectionFailure(problem.replace("socket directory", "ssh control directory"));
  return privateDir(joinPath(base, "ssh"));
}

/** ssh binds its master at ControlPath plus "." and 16 random characters, then renames it. */
const SSH_TEMP_SUFFIX = 17;
/** The hashed name's length (hex): 80 bits, as short as a name can be without colliding. */
const HASH_CHARS = 20;

/**
 * The master socket for `host`: a short hash of the host and the ssh command (as OpenSSH's `%C`
 * hashes the connection), in controlDir(), or in /tmp/ws-ssh-UID when that directory is too deep
 * for a socket (a long XDG_RUNTIME_DIR, macOS's TMPDIR): past the limit every call would fail.
 */
export function controlPath(host: string, env = process.env): string {
  const hash = new Bun.CryptoHasher("sha256").update(JSON.stringify([sshProgram(env), host])).digest("hex").slice(0, HASH_CHARS);
  // What ssh binds: the path and its temporary suffix.
  const bound = (path: string) => path + ".".repeat(SSH_TEMP_SUFFIX);
  const inControlDir = `${controlDir()}/${hash}`;
  if (!socketPathProblem(bound(inControlDir))) return inControlDir;
  const short = `${privateDir(`/tmp/ws-ssh-${process.getuid!()}`)}/${hash}`;
  checkSocketPath(bound(short));
  return short;
}

/** A pipe write's failure (ssh gone) may arrive later, in a promise: the stream's end reports it instead. */
export function quietly(result: unknown): void {
  if (result instanceof Promise) result.catch(() => {});
}

/** Refuse a host that ssh would read as an option. */
export function checkHost(host: string): void {
  if (!host || host.startsWith("-") || /[\s\x00-\x1f]/.test(host)) throw new ConnectionFailure(`not a host name: ${JSON.stringify(host)}`);
}

/** The full ssh argv for running `remote` (a remoteCommand) on `host`. */
export function sshArgv(host: string, remote: string, opts: { master?: boolean } = {}): string[] {
  checkHost(host);
  const master = opts.master === false ? [] : ["-o", "ControlMaster=auto", "-o", `ControlPath=${controlPath(host)}`, "-o", "ControlPersist=10m"];
  return [...sshProgram(), "-T", ...master, "-o", "BatchMode=yes", "-o", "ServerAliveInterval=15", "-o", "ServerAliveCountMax=3", "-o", "ConnectTimeout=15", "--", host, remote];
}

/** `ws proxy` arguments for a socket name and the call's needs. */
export function proxyArgs(opts: { name?: string; start?: boolean; exec?: boolean }): string[] {
  return ["proxy", ...(opts.name !== undefined ? ["-L", sanitizeName(opts.name)] : []), ...(opts.start ? ["--start"] : []), ...(opts.exec ? ["--exec"] : [])];
}

/** ssh's stderr, kept short: the last few lines (it can be long, and it is another program's text). */
export function lastLines(text: string, n = 4): string {
  return text.trim().split("\n").slice(-n).join("\n").slice(-2000);
}

/** Why ssh ended before the remote ws answered, for people. */
export function sshFailure(host: string, code: number | null, stderr: string): Error {
  if (code === NOT_INSTALLED_EXIT && stderr.includes(NOT_INSTALLED_MARK))
    return new ConnectionFailure(`ws is not installed on ${host} (looked on PATH and at ~/.local/bin/ws). Install it with \`ws remote install ${host}\`.`);
  const said = lastLines(stderr.replace(NOT_INSTALLED_MARK, ""));
  if (code === 255 || code === null) return new ConnectionFailure(`ssh to ${host} failed${said ? `: ${said}` : code === null ? " (ssh was killed)" : ""}`);
  return new ConnectionFailure(`ws proxy on ${host} exited ${code}${said ? `: ${said}` : ""}`);
}

/** Check a preamble line; the parsed preamble, or a failure naming the host. */
export function checkPreamble(host: string, line: string): Preamble {
  let p: Preamble | undefined;
  try {
    p = JSON.parse(line);
  } catch {}
  if (p?.ws_proxy !== 1 || typeof p.min !== "number" || typeof p.max !== "number")
    throw new ConnectionFailure(`${host}'s ws did not answer as a ws proxy (it said ${JSON.stringify(line.slice(0, 200))}); it may be too old: \`ws remote install ${host}\``);
  if (p.max < MIN_VERSION || p.min > VERSION)
    throw new ConnectionFailure(
      `${host}'s ws speaks protocol ${p.min}..${p.max} (build ${p.build}); this ws speaks ${MIN_VERSION}..${VERSION} (build ${BUILD}). Install a matching ws there: \`ws remote install ${host}\``,
    );
  if (p.error) throw p.code === "no_server" ? new NoServer(`no ws server on ${host} (${p.error})`) : new ConnectionFailure(`ws on ${host}: ${p.error}`);
  return p;
}

/** The longest preamble line taken from the far side. */
const PREAMBLE_MAX = 64 * 1024;

export interface Bridge {
  proc: Bun.Subprocess<"pipe", "pipe", "pipe">;
  preamble: Preamble;
  /** Bytes that came after the preamble line, already read. */
  rest: Uint8Array;
  reader: ReadableStreamDefaultReader<Uint8Array>;
  /** ssh's stderr so far (bounded). */
  stderr: () => string;
  /** From now on, also hand each piece of stderr to `fn` (ws proxy --exec: the remote command's messages). */
  forwardStderr: (fn: (chunk: Uint8Array) => void) => void;
  /** Settles when ssh's stderr has ended: all its last words are in. */
  stderrDone: Promise<void>;
}

/** Keep the last `max` characters of a stream (ssh's stderr) without ever holding more. */
function tailOf(stream: ReadableStream<Uint8Array>, max = 8192): Pick<Bridge, "stderr" | "forwardStderr" | "stderrDone"> {
  let text = "";
  let forward: ((chunk: Uint8Array) => void) | undefined;
  const dec = new TextDecoder();
  const stderrDone = (async () => {
    for await (const chunk of stream) {
      text = (text + dec.decode(chunk, { stream: true })).slice(-max);
      forward?.(chunk);
    }
  })().catch(() => {});
  return { stderr: () => text, forwardStderr: (fn) => (forward = fn), stderrDone };
}

/** ssh's stderr once it has ended, or after `ms` at most (a child may hold it open). */
export async function settledStderr(b: Pick<Bridge, "stderr" | "stderrDone">, ms = 1000): Promise<string> {
  await Promise.race([b.stderrDone, Bun.sleep(ms)]);
  return b.stderr();
}

/**
 * Run `ws proxy` on `host` and read its preamble (within `timeoutMs`). Rejects with a failure
 * naming the host: ssh's own message, ws missing there, a protocol out of range, no server.
 */
export async function openBridge(host: string, opts: { name?: string; start?: boolean; exec?: boolean; timeoutMs?: number } = {}): Promise<Bridge> {
  const proc = Bun.spawn(sshArgv(host, remoteCommand(proxyArgs(opts))), { stdin: "pipe", stdout: "pipe", stderr: "pipe" });
  const tail = tailOf(proc.stderr);
  const reader = proc.stdout.getReader();
  const timeoutMs = opts.timeoutMs ?? 30_000;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timedOut = new Promise<"timeout">((resolve) => (timer = setTimeout(() => resolve("timeout"), timeoutMs)));
  // The preamble line: only new bytes are searched, and at most PREAMBLE_MAX held.
  const held: Uint8Array[] = [];
  let heldBytes = 0;
  try {
    for (;;) {
      const r = await Promise.race([reader.read(), timedOut]);
      if (r === "timeout") throw new ConnectionFailure(`no answer from ${host} within ${Math.round(timeoutMs / 1000)} s (ssh ${host} ws proxy)`);
      if (r.done) {
        const code = await Promise.race([proc.exited, Bun.sleep(2000).then(() => null)]);
        throw sshFailure(host, code ?? null, await settledStderr(tail));
      }
      const nl = r.value.indexOf(0x0a);
      if (nl < 0 || heldBytes + nl > PREAMBLE_MAX) {
        held.push(r.value);
        heldBytes += r.value.length;
        if (heldBytes > PREAMBLE_MAX) throw new ConnectionFailure(`${host}'s ws did not answer as a ws proxy (no preamble line in its first ${PREAMBLE_MAX / 1024} KiB)`);
        continue;
      }
      const line = new TextDecoder().decode(Buffer.concat([...held, r.value.subarray(0, nl)]));
      const preamble = checkPreamble(host, line);
      return { proc, preamble, rest: r.value.subarray(nl + 1), reader, ...tail };
    }
  } catch (e) {
    try {
      proc.kill();
    } catch {}
    throw e;
  } finally {
    clearTimeout(timer);
  }
}
