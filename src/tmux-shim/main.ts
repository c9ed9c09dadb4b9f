// ws running as `tmux`: tools that drive tmux (Claude Code's agent teams, vim-tmux-navigator,
// vim-slime, scripts) get ws panes. A call meant for a real tmux server (no ws socket in $TMUX, or
// -L/-S naming another server) goes to the real tmux on PATH, with the same arguments.
import { getopt, has, val } from "./getopt";
import { runCommand, type Ctx } from "./cmd/index";
import { ShimError } from "./world";
import { existsSync } from "node:fs";
import { INFO_MAX, readTextFile } from "../safe-file";
import { tmuxVar } from "./env";
import { MARKER, ShimState, ensureShimDir } from "./state";
import { runRealTmux } from "./real-tmux";
import { TMUX_VERSION } from "./world";
import { joinPath, mainSocketOfPane, parentDir, sanitizeName, socketDir, type Env } from "../paths";
import { safeText } from "../safe-text";

/** tmux's own flags, before the command. */
const GLOBAL_FLAGS = "2c:CDdf:lL:NqS:T:uUvV";

/** The ws socket $TMUX names, if it names one. */
export function wsSocketOf(env: Env): string | undefined {
  const path = env.TMUX?.split(",")[0];
  if (!path) return undefined;
  if (path === env.WS_SOCKET) return path;
  return path.endsWith(".sock") && parentDir(path) === socketDir(env) ? path : undefined;
}

/**
 * The ws socket of the shim's directory on PATH, for a call with no TMUX at all: one from inside a
 * shimmed pane whose TMUX was removed (libtmux unsets it around new-session), which must stay on
 * ws rather than start a real tmux server behind the person's back. The directory is the marker
 * that survives: ws put it on the pane's PATH, and it belongs to that socket.
 */
export function shimSocketOnPath(env: Env): string | undefined {
  if (env.TMUX) return undefined;
  for (const dir of (env.PATH ?? "").split(":")) {
    if (!dir.endsWith(".tmux") || !existsSync(`${dir}/${MARKER}`)) continue;
    const sock = `${dir.slice(0, -".tmux".length)}.sock`;
    if ((sock === env.WS_SOCKET || parentDir(sock) === socketDir(env)) && existsSync(sock)) return sock;
  }
  return undefined;
}

/** The server's pid, from the info file beside its socket (0 when it can't be read). */
function serverPidOf(sock: string): number {
  try {
    const pid = JSON.parse(readTextFile(`${sock.replace(/\.sock$/, "")}.info.json`, INFO_MAX)).pid;
    return Number.isInteger(pid) ? pid : 0;
  } catch {
    return 0;
  }
}

/** The socket a call from a pane goes through: the pane's own (its WS_SOCKET, when it belongs to
 * `sock`'s server), so the server knows which pane asks and answers with its grants. */
export function ownSocket(env: Env, sock: string): string {
  return env.WS_SOCKET && mainSocketOfPane(env.WS_SOCKET) === sock ? env.WS_SOCKET : sock;
}

/** The ws socket this call is for, or undefined when it is for a real tmux server. */
export function targetSocket(env: Env, flags: { L?: string; S?: string }): string | undefined {
  const sock = wsSocketOf(env) ?? shimSocketOnPath(env);
  if (!sock) return undefined;
  if (flags.S !== undefined && flags.S !== sock && flags.S !== ownSocket(env, sock)) return undefined;
  if (flags.L !== undefined && joinPath(socketDir(env), `${sanitizeName(flags.L)}.sock`) !== sock) return undefined;
  return sock;
}

/** Split a command line at `;` words (what the shell passes for `\;`). */
function commandsOf(words: string[]): string[][] {
  const out: string[][] = [[]];
  for (const w of words) {
    if (w === ";") out.push([]);
    else if (w.endsWith("\\;")) out[out.length - 1]!.push(w.slice(0, -2) + ";");
    else if (w.length > 1 && w.endsWith(";")) {
      out[out.length - 1]!.push(w.slice(0, -1));
      out.push([]);
    } else out[out.length - 1]!.push(w);
  }
  return out.filter((c) => c.length);
}

/** Run as tmux with these arguments; resolves with the exit status. */
export async function main(args: string[], env: Env = process.env): Promise<number> {
  let parsed: ReturnType<typeof getopt>;
  try {
    parsed = getopt("tmux", GLOBAL_FLAGS, args);
  } catch {
    return runRealTmux(args, env);
  }
  const sock = targetSocket(env, { L: val(parsed, "L"), S: val(parsed, "S") });
  // Control mode, and -c (a login shell's command, no server involved), are real tmux's business.
  if (!sock || has(parsed, "C") || has(parsed, "c")) return runRealTmux(args, env);
  // Found through PATH with TMUX removed: the panes this call starts get TMUX again, as tmux's do.
  if (!env.TMUX) env = { ...env, TMUX: tmuxVar(sock, serverPidOf(sock)) };
  if (has(parsed, "V")) {
    console.log(`tmux ${TMUX_VERSION}`);
    return 0;
  }
  const out: string[] = [];
  const paneMatch = /^%(\d+)$/.exec(env.TMUX_PANE ?? "");
  const paneId = paneMatch ? Number(paneMatch[1]) : env.WS_PANE_ID && /^\d+$/.test(env.WS_PANE_ID) ? Number(env.WS_PANE_ID) : undefined;
  const ctx: Ctx = {
    sock: ownSocket(env, sock),
    env,
    ...(paneId !== undefined ? { paneId } : {}),
    state: new ShimState(ensureShimDir(sock), sock),
    out: (text: string, opts: { keepSgr?: boolean } = {}) => void out.push(safeText(text, opts)),
  };
  const commands = commandsOf(parsed.args);
  if (!commands.length) commands.push(["new-session"]);
  let status = 0;
  try {
    for (const words of commands) await runCommand(ctx, words);
  } catch (e) {
    if (!(e instanceof ShimError)) throw e;
    status = 1;
    if (out.length) console.log(out.join("\n"));
    out.length = 0;
    console.error(safeText(e.message));
  }
  if (out.length) console.log(out.join("\n"));
  return status || (ctx.status ?? 0);
}
