// Starting, stopping and checking servers: ws start, ws server, ws kill-server, ws doctor.
import { closeSync, existsSync, lstatSync, mkdirSync, openSync, readdirSync, statSync } from "node:fs";
import { INFO_MAX, readRegular, readTextFile } from "../safe-file";
import { join } from "node:path";
import { BUILD } from "../build-info";
import { clientSocketProblem, socketDirProblem, socketPathProblem } from "../platform/socket-check";
import { socketDir } from "../paths";
import { probeSocket, removeIfPresent } from "../server/socket-files";
import { NoAnswer, request } from "../client/request";
import { CliError, globals, print, printError, printResult, send, show, sock } from "./common";
import type { HandlerInput } from "./handlers";
import { safeText } from "../safe-text";
import { savePath } from "../features/persistence/store";

import { serverLogPath, wsDir } from "../xdg-dirs";
import { processStateSync } from "../platform";
import { selfArgv } from "../paths";
import { ONE_REAPER_ENV } from "../model/fd-limit";
export { selfArgv };

export function stateDir(): string {
  return wsDir("state");
}

/** Start a daemon in the background on the chosen socket and wait until it answers. */
/** How long `ws start` waits for a server that shows no progress (WS_START_WAIT_MS, for tests). */
const START_WAIT_MS = Number(process.env.WS_START_WAIT_MS) > 0 ? Number(process.env.WS_START_WAIT_MS) : 10_000;

/** Start a server on `path` unless one runs there; whether this call started it. */
export async function startDaemon(path = sock(), timeoutMs = START_WAIT_MS, command: string[] = [], local = false, opts: StartOptions = {}): Promise<boolean> {
  const state = await probeSocket(path);
  if (state === "live") {
    if (command.length) throw new CliError(`a ws server already runs on ${path}; ${command[0]} was not started (use ws tab new -- …)`);
    return false;
  }
  mkdirSync(stateDir(), { recursive: true, mode: 0o700 });
  const log = serverLogPath(path);
  let logStart = 0;
  try {
    logStart = statSync(log).size;
  } catch {}
  const fd = openSync(log, "a", 0o600);
  const env: Record<string, string | undefined> = { ...process.env, WS_SERVER_SOCKET: path };
  delete env.BUN_BE_BUN;
  Object.assign(env, ONE_REAPER_ENV);
  const proc = Bun.spawn([...selfArgv(), "server", "--socket-path", path, ...(local ? ["--local"] : []), ...(opts.fresh ? ["--fresh"] : []), ...(command.length ? ["--", ...command] : [])], {
    cwd: process.cwd(),
    env,
    stdin: "ignore",
    stdout: fd,
    stderr: fd,
    detached: true,
  });
  proc.unref();
  closeSync(fd);
  // Restoring a big saved session (persistence) reads, checks and rebuilds it before the server
  // answers: allow a second per MB of save on top, for a loaded machine.
  let saved = 0;
  try {
    saved = statSync(savePath(path)).size;
  } catch {}
  const begun = Date.now();
  let deadline = begun + timeoutMs + Math.min(120_000, saved / 1000);
  // A restore of many panes says how far it got in the log every second or so: while the log
  // grows, the server is making progress, and ws start waits on (up to START_WAIT_MAX_MS).
  let logSize = logStart;
  let looked = 0;
  while (Date.now() < deadline) {
    // Up means taking connections and having written its info file (its last step of starting):
    // a server that bound its socket and then failed is not taken for started.
    if ((await probeSocket(path, 200)) === "live" && infoNames(path, proc.pid)) {
      // A server that found its log over the cap started it afresh (src/log.ts): read it all.
      const said = printStartWarnings(log, fileSize(log) < logStart ? 0 : logStart);
      if (said) opts.onRestored?.(said);
      noteTmuxConfOnce();
      return true;
    }
    if (proc.exitCode !== null) break;
    if (Date.now() - looked > 250) {
      looked = Date.now();
      const size = fileSize(log);
      if (size > logSize) {
        logSize = size;
        deadline = Math.min(begun + START_WAIT_MAX_MS, Math.max(deadline, Date.now() + timeoutMs));
      }
    }
    await Bun.sleep(10);
  }
  let tail = "";
  try {
    tail = logTail(log, Math.max(0, fileSize(log) - LOG_SHOWN)).trim().split("\n").slice(-3).join("\n");
  } catch {}
  throw new CliError(`the ws server did not start on ${path}${tail ? `:\n${tail}` : ""}\n(log: ${log})`);
}

/** The first start on a machine with a ~/.tmux.conf says, once, that ws doesn't read it and how
 * to carry it over (a mark in the state directory remembers it was said). */
function noteTmuxConfOnce(): void {
  const mark = join(stateDir(), "tmux-conf-noted");
  const conf = process.env.HOME ? join(process.env.HOME, ".tmux.conf") : undefined;
  if (!conf || !existsSync(conf) || existsSync(mark)) return;
  try {
    closeSync(openSync(mark, "wx", 0o600));
  } catch {
    return; // another start said it, or nowhere to remember it: say nothing rather than every time
  }
  printError(`ws: ws doesn't read ${conf}; ws config import-tmux writes keys.toml from it (the prefix, binds, mouse, mode-keys, history-limit, status; docs/keys.md)`);
}

/** Whether the info file beside the socket names process `pid`. */
function infoNames(path: string, pid: number): boolean {
  try {
    return JSON.parse(readTextFile(path.replace(/\.sock$/, "") + ".info.json", INFO_MAX)).pid === pid;
  } catch {
    return false;
  }
}

/** However long a restore keeps making progress, ws start gives up after this. */
const START_WAIT_MAX_MS = 10 * 60_000;

function fileSize(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}

/** The most of the server's log a starting ws reads back (its warnings, its last words). */
const LOG_SHOWN = 256 * 1024;

/** The log from byte `from`, at most LOG_SHOWN of it, from a regular file only (src/safe-file.ts). */
function logTail(log: string, from: number): string {
  return readRegular(log, { max: LOG_SHOWN, offset: from }).bytes.toString("utf8");
}

/** What the new server warned about while starting (e.g. a save it could not load), on stderr;
 * returns its line saying what it restored, if it did. */
function printStartWarnings(log: string, from: number): string | undefined {
  let restored: string | undefined;
  try {
    const text = logTail(log, from);
    for (const line of text.split("\n")) {
      if (/\bwarn\b/i.test(line)) printError(`ws: warning: ${line.replace(/^.*?\bwarn\b\]?\s*(\[ws\]\s*)?/i, "")}`);
      const m = /\b(restored \d+ of \d+ workspaces, .*?)(?: in \d+ ms)?$/.exec(line);
      if (m) restored = m[1];
    }
  } catch {}
  return restored;
}

export interface StartOptions {
  /** Start clean, without restoring the saved session. */
  fresh?: boolean;
  /** Called with the server's line saying what it restored (`restored 2 of 2 workspaces, …`). */
  onRestored?: (said: string) => void;
}

/** ws start [--fresh] [-- CMD…]: the command runs in the first pane. After a restore (a crash, a
 * kill-server --keep) it says what came back and which panes run their programs again. */
export async function start({ fields }: HandlerInput): Promise<void> {
  const fresh = fields.fresh === true;
  let restored: string | undefined;
  const started = await startDaemon(sock(), undefined, fields.command as string[], false, { fresh, onRestored: (said) => (restored = said) });
  // --fresh asked for a clean server, and the one running is not: a failure, not done.
  if (!started && fresh) throw new CliError(`a ws server already runs on ${sock()}; --fresh starts a new one only when none runs (ws kill-server first)`);
  // Starting what already runs is no failure (a script may start it to be sure), but it says so.
  if (!started && !globals.json) printError(`ws: a ws server already runs on ${sock()}; nothing started`);
  const again = restored ? await runsAgain() : [];
  if (globals.json) return printResult("ok", { socket: sock(), started, restored: restored ?? null, runs_again: again });
  if (!restored) return;
  printError(`ws: ${restored}`);
  for (const p of again) printError(`ws:   pane ${p.pane} (${p.where}) runs again: ${p.command}`);
}

/** The restored panes that run a program of their own again (not just a shell): a template's
 * command, an agent resumed. */
async function runsAgain(): Promise<{ pane: number; where: string; command: string }[]> {
  try {
    const reply = await send("pane_list");
    const panes = (Array.isArray(reply.panes) ? reply.panes : []) as { pane: number; workspace: string; tab_name: string; start_command?: string[] }[];
    return panes.filter((p) => p.start_command?.length).map((p) => ({ pane: p.pane, where: `${p.workspace} / ${p.tab_name}`, command: p.start_command!.join(" ") }));
  } catch {
    return [];
  }
}

export async function server({ fields }: HandlerInput): Promise<void> {
  const { runServer } = await import("../server/daemon");
  const { cleanUpAfterServer, shimPaneEnv } = await import("../tmux-shim/server");
  const { tmuxLines } = await import("../tmux-shim/interactive");
  const { agentsPath, removeAgentWrappers } = await import("./box-cmds");
  const path = (fields.socket_path as string | undefined) || sock();
  const command = fields.command as string[];
  // The tmux shim's variables, and keys.toml's box_agents wrappers first on PATH.
  const paneEnv = (socket: string, basePath: string | undefined) => {
    const shim = shimPaneEnv(socket, basePath);
    const agents = agentsPath(socket);
    if (!agents) return shim;
    return (id: number) => {
      const vars = shim?.(id) ?? {};
      return { ...vars, PATH: agents(vars.PATH ?? basePath) };
    };
  };
  const afterStop = (socket: string) => {
    cleanUpAfterServer(socket);
    removeAgentWrappers(socket);
  };
  // --local (a global flag) marks the private server bare `ws --local` starts.
  process.exitCode = await runServer({ socketPath: path, cwd: process.cwd(), local: globals.local === true, fresh: fields.fresh === true, hooks: { paneEnv, afterStop, tmuxLines }, ...(command.length ? { command } : {}) });
  process.exit(process.exitCode);
}

export async function killServer({ fields }: HandlerInput): Promise<void> {
  const path = sock();
  if (!fields.keep) await warnOpenWorkstreams();
  const reply = await send(fields.keep ? "shutdown_keep" : "shutdown");
  // Return once the server has gone, so `ws kill-server && ws start` is safe.
  const deadline = Date.now() + 8000;
  while (Date.now() < deadline && (await probeSocket(path, 200)) === "live") await Bun.sleep(20);
  show(reply);
}

/** Workstreams outlive the server (their records on disk), but their tabs and agents don't: say
 * which are open, and how to find them again. Silent when the server can't tell. */
async function warnOpenWorkstreams(): Promise<void> {
  let rows: { name: string; state: string }[] = [];
  try {
    const r = await send("workstream_list");
    rows = Array.isArray(r.workstreams) ? (r.workstreams as { name: string; state: string }[]) : [];
  } catch {
    return;
  }
  const open = rows.filter((w) => w.state === "open").map((w) => safeText(String(w.name)));
  if (!open.length) return;
  const them = open.length === 1 ? "it stays" : "they stay";
  process.stderr.write(`ws: warning: ${open.length} ${open.length === 1 ? "workstream is" : "workstreams are"} open (${open.join(", ")}): ${them} on disk, without ${open.length === 1 ? "its tab" : "their tabs"}; ws workstream list shows ${open.length === 1 ? "it" : "them"} after the next start, ws done NAME finishes one (kill-server --keep keeps the tabs too)\n`);
}

interface Finding {
  level: "ok" | "warn" | "error";
  text: string;
  fix?: () => void;
}

export async function doctor({ fields: args }: HandlerInput): Promise<void> {
  const dir = socketDir();
  const findings: Finding[] = [];
  // The same checks every client makes before it connects (socket-check.ts), so doctor and the CLI agree.
  const problem = socketDirProblem(dir, { private: true });
  if (problem) findings.push({ level: "error", text: problem });
  const tooLong = socketPathProblem(sock());
  if (tooLong) findings.push({ level: "error", text: tooLong });
  // A tmux user's settings are in ~/.tmux.conf, which ws never reads: say where ws's are.
  const tmuxConf = process.env.HOME ? join(process.env.HOME, ".tmux.conf") : undefined;
  if (tmuxConf && existsSync(tmuxConf))
    findings.push({ level: "ok", text: `ws doesn't read ${tmuxConf}: keys.toml takes the prefix, binds and tmux's settings by their names (mouse, mode-keys, history-limit, base-index; docs/keys.md); ws config import-tmux writes it from ${tmuxConf}` });
  if (!existsSync(dir)) findings.push({ level: "ok", text: `no socket directory yet (${dir}); no server has run` });
  else if (!socketDirProblem(dir)) {
    // Ours: look inside, even when its mode is wrong (then nothing is probed: clients refuse it).
    if (!problem) findings.push({ level: "ok", text: `socket directory ${dir} (0700)` });
    for (const f of readdirSync(dir).filter((n) => n.endsWith(".sock"))) {
      const path = join(dir, f);
      const m = lstatSync(path).mode & 0o777;
      if (m !== 0o600) findings.push({ level: "warn", text: `${f}: mode ${m.toString(8)}, expected 600` });
      const unsafe = problem ? undefined : clientSocketProblem(path);
      if (unsafe) {
        findings.push({ level: "error", text: unsafe });
        continue;
      }
      const live = problem ? "unchecked" : await probeSocket(path);
      if (live === "stale") {
        findings.push({ level: "warn", text: `${f}: stale (nothing listening; left by a crash)`, fix: () => removeIfPresent(path) });
        continue;
      }
      let info: { pid?: number; build?: string } = {};
      try {
        info = JSON.parse(readTextFile(path.replace(/\.sock$/, "") + ".info.json", INFO_MAX));
      } catch {}
      // Taking connections is the kernel's doing (a stopped server's backlog takes them too): ask it something.
      const silent = live === "live" ? await noAnswer(path, info.pid) : undefined;
      if (silent) findings.push({ level: "error", text: `${f}: ${silent}` });
      else if (info.build && info.build !== BUILD)
        findings.push({ level: "warn", text: `${f}: server build ${info.build} differs from this ws (${BUILD}); restart it: ws kill-server --keep, then ws` });
      else if (live === "live") findings.push({ level: "ok", text: `${f}: live, answers${info.pid ? ` (pid ${info.pid})` : ""}` });
    }
  }
  await import("./session-cmds"); // registers the saved-session check (the CLI loads areas lazily)
  await import("./box-cmds"); // and whether boxes work
  for (const check of doctorChecks) findings.push(...(await check()));
  let bad = 0;
  const fixed: string[] = [];
  for (const f of findings) {
    if (args.fix && f.fix) {
      f.fix();
      fixed.push(f.text);
      if (!globals.json) print(`fixed: ${f.text}`);
      continue;
    }
    if (f.level !== "ok") bad++;
    if (!globals.json) print(`${f.level === "ok" ? "ok   " : f.level === "warn" ? "warn " : "error"} ${f.text}${f.fix ? " (ws doctor --fix removes it)" : ""}`);
  }
  if (globals.json) printResult("doctor", { findings: findings.filter((f) => !fixed.includes(f.text)).map(({ level, text, fix }) => ({ level, text, fixable: !!fix })), fixed });
  process.exitCode = bad ? 1 : 0;
}

/** How long doctor waits for a server's answer (--timeout changes it). */
const DOCTOR_REPLY_MS = 3000;

/** Why the server on `path` does not answer a request, or undefined when it does. */
async function noAnswer(path: string, pid: number | undefined): Promise<string | undefined> {
  const ms = globals.timeoutMs || DOCTOR_REPLY_MS;
  try {
    await request(path, { v: 1, type: "workspace_list" }, ms);
    return undefined;
  } catch (e) {
    if (!(e instanceof NoAnswer)) return `takes connections but the request failed: ${(e as Error).message}`;
  }
  const state = pid ? (processStateSync(pid)?.state ?? "") : "";
  const who = pid ? `the server (pid ${pid})` : "the server";
  if (state === "T" || state === "t") return `${who} takes connections but does not answer: it is stopped (resume it: kill -CONT ${pid})`;
  return `${who} takes connections but did not answer within ${ms / 1000} s (busy or stuck; see its log in ${stateDir()})`;
}

/** Further checks features add (e.g. a saved session that could not be loaded). */
export const doctorChecks: (() => Promise<Finding[]> | Finding[])[] = [];
