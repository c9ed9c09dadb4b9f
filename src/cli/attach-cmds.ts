// ws attach, bare ws, ws --local, ws keys.
import { CliError, globals, print, printError, printJson, sock } from "./common";
import { startDaemon } from "./server-cmds";
import { REPLY_TIMEOUT_MS } from "../client/request";

async function attachTo(path: string, startIfMissing: boolean, local = false): Promise<void> {
  const { runAttach, AttachRefused, RESTARTING } = await import("../client/attach");
  // With -H the server is on another machine (the bridge starts it there when asked).
  const remote = globals.hosts !== undefined;
  if (!remote && process.env.WS_PANE_ID && process.env.WS_SOCKET === path)
    throw new CliError("this pane already runs inside that ws server; attaching would show ws inside itself");
  if (startIfMissing && !remote) await startDaemon(path, undefined, [], local);
  let code: number;
  try {
    const replyMs = globals.timeoutMs ?? REPLY_TIMEOUT_MS;
    code = await runAttach({ socketPath: path, local, replyMs });
    // ws restart: the server comes back on the same socket; attach to it again by ourselves.
    while (code === RESTARTING && (await serverBack(path))) code = await runAttach({ socketPath: path, local, replyMs });
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

/** Whether the server answers on `path` again within RESTART_WAIT_MS (after ws restart). */
async function serverBack(path: string): Promise<boolean> {
  const { request } = await import("../client/request");
  const deadline = Date.now() + RESTART_WAIT_MS;
  while (Date.now() < deadline) {
    const ok = await request(path, { v: 1, type: "workspace_list" }, 2000).then(
      (r) => r.type === "workspaces",
      () => false,
    );
    if (ok) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  printError(`ws: the server did not come back on ${path}; ws attach when it does`);
  return false;
}

export async function attach(): Promise<void> {
  await attachTo(sock(), false);
}

/** Bare `ws`: attach, starting a server first when none runs; `ws --local`: a private one. */
export async function defaultAttach(): Promise<void> {
  await attachTo(sock(), true, globals.local === true);
}

export async function keys(): Promise<void> {
  const { loadKeymap, describeKeymap, COMMANDS, bindingsFor } = await import("../ui/keymap");
  const { keymap, warnings } = loadKeymap();
  for (const w of warnings) printError(`ws: ${w}`);
  if (globals.json) {
    printJson({ prefix: keymap.prefix, commands: COMMANDS.map((c) => ({ ...c, keys: bindingsFor(keymap, c.name) })) });
    return;
  }
  print(`prefix: ${keymap.prefix}`);
  for (const l of describeKeymap(keymap)) print(l);
}
