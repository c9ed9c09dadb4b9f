// ws proxy (the remote end of ws -H: a stdio bridge to this machine's server) and
// ws remote install HOST (copy this binary to HOST's ~/.local/bin/ws).
import { BUILD, WS_VERSION } from "../build-info";
import type { Socket } from "bun";
import { clientSocketProblem, connectChecked } from "../platform/socket-check";
import { MIN_VERSION, VERSION } from "../protocol/version";
import { CliError, globals, print, printResult, sock, takeGlobals } from "./common";
import type { HandlerInput } from "./handlers";

function preambleLine(extra: Record<string, unknown> = {}): string {
  return JSON.stringify({ ws_proxy: 1, min: MIN_VERSION, max: VERSION, build: BUILD, ...extra }) + "\n";
}

const writeOut = async (text: string): Promise<void> => void (await Bun.write(Bun.stdout, text));

/** One line from stdin (the argv an --exec proxy runs), at most 1 MiB. */
async function readLine(): Promise<string> {
  const reader = Bun.stdin.stream().getReader();
  const dec = new TextDecoder();
  let text = "";
  while (!text.includes("\n")) {
    const r = await reader.read();
    if (r.done) break;
    text += dec.decode(r.value, { stream: true });
    if (text.length > 1024 * 1024) throw new CliError("ws proxy --exec: the command line is too long");
  }
  reader.releaseLock();
  return text.split("\n")[0]!;
}

/**
 * ws proxy [-L NAME] [--start] [--exec]: what `ws -H HOST …` runs on HOST through ssh. Writes the
 * preamble (protocol range, build, or why the server can't be reached), then copies bytes between
 * stdio and the server's socket, both ways, with backpressure, until either side closes.
 * --exec instead runs one CLI command line read from stdin (JSON argv) here, for the commands that
 * work on this machine's files (start, kill-server, doctor, session …).
 */
export async function proxy({ fields, runCli }: HandlerInput): Promise<void> {
  const path = sock();
  if (fields.exec) {
    await writeOut(preambleLine());
    let argv: unknown;
    try {
      argv = JSON.parse(await readLine());
    } catch {}
    if (!Array.isArray(argv) || !argv.every((a) => typeof a === "string")) throw new CliError("ws proxy --exec: expected a JSON array of words on stdin");
    // Read as the CLI reads it: no host flag in any spelling (-H, --host, --host=…, --all-hosts), so
    // it runs here and goes no further; and no proxy.
    const { globals: g, rest } = takeGlobals(argv);
    const words = rest.includes("--") ? rest.slice(0, rest.indexOf("--")) : rest;
    if (g.hosts || g.allHosts || words.includes("proxy")) throw new CliError("ws proxy --exec: that command does not run through a proxy");
    // The command runs here: a WS_HOST in this machine's environment must not send it on again.
    delete process.env.WS_HOST;
    return runCli(argv);
  }
  if (fields.start) {
    try {
      await (await import("./server-cmds")).startDaemon(path);
    } catch (e) {
      return writeOut(preambleLine({ error: (e as Error).message, code: "start_failed" }));
    }
  }
  const problem = clientSocketProblem(path);
  if (problem) return writeOut(preambleLine({ error: `${problem}; nothing was sent`, code: "unsafe_socket" }));
  await bridgeStdio(path);
}

/**
 * Copy bytes between stdio and the server's socket until either side closes. Backpressure both
 * ways: the socket stops being read while stdout has not taken the last chunk, and stdin stops
 * being read while the socket has not taken the last one. (Bun's own sockets and pipes: node:net
 * and process.stdin cost the call ~25 ms to load.)
 */
async function bridgeStdio(path: string): Promise<void> {
  const out = Bun.stdout.writer();
  const { promise: closed, resolve: onClose } = Promise.withResolvers<void>();
  let isClosed = false;
  let drained: (() => void) | undefined;
  const wake = () => {
    const d = drained;
    drained = undefined;
    d?.();
  };
  let sock: Socket<undefined>;
  try {
    sock = await connectChecked(path, {
      open() {
        out.write(preambleLine()); // before any byte of the server's
      },
      data(s, bytes) {
        out.write(bytes);
        const flushed = out.flush();
        if (flushed instanceof Promise) {
          s.pause();
          flushed.then(
            () => s.resume(),
            () => s.end(), // stdout is gone (ssh closed): so is the point of reading
          );
        }
      },
      drain: wake,
      close() {
        isClosed = true;
        wake();
        onClose();
      },
      error() {},
    });
  } catch (e) {
    const code = (e as NodeJS.ErrnoException)?.code;
    const noServer = code === "ENOENT" || code === "ECONNREFUSED";
    return writeOut(preambleLine({ error: `${path}: ${code ?? (e as Error).message}`, code: noServer ? "no_server" : "connect_failed" }));
  }
  (async () => {
    const reader = Bun.stdin.stream().getReader();
    while (!isClosed) {
      const r = await reader.read();
      if (r.done) break;
      let chunk = r.value;
      while (chunk.length && !isClosed) {
        const n = sock.write(chunk);
        chunk = chunk.subarray(Math.max(0, n));
        if (chunk.length) await new Promise<void>((resolve) => (drained = resolve));
      }
    }
    // stdin's end is a half-close: the server's answers to what was sent still come back.
    if (!isClosed) sock.shutdown();
  })().catch(() => sock.end());
  await closed;
  await out.end();
}

/** What is kept of a remote command's output (uname, --version, ssh's messages); the rest is read and dropped. */
const OUTPUT_MAX = 64 * 1024;

/** The first `max` bytes of a stream as text; the rest is read (so the writer never blocks) and dropped. */
async function firstBytes(stream: ReadableStream<Uint8Array>, max = OUTPUT_MAX): Promise<string> {
  const kept: Uint8Array[] = [];
  let n = 0;
  for await (const chunk of stream) {
    if (n >= max) continue;
    kept.push(chunk.subarray(0, max - n));
    n += Math.min(chunk.length, max - n);
  }
  return new TextDecoder().decode(Buffer.concat(kept));
}

async function output(argv: string[], opts: { stdin?: Blob } = {}): Promise<{ code: number; out: string; err: string }> {
  const p = Bun.spawn(argv, { stdin: opts.stdin ?? "ignore", stdout: "pipe", stderr: "pipe" });
  const [out, err, code] = await Promise.all([firstBytes(p.stdout), firstBytes(p.stderr), p.exited]);
  return { code, out: out.trim(), err: err.trim() };
}

// Constant remote commands: nothing of the user's goes into them.
const UNAME = "uname -sm";
const INSTALL =
  `sh -c 'set -e; d="$HOME/.local/bin"; mkdir -p "$d"; t=$(mktemp "$d/.ws-install.XXXXXX"); trap "rm -f \\"\\$t\\"" EXIT; ` +
  `cat > "$t"; chmod 755 "$t"; mv -f "$t" "$d/ws"'`;
const VERSION_CHECK = `"$HOME/.local/bin/ws" --version`;

/** ws remote install HOST: copy this (compiled) ws to HOST's ~/.local/bin/ws when HOST's OS and CPU match. */
export async function remoteInstall({ fields }: HandlerInput): Promise<void> {
  const host = String(fields.host);
  const { sshArgv, sshFailure, checkHost } = await import("../remote/ssh");
  checkHost(host);
  const self = (await import("./server-cmds")).selfArgv();
  if (self.length !== 1) throw new CliError("ws remote install copies the compiled ws binary; this ws runs from its sources (build it: bun run build)");
  const here = await output(["uname", "-sm"]);
  const there = await output(sshArgv(host, UNAME));
  if (there.code !== 0) throw sshFailure(host, there.code, there.err);
  if (there.out !== here.out)
    throw new CliError(`${host} is ${there.out || "unknown"}, this ws is built for ${here.out}; nothing was copied. Install ws there with its own install.sh.`);
  const put = await output(sshArgv(host, INSTALL), { stdin: Bun.file(self[0]!) });
  if (put.code !== 0) throw sshFailure(host, put.code, put.err);
  const check = await output(sshArgv(host, VERSION_CHECK));
  if (check.code !== 0) throw sshFailure(host, check.code, check.err);
  if (globals.json) return printResult("ok", { host, path: "~/.local/bin/ws", version: check.out, platform: there.out });
  print(`installed ws ${check.out} on ${host} at ~/.local/bin/ws (${there.out}; this ws is ${WS_VERSION} (${BUILD}))`);
}
