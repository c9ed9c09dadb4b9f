// The CLI with -H HOST (or WS_HOST): loaded only then, so a local call never pays for it.
// Messages, streams and attach speak the protocol through `ssh HOST ws proxy` (bridge-socket.ts);
// the commands that work on the server machine's files (start, kill-server, doctor, session …) run
// there whole (`ws proxy --exec`); ws dashboard merges several hosts.
import { useConnector } from "../client/connect";
import { CliError, globals, printError } from "../cli/common";
import type { Command } from "../cli/spec";
import { bridgeConnector } from "./bridge-socket";
import { checkHost, openBridge, quietly, settledStderr } from "./ssh";

/** Handlers that work on the server machine's files or settings (sockets, saves, hooks, keymap): they
 * run there whole. Every other command speaks the protocol (through connectClient), so it works
 * over the bridge. */
const RUN_THERE = new Set(["start", "killServer", "doctor", "restart", "sessionRestore", "sessionDiscard", "sessionInfo", "keys", "hooks", "report"]);
/** Commands that act on this machine whatever -H says. */
const LOCAL_ONLY = new Set(["proxy", "remote install"]);

/** The command line without -H/--host/--all-hosts (before `--`), for the remote ws to run. */
export function withoutHostFlags(argv: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === "--") {
      out.push(...argv.slice(i));
      break;
    }
    if (a === "-H" || a === "--host") i++;
    else if (!a.startsWith("--host=") && a !== "--all-hosts") out.push(a);
  }
  return out;
}

/**
 * Run `command` (`bare`: no command, i.e. attach) against the remote host(s). Returns true when it
 * has run; false when the normal CLI path should go on, its connections now through the bridge.
 */
export async function runRemote(command: Command | undefined, argv: string[], bare: boolean): Promise<boolean> {
  if (command && LOCAL_ONLY.has(command.path)) return false;
  if (globals.local) throw new CliError("--local starts a server private to this terminal; it can't be combined with -H");
  if (command?.path === "dashboard" && (globals.allHosts || (globals.hosts?.length ?? 0) > 1)) {
    await (await import("./dashboard")).mergedDashboard();
    return true;
  }
  const hosts = globals.hosts ?? [];
  if (hosts.length !== 1) throw new CliError(globals.allHosts ? "--all-hosts is for ws dashboard" : "give one -H HOST (only ws dashboard takes several)");
  const host = hosts[0]!;
  checkHost(host);
  if (command?.path === "server") throw new CliError(`ws server runs a server in the foreground here; to start one on ${host}: ws -H ${host} start`);
  if (command?.run && RUN_THERE.has(command.run)) {
    process.exitCode = await execRemote(host, withoutHostFlags(argv));
    return true;
  }
  // Bare `ws` and `ws attach` start the host's server when none runs (the issue's "start, attach or
  // new"): someone reaching for a remote machine's panes expects them there.
  useConnector(bridgeConnector(host, { name: globals.name, start: bare || command?.path === "attach" }));
  return false;
}

/** Run a whole command line on `host` (ws proxy --exec): its output and exit status are ours. */
async function execRemote(host: string, argv: string[]): Promise<number> {
  const bridge = await openBridge(host, { name: globals.name, exec: true });
  const { proc, reader } = bridge;
  // stderr mixes the remote ws's messages with ssh's own (and a server's banner): line by line,
  // terminal-safe, like everything the CLI prints.
  let errText = "";
  const dec = new TextDecoder();
  bridge.forwardStderr((chunk) => {
    errText += dec.decode(chunk, { stream: true });
    const lines = errText.split("\n");
    errText = lines.pop()!;
    for (const l of lines) printError(l);
  });
  quietly(proc.stdin.write(JSON.stringify(argv) + "\n"));
  quietly(proc.stdin.end());
  // Awaited writes: all of it reaches our stdout before main.ts exits, and a slow reader slows ssh.
  if (bridge.rest.length) await Bun.write(Bun.stdout, bridge.rest);
  for (;;) {
    const r = await reader.read();
    if (r.done) break;
    await Bun.write(Bun.stdout, r.value);
  }
  const code = await proc.exited;
  await settledStderr(bridge);
  if (errText) printError(errText);
  if (code === 255 || proc.signalCode) throw new CliError(`the connection to ${host} was lost (ssh ${proc.signalCode ?? `exited ${code}`})`);
  return code;
}
