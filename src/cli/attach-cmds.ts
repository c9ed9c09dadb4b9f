// ws attach, bare ws, ws --local, ws keys.
import { CliError, globals, print, printError, printResult, sock } from "./common";
import { startDaemon } from "./server-cmds";
import { REPLY_TIMEOUT_MS } from "../client/request";
import { parseKeysToml, readKeysToml } from "../keys-toml";
import { ESCAPE_TIME_MAX } from "../protocol/terminal-defaults";

/** keys.toml's escape-time, when it sets a good one (the server reports a bad one). */
function escapeTime(): number | undefined {
  try {
    const v = parseKeysToml(readKeysToml())["escape-time"];
    return Number.isInteger(v) && (v as number) >= 0 && (v as number) <= ESCAPE_TIME_MAX ? (v as number) : undefined;
  } catch {
    return undefined;
  }
}

/** `share`: beside the attached clients (v6); false replaces them (ws attach -d). */
async function attachTo(path: string, startIfMissing: boolean, local = false, share = true): Promise<void> {
  const { runAttach, AttachRefused, RESTARTING } = await import("../client/attach");
  // With -H the server is on another machine (the bridge starts it there when asked).
  const remote = globals.hosts !== undefined;
  if (!remote && process.env.WS_PANE_ID && process.env.WS_SOCKET === path)
    throw new CliError("this pane already runs inside that ws server; attaching would show ws inside itself");
  // Refused before anything starts: a server started for an attach that can't happen would be
  // left running for nobody (a script's bare `ws`).
  if (!process.stdin.isTTY || !process.stdout.isTTY)
    throw new CliError(`ws ${startIfMissing ? "" : "attach "}needs a terminal to attach (stdin and stdout must be a tty); nothing was started. In a script, \`ws start\` starts the server and \`ws COMMAND\` talks to it`);
  if (startIfMissing && !remote) await startDaemon(path, undefined, [], local);
  let code: number;
  try {
    const replyMs = globals.timeoutMs ?? REPLY_TIMEOUT_MS;
    const escapeMs = escapeTime();
    // Which server start this is: after ws restart, the next one is the one to attach to.
    let boot = remote || local ? undefined : await bootId(path);
    code = await runAttach({ socketPath: path, local, replyMs, escapeMs, share });
    // ws restart: the server comes back on the same socket; attach to it again by ourselves.
    while (code === RESTARTING && boot !== undefined && (boot = await serverBack(path, boot)) !== undefined) code = await runAttach({ socketPath: path, local, replyMs, escapeMs, share });
  } catch (e) {
    if (e instanceof AttachRefused) throw new CliError(e.message);
    throw e;
  } finally {
    if (local) {
      // A --local server lives only as long as this process.
      const { request } = await import("../client/request");
      await request(path, { v: 1, type: "shutdown" }, 3000).catch(() => {});
    }
  }
  process.exit(code);
}

/** How long a restart may take before the client gives up waiting for the server. */
const RESTART_WAIT_MS = 30_000;

/** The boot id of the server on `path` (hello), or undefined when it does not answer. */
async function bootId(path: string): Promise<string | undefined> {
  const { request } = await import("../client/request");
  return request(path, { v: 6, id: 1, type: "hello" }, 2000).then(
    (r) => (typeof r.boot_id === "string" ? r.boot_id : undefined),
    () => undefined,
  );
}

/** The boot id of a new server on `path` (not `old`, which is quitting), once one answers within
 * RESTART_WAIT_MS of ws restart; undefined if none does. */
async function serverBack(path: string, old: string): Promise<string | undefined> {
  const deadline = Date.now() + RESTART_WAIT_MS;
  while (Date.now() < deadline) {
    const boot = await bootId(path);
    if (boot !== undefined && boot !== old) return boot;
    await new Promise((r) => setTimeout(r, 100));
  }
  printError(`ws: the server did not come back on ${path}; ws attach when it does`);
  return undefined;
}

export async function attach({ fields }: { fields: Record<string, unknown> }): Promise<void> {
  await attachTo(sock(), false, false, fields.detach_others !== true);
}

/** Bare `ws`: attach, starting a server first when none runs; `ws --local`: a private one. */
export async function defaultAttach(): Promise<void> {
  await attachTo(sock(), true, globals.local === true);
}

export async function keys(): Promise<void> {
  const { describeKeymap, UI_ACTIONS, bindingsFor } = await import("../ui/keymap");
  const { loadKeymap } = await import("../ui/keymap-toml");
  const { keymap, warnings } = loadKeymap();
  for (const w of warnings) printError(`ws: ${w}`);
  if (globals.json) {
    printResult("keys", { prefix: keymap.prefix, commands: UI_ACTIONS.map((c) => ({ ...c, keys: bindingsFor(keymap, c.name) })) });
    return;
  }
  print(`prefix: ${keymap.prefix}`);
  for (const l of describeKeymap(keymap)) print(l);
}
