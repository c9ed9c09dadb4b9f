// ws proxy (the remote end of ws -H: a stdio bridge to this machine's server) and
// ws remote install HOST (copy this binary to HOST's ~/.local/bin/ws).
import { BUILD, WS_VERSION } from "../build-info";
import { clientSocketProblem } from "../client/socket-check";
import { MIN_VERSION, VERSION } from "../protocol/version";
import { CliError, globals, print, printJson, sock } from "./common";
import type { HandlerInput } from "./handlers";

function preambleLine(extra: Record<string, unknown> = {}): string {
  return JSON.stringify({ ws_proxy: 1, min: MIN_VERSION, max: VERSION, build: BUILD, ...extra }) + "\n";
}

const writeOut = (text: string) => new Promise<void>((resolve) => process.stdout.write(text, () => resolve()));

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
export async function proxy({ fields }: HandlerInput): Promise<void> {
  const path = sock();
  if (fields.exec) {
    await writeOut(preambleLine());
    let argv: unknown;
    try {
      argv = JSON.parse(await readLine());
    } catch {}
    if (!Array.isArray(argv) || !argv.every((a) => typeof a === "string")) throw new CliError("ws proxy --exec: expected a JSON array of words on stdin");
    if (argv.some((a) => a === "proxy" || a === "-H" || a === "--host")) throw new CliError("ws proxy --exec: that command does not run through a proxy");
    // The command runs here: a WS_HOST in this machine's environment must not send it on again.
    delete process.env.WS_HOST;
    return (await import("./index")).runCli(argv);
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
  const net = await import("node:net");
  const { promise, resolve } = Promise.withResolvers<void>();
  let connected = false;
  const s = net.createConnection({ path });
  s.on("connect", () => {
    connected = true;
    process.stdout.write(preambleLine());
    // pipe() pauses the reading side while the writing side is full: backpressure both ways.
    s.pipe(process.stdout, { end: false });
    process.stdin.pipe(s);
  });
  process.stdin.on("end", () => s.end());
  s.on("error", async (e: NodeJS.ErrnoException) => {
    if (connected) return; // "close" follows
    const code = e.code === "ENOENT" || e.code === "ECONNREFUSED" ? "no_server" : "connect_failed";
    await writeOut(preambleLine({ error: `${path}: ${e.code ?? e.message}`, code }));
    resolve();
  });
  s.on("close", () => {
    if (connected) process.stdout.write("", () => resolve());
  });
  await promise;
}

async function output(argv: string[], opts: { stdin?: Blob } = {}): Promise<{ code: number; out: string; err: string }> {
  const p = Bun.spawn(argv, { stdin: opts.stdin ?? "ignore", stdout: "pipe", stderr: "pipe" });
  const [out, err, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
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
  if (globals.json) return printJson({ type: "ok", host, path: "~/.local/bin/ws", version: check.out, platform: there.out });
  print(`installed ws ${check.out} on ${host} at ~/.local/bin/ws (${there.out}; this ws is ${WS_VERSION} (${BUILD}))`);
}
