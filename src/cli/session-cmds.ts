// Saved sessions from the command line: ws session restore|discard|info, ws restart, and the
// `ws doctor` check for saves that could not be loaded. (ws session save is the plain message.)
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { probeSocket } from "../server/socket-files";
import { decode, decodeHeader, SaveProblem } from "../features/persistence/format";
import { listAside, readSaveBytes, removeAside, removeSave, savePath, serverName, stateDir } from "../features/persistence/store";
import { readRegular } from "../safe-file";
import { CliError, fileRefused, globals, printError, send, show, sock } from "./common";
import { doctorChecks, selfArgv, startDaemon } from "./server-cmds";
import { mainSocketOfPane } from "../paths";
import type { HandlerInput } from "./handlers";
import type { EntryReply } from "../messages/types";
import type workspace_list from "../messages/workspace_list";
import { kb } from "./views";
import { type AgentRow, agentRowText } from "../features/agents/row";
import { safeText } from "../safe-text";

function ago(iso: string): string {
  const s = Math.max(0, Math.round((Date.now() - new Date(iso).getTime()) / 1000));
  if (s < 90) return `${s} s ago`;
  if (s < 5400) return `${Math.round(s / 60)} min ago`;
  if (s < 48 * 3600) return `${Math.round(s / 3600)} h ago`;
  return `${Math.round(s / 86400)} days ago`;
}

const live = async () => (await probeSocket(sock())) === "live";

/** Wait until the server on `path` has gone (its socket removed or dead). */
async function waitGone(path: string, timeoutMs = 15000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if ((await probeSocket(path, 200)) !== "live") return;
    await Bun.sleep(20);
  }
  throw new CliError(`the ws server on ${path} did not quit within ${timeoutMs / 1000} s`);
}

export async function sessionRestore(): Promise<void> {
  const path = savePath(sock());
  if (!(await live())) {
    await startDaemon();
    const r = await send("workspace_list");
    show({ type: "ok", socket: sock(), workspaces: r.workspaces }, `started ws from ${path}: ${(r.workspaces as unknown[]).length} workspaces`);
    return;
  }
  const r = await send("session_restore");
  // What was left out goes to stderr, where a person looks for trouble (the reply has it all).
  const skipped = (r.skipped as string[] | undefined) ?? [];
  if (!globals.json) {
    for (const m of skipped.slice(0, 10)) printError(`ws: warning: ${m}`);
    if (skipped.length > 10) printError(`ws: warning: ${skipped.length - 10} more parts left out`);
    if (r.kept) printError(`ws: warning: the original save is kept at ${r.kept} (ws session discard --unreadable deletes it)`);
  }
  const of = r.saved !== undefined && r.saved !== r.workspaces ? ` of ${r.saved}` : "";
  show(r, `restored ${r.workspaces}${of} workspaces, ${r.tabs} tabs, ${Object.keys(r.panes as object).length} panes from ${path} (saved ${ago(r.saved_at as string)})`);
}

export async function sessionDiscard({ fields: args }: HandlerInput): Promise<void> {
  const path = savePath(sock());
  if (args.unreadable) {
    const name = serverName(sock());
    const files = (await listAside()).filter((f) => f.server === name);
    for (const f of files) await removeAside(f);
    show({ type: "ok", removed: files.map((f) => f.path) }, files.length ? files.map((f) => `removed ${f.path}`).join("\n") : "no unreadable saves");
    return;
  }
  if (await live()) {
    const r = await send("session_discard");
    show(r, r.removed ? `removed ${path} (the server saves again after the next change; ws kill-server ends it for good)` : `no saved session at ${path}`);
    return;
  }
  const removed = await removeSave(path);
  show({ type: "ok", path, removed }, removed ? `removed ${path}` : `no saved session at ${path}`);
}

/** The most read of a save set aside, for its header line. */
const SAVE_HEAD_MAX = 64 * 1024;

export async function sessionInfo(): Promise<void> {
  const path = savePath(sock());
  let bytes: Uint8Array | undefined;
  try {
    // A regular file of at most a save's size only: never a FIFO or a device in its place.
    bytes = await readSaveBytes(path);
  } catch (e) {
    throw fileRefused(e, "ws session info");
  }
  if (!bytes) {
    show({ type: "session_info", path, exists: false }, `no saved session at ${path}`);
    return;
  }
  try {
    const { header } = decode(bytes);
    show(
      { type: "session_info", path, exists: true, ...header },
      `${path}\n  saved ${header.saved_at} (${ago(header.saved_at)}) by ws ${header.ws}\n  ${header.workspaces} workspaces, ${header.tabs} tabs, ${header.panes} panes, ${kb(bytes.length)}, format ${header.version}`,
    );
  } catch (e) {
    throw new CliError(`${path} can't be restored: ${(e as Error).message}`);
  }
}

/** One line from the person's terminal; undefined at its end. */
async function readAnswerLine(): Promise<string | undefined> {
  const reader = Bun.stdin.stream().getReader();
  let text = "";
  try {
    while (!text.includes("\n") && text.length < 256) {
      const r = await reader.read();
      if (r.done) return text || undefined;
      text += new TextDecoder().decode(r.value);
    }
  } finally {
    reader.releaseLock();
  }
  return text.split("\n", 1)[0];
}

/** The agents a restart would cut off mid-turn (working, or waiting on the person), each named as
 * the Dashboard names it; none from a server too old to list them. */
async function busyAgents(): Promise<AgentRow[]> {
  try {
    const r = await send("agent_list");
    return (r.agents as AgentRow[]).filter((a) => !a.restored && (a.status === "working" || a.status === "blocked"));
  } catch {
    return [];
  }
}

/** Go on with a restart that would interrupt working agents only when the person says so, or
 * `--force` does; a script without a terminal gets a refusal naming them. */
async function confirmRestart(force: boolean): Promise<void> {
  if (force) return;
  const busy = await busyAgents();
  if (!busy.length) return;
  const names = busy.map((a) => `  ${safeText(agentRowText(a))}`).join("\n");
  const what = `${busy.length === 1 ? "an agent is" : `${busy.length} agents are`} working; a restart cuts ${busy.length === 1 ? "its turn" : "their turns"} off (${busy.length === 1 ? "it comes" : "they come"} back resumed, marked interrupted):\n${names}`;
  if (!process.stdin.isTTY || !process.stderr.isTTY) throw new CliError(`${what}\nrun \`ws restart --force\` to restart anyway`, 1, "agents_working");
  process.stderr.write(`${what}\nrestart anyway? [y/N] `);
  const answer = (await readAnswerLine())?.trim().toLowerCase();
  if (answer !== "y" && answer !== "yes") throw new CliError("not restarted", 1, "cancelled");
}

export async function restart({ fields }: HandlerInput): Promise<void> {
  const path = sock();
  if (await live()) await confirmRestart(fields.force === true);
  // On a pane's own socket the server refuses it (quitting is the person's), and says so.
  if (process.env.WS_SOCKET === path && !mainSocketOfPane(path) && !process.env.WS_RESTART_DETACHED && (await live())) {
    // Run inside one of the server's own panes, this process ends with its pane: hand the
    // restart to a helper in its own session, which outlives every pane.
    const helper = Bun.spawn([...selfArgv(), "restart", "--force"], {
      env: { ...process.env, WS_RESTART_DETACHED: "1" },
      stdin: "ignore",
      stdout: "ignore",
      stderr: "ignore",
      detached: true,
    });
    helper.unref();
    show({ type: "ok", socket: path, detached: true }, "ws is restarting: the panes come back in a moment; re-attach with `ws`");
    return;
  }
  if (await live()) {
    await send("shutdown_keep", { restart: true });
    await waitGone(path);
  }
  await startDaemon(path);
  const r = await send("workspace_list");
  const wss = (r as EntryReply<typeof workspace_list>).workspaces;
  const panes = wss.reduce((n, w) => n + w.tabs.reduce((m, t) => m + t.panes.length, 0), 0);
  show({ type: "ok", socket: path, workspaces: r.workspaces }, `ws restarted on ${path}: ${wss.length} workspaces, ${panes} panes`);
}

// ---- ws doctor ---------------------------------------------------------------------------------

doctorChecks.push(async () => {
  const dir = stateDir();
  const out: { level: "ok" | "warn" | "error"; text: string }[] = [];
  let names: string[] = [];
  try {
    names = (await readdir(dir)).filter((n) => n.endsWith(".session"));
  } catch {}
  for (const n of names) {
    const path = join(dir, n);
    try {
      const bytes = await readSaveBytes(path);
      if (!bytes) continue; // gone since it was listed
      const { header } = decode(bytes);
      out.push({ level: "ok", text: `saved session "${n.replace(/\.session$/, "")}": ${header.workspaces} workspaces, ${header.panes} panes, saved ${ago(header.saved_at)} (${path})` });
    } catch (e) {
      const kind = e instanceof SaveProblem ? e.kind : "unreadable";
      out.push({ level: "warn", text: `saved session ${path} can't be restored (${kind}: ${(e as Error).message}); the next server start moves it aside and starts clean` });
    }
  }
  for (const f of await listAside()) {
    let made = "";
    try {
      // Only its header line is shown: the start of a regular file, never a FIFO or device.
      const { header } = decodeHeader(readRegular(f.path, { max: SAVE_HEAD_MAX }).bytes);
      made = `, saved ${header.saved_at} by ws ${header.ws}`;
    } catch {}
    // A save restored in part lists every part left out: the first few say enough here.
    const reason = f.reason.length > 300 ? `${f.reason.slice(0, 300)}… (the rest in ${f.path}.reason)` : f.reason;
    const what = /\.partial-[^.]+$/.test(f.path) ? "was restored in part" : "could not be loaded";
    out.push({
      level: "warn",
      text: `a saved session of server "${f.server}" ${what} on ${f.when.toISOString()} (${reason}${made}); it was kept at ${f.path}. Delete it when you no longer need it: ws${f.server === "default" ? "" : ` -L ${f.server}`} session discard --unreadable`,
    });
  }
  if (!names.length && !out.length) out.push({ level: "ok", text: `no saved sessions (${dir})` });
  return out;
});

