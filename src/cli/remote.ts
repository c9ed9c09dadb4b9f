// The CLI with -H HOST (or WS_HOST): loaded only then, so a local call never pays for it.
// Messages, streams and attach speak the protocol through `ssh HOST ws proxy` (remote/bridge-socket.ts);
// the commands that work on the server machine's files (start, kill-server, doctor, session …) run
// there whole (`ws proxy --exec`); ws dashboard and ws inbox merge several hosts.
import { useConnector } from "../client/connect";
import { CliError, globals } from "./common";
import { safeJson, safeText } from "../safe-text";
import type { Command } from "../cli-table/spec";
import { bridgeConnector } from "../remote/bridge-socket";
import { withoutHostFlags } from "./global-flags";
import { checkHost, openBridge, quietly, settledStderr } from "../remote/ssh";

/** Handlers that work on the server machine's files or settings (sockets, saves, hooks, keymap): they
 * run there whole. Every other command speaks the protocol (through connectClient), so it works
 * over the bridge. */
const RUN_THERE = new Set(["start", "killServer", "doctor", "restart", "sessionRestore", "sessionDiscard", "sessionInfo", "keys", "hooks", "report"]);
/** Commands that act on this machine whatever -H says. */
const LOCAL_ONLY = new Set(["proxy", "remote install"]);

/**
 * Run `command` (`bare`: no command, i.e. attach) against the remote host(s). Returns true when it
 * has run; false when the normal CLI path should go on, its connections now through the bridge.
 */
export async function runRemote(command: Command | undefined, argv: string[], bare: boolean): Promise<boolean> {
  if (command && LOCAL_ONLY.has(command.path)) return false;
  if (globals.local) throw new CliError("--local starts a server private to this terminal; it can't be combined with -H");
  const several = globals.allHosts || (globals.hosts?.length ?? 0) > 1;
  if (command?.path === "dashboard" && several) {
    await (await import("./remote-dashboard")).mergedDashboard();
    return true;
  }
  if (command?.path === "inbox" && several) {
    await (await import("./remote-inbox")).mergedInbox();
    return true;
  }
  const hosts = globals.hosts ?? [];
  if (hosts.length !== 1) throw new CliError(globals.allHosts ? "--all-hosts is for ws dashboard and ws inbox" : "give one -H HOST (only ws dashboard and ws inbox take several)");
  const host = hosts[0]!;
  checkHost(host);
  if (command?.path === "server") throw new CliError(`ws server runs a server in the foreground here; to start one on ${host}: ws -H ${host} start`);
  if (command?.run && RUN_THERE.has(command.run)) {
    process.exitCode = await execRemote(host, withoutHostFlags(argv));
    return true;
  }
  // Bare `ws` and `ws attach` start the host's server when none runs (the issue's "start, attach or
  // new"): someone reaching for a remote machine's panes expects them there.
  // Messages name the host: the socket path this machine would use means nothing there.
  useConnector(bridgeConnector(host, { name: globals.name, start: bare || command?.path === "attach" }), host);
  return false;
}

/** Run a whole command line on `host` (ws proxy --exec): its output and exit status are ours. */
async function execRemote(host: string, argv: string[]): Promise<number> {
  const bridge = await openBridge(host, { name: globals.name, exec: true });
  const { proc, reader } = bridge;
  // The remote command's output and ssh's messages are other programs' text: terminal-safe, as
  // everything the CLI prints, piece by piece as it comes (the escaping is per character, so
  // nothing needs holding: a line without end costs no memory). --json output stays exact JSON.
  const safe = globals.json ? safeJson : safeText;
  const errDec = new TextDecoder();
  bridge.forwardStderr((chunk) => void process.stderr.write(safeText(errDec.decode(chunk, { stream: true }))));
  quietly(proc.stdin.write(JSON.stringify(argv) + "\n"));
  quietly(proc.stdin.end());
  // Awaited writes: all of it reaches our stdout before main.ts exits, and a slow reader slows ssh.
  const outDec = new TextDecoder();
  if (bridge.rest.length) await Bun.write(Bun.stdout, safe(outDec.decode(bridge.rest, { stream: true })));
  for (;;) {
    const r = await reader.read();
    if (r.done) break;
    await Bun.write(Bun.stdout, safe(outDec.decode(r.value, { stream: true })));
  }
  const last = outDec.decode();
  if (last) await Bun.write(Bun.stdout, safe(last));
  const code = await proc.exited;
  await settledStderr(bridge);
  const lastErr = errDec.decode();
  if (lastErr) process.stderr.write(safeText(lastErr));
  if (code === 255 || proc.signalCode) throw new CliError(`the connection to ${host} was lost (ssh ${proc.signalCode ?? `exited ${code}`})`);
  return code;
}
