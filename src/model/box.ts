// Boxes (docs/security.md#boxes): a pane's program in a sandbox that sees its checkout read-write,
// its agent's own state read-write, the rest of $HOME read-only with the person's secrets and ws's
// own files hidden, a private /tmp and runtime directory, and of ws only the panes' socket.
// This module decides what a box holds (a BoxPlan) and how to start a program in one; the
// platform layer turns the plan into bwrap's arguments (Linux) or a Seatbelt profile (macOS).
// A boxed pane never starts unboxed: where the sandbox tool is missing or can't run, it refuses.
import { chmodSync, existsSync, lstatSync, mkdirSync, realpathSync, renameSync, statSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { isAbsolute, resolve } from "node:path";
import { WsError } from "../protocol/errors";
import type { GrantLevel } from "../protocol/grants";
import { bwrapArgv, type BoxPlan } from "../platform/box-bwrap";
import { seatbeltArgv } from "../platform/box-seatbelt";
import { tiocstiFilter } from "../platform/box-seccomp";
import { readTextFileIfAny } from "../safe-file";
import { joinPath, parentDir, socketDir } from "../paths";
import { wsDir } from "../xdg-dirs";
import { parseKeysToml, readKeysToml } from "../keys-toml";
import { hostOs } from "../platform/os";

export type { BoxPlan } from "../platform/box-bwrap";

/** How a pane is boxed (tab_new/split `box`, a template's leaf). */
export interface BoxRequest {
  /** false: no network (its own empty network namespace). Default true: agents need their APIs. */
  network?: boolean;
  /** More paths it may write (a template's `box_write`), absolute or under $HOME (`~/…`). */
  write?: string[];
}

/** Secrets under $HOME that no box sees. */
export const HIDDEN_IN_HOME = [".ssh", ".gnupg", ".aws", ".config/gh", ".netrc", ".docker", ".git-credentials", ".config/git/credentials", ".kube", ".config/gcloud", ".azure", ".password-store"];
/** The agents' own state under $HOME: read-write in every box (logins, settings, sessions). */
export const AGENT_STATE = [".claude", ".claude.json", ".codex", ".gemini", ".config/opencode", ".local/share/opencode", ".local/state/opencode"];
/** A boxed pane's grants unless it is given others: its own pane and the panes it starts (boxed
 * too), never the panes outside its box, which it could type into (docs/security.md "Grants"). */
export const BOXED_GRANTS: GrantLevel = "self";
/** What keys.toml's box_agents boxes when typed in a pane. */
export const BOXED_AGENTS = ["claude", "codex", "gemini", "opencode"];
/** Variables that lead to the person's agents and sockets outside; a box's program never gets them. */
const DROPPED_ENV = ["SSH_AUTH_SOCK", "SSH_AGENT_PID", "GPG_AGENT_INFO", "DBUS_SESSION_BUS_ADDRESS", "DISPLAY", "WAYLAND_DISPLAY", "XAUTHORITY", "TMUX", "TMUX_PANE", "TMPDIR", "KRB5CCNAME", "GNOME_KEYRING_CONTROL"];

type Env = Record<string, string | undefined>;

const refused = (message: string) => new WsError(message, "box_refused", { param: "box" });

function kind(path: string): "dir" | "file" | undefined {
  try {
    return statSync(path).isDirectory() ? "dir" : "file";
  } catch {
    return undefined;
  }
}

function real(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}

/** `a` is `b` or lies under it. */
const within = (a: string, b: string) => a === b || b === "/" || a.startsWith(b.endsWith("/") ? b : `${b}/`);

/** The homes whose secrets are hidden: $HOME and the account's (they differ under sudo -E, or a test's HOME). */
function homes(env: Env): string[] {
  return [...new Set([env.HOME || homedir(), homedir()].filter(Boolean).map(real))];
}

/** What a box hides, as existing paths (a link resolved to what it names). `runtime` is ws's
 * runtime directories (the server's socket directory). */
function hiddenPaths(env: Env, runtime: readonly string[]): { path: string; dir: boolean }[] {
  const wanted = [...homes(env).flatMap((h) => HIDDEN_IN_HOME.map((p) => joinPath(h, p))), wsDir("config", env), wsDir("state", env), wsDir("data", env), ...runtime];
  const out = new Map<string, boolean>();
  for (const p of wanted) {
    const k = kind(p);
    if (k) out.set(real(p), k === "dir");
  }
  return [...out].map(([path, dir]) => ({ path, dir }));
}

/** The checkout `cwd` is in: the nearest directory up from it with a `.git`, below $HOME; else `cwd`. */
export function checkoutRoot(cwd: string, home: string): string {
  const start = real(cwd);
  for (let d = start; d !== "/" && d !== home && !within(home, d); d = parentDir(d)) if (existsSync(joinPath(d, ".git"))) return d;
  return start;
}

/** A linked worktree's git directories it must write to commit (its own gitdir, and the objects,
 * refs and logs of the repository); [] for a plain clone, whose .git is inside it. Taken only when
 * the repository names this worktree back (its gitdir file), so a `.git` file written in the
 * worktree can't point the box at another repository. The repository's config and hooks stay
 * read-only. */
function worktreeGitDirs(root: string): string[] {
  const dotgit = joinPath(root, ".git");
  let text: string | undefined;
  try {
    if (!lstatSync(dotgit).isFile()) return [];
    text = readTextFileIfAny(dotgit, 4096, true);
  } catch {
    return [];
  }
  const m = text && /^gitdir: (.+)$/m.exec(text);
  if (!m) return [];
  const gitdir = real(isAbsolute(m[1]!) ? m[1]! : resolve(root, m[1]!));
  const back = readTextFileIfAny(joinPath(gitdir, "gitdir"), 4096, true)?.trim();
  if (!back || real(back) !== real(dotgit)) return [];
  const common = readTextFileIfAny(joinPath(gitdir, "commondir"), 4096, true)?.trim();
  if (!common) return [gitdir];
  const base = real(isAbsolute(common) ? common : resolve(gitdir, common));
  return [gitdir, ...["objects", "refs", "logs"].map((d) => joinPath(base, d)).filter((d) => kind(d) === "dir")];
}

/** Why a box may not write `path`: it is the filesystem's root, a home or above one, or holds or
 * lies in something hidden (ws's data directory, where worktrees live, excepted). */
function writeProblem(path: string, env: Env, hidden: readonly { path: string }[]): string | undefined {
  for (const h of homes(env)) if (within(h, path)) return `${path} is ${path === h ? "your home directory" : `above your home directory (${h})`}: a box would let its program write all of it`;
  const data = real(wsDir("data", env));
  for (const h of hidden) {
    if (h.path === data && within(path, data) && path !== data) continue;
    if (within(path, h.path) || within(h.path, path)) return `${path} ${within(path, h.path) ? "is inside" : "holds"} ${h.path}, which a box hides`;
  }
  return undefined;
}

export interface BoxPlace {
  /** The environment of the one who asks for the box (the server's): its HOME and XDG directories. */
  env: Env;
  /** ws's runtime directories to hide (the server's socket directory). */
  runtime: string[];
  /** The pane's socket (its WS_SOCKET). */
  socket?: string;
  /** ws's own files the program reads (shell integration). */
  read?: string[];
}

/** What a box for a program starting in `cwd` holds; box_refused when it can't be made safely. */
export function planBox(cwd: string, request: BoxRequest, place: BoxPlace): BoxPlan {
  const env = place.env;
  const home = homes(env)[0]!;
  const hide = hiddenPaths(env, place.runtime);
  const root = checkoutRoot(cwd, home);
  const why = writeProblem(root, env, hide);
  if (why) throw refused(`can't box a program in ${cwd}: ${why}. Start it in a project's directory`);
  const extra: string[] = [];
  for (const w of request.write ?? []) {
    const path = real(w.startsWith("~/") ? joinPath(home, w.slice(2)) : w);
    if (!isAbsolute(path)) throw refused(`box write path ${JSON.stringify(w)} must be absolute or start with ~/`);
    const bad = writeProblem(path, env, hide);
    if (bad) throw refused(`a box can't write ${w}: ${bad}`);
    if (kind(path)) extra.push(path);
  }
  const state = AGENT_STATE.map((p) => joinPath(home, p)).filter((p) => kind(p));
  const privateDirs = ["/tmp", "/var/tmp", `/run/user/${process.getuid?.() ?? 0}`, env.XDG_RUNTIME_DIR ?? ""].filter((d, i, all) => d && all.indexOf(d) === i && kind(d) === "dir").map(real);
  return {
    cwd: real(cwd),
    privateDirs,
    reshow: homes(env).filter((h) => privateDirs.some((d) => within(h, d))),
    hide,
    write: [...new Set([root, ...worktreeGitDirs(root), ...state.map(real), ...extra])],
    read: (place.read ?? []).filter((r) => kind(r)),
    ...(place.socket ? { socket: place.socket } : {}),
    network: request.network !== false,
  };
}

// ---- the sandbox tool -------------------------------------------------------------------------

/** bwrap runs here (a tool path that worked once is trusted for the server's life). */
const working = new Set<string>();

/** The sandbox tool and how to start it, or box_unavailable naming what to install. `WS_BWRAP` in
 * `env` names the bwrap to use (default: bwrap on PATH). */
export interface BoxTool {
  kind: "bwrap" | "seatbelt";
  path: string;
}

export function boxTool(env: Env): BoxTool {
  if (hostOs === "darwin") {
    const path = "/usr/bin/sandbox-exec";
    if (!existsSync(path)) throw new WsError("can't box this pane: /usr/bin/sandbox-exec is missing (it comes with macOS)", "box_unavailable", { command: "ws doctor" });
    return { kind: "seatbelt", path };
  }
  if (hostOs !== "linux") throw new WsError(`can't box this pane: ws has no sandbox for ${hostOs}`, "box_unavailable", { command: "ws doctor" });
  const path = env.WS_BWRAP || Bun.which("bwrap", { PATH: env.PATH ?? "" }) || "/usr/bin/bwrap";
  if (working.has(path)) return { kind: "bwrap", path };
  if (!existsSync(path))
    throw new WsError(`can't box this pane: bubblewrap is not installed (no ${env.WS_BWRAP ? path : "bwrap on PATH"}). Install it: apt install bubblewrap (Debian, Ubuntu), dnf install bubblewrap (Fedora), pacman -S bubblewrap (Arch)`, "box_unavailable", {
      command: "ws doctor",
    });
  const problem = probeBwrap(path);
  if (problem) throw new WsError(`can't box this pane: ${path} can't make a sandbox here (${problem}). Unprivileged user namespaces may be off: sysctl kernel.unprivileged_userns_clone=1, or on Ubuntu 24.04 kernel.apparmor_restrict_unprivileged_userns=0 or an AppArmor profile for bwrap`, "box_unavailable", { command: "ws doctor" });
  working.add(path);
  return { kind: "bwrap", path };
}

/** Run a trivial box; undefined when it worked, else what bwrap said. */
export function probeBwrap(path: string): string | undefined {
  try {
    const r = Bun.spawnSync([path, "--unshare-pid", "--ro-bind", "/", "/", "--proc", "/proc", "--dev", "/dev", "--", "/bin/sh", "-c", "exit 0"], { stdout: "ignore", stderr: "pipe", env: {} });
    if (r.exitCode === 0) return undefined;
    return r.stderr.toString().trim().split("\n").pop() || `exit status ${r.exitCode}`;
  } catch (e) {
    return (e as Error).message;
  }
}

/** The seccomp filter's file in `dir` (ws's private runtime directory), written once; undefined on
 * an architecture ws has no filter for. */
function filterFile(dir: string): string | undefined {
  const bytes = tiocstiFilter();
  if (!bytes) return undefined;
  const path = joinPath(dir, `box-tiocsti-${process.arch}-${Bun.hash(bytes).toString(36)}.bpf`);
  if (existsSync(path)) return path;
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, bytes, { mode: 0o600 });
  chmodSync(tmp, 0o600);
  renameSync(tmp, path);
  return path;
}

/**
 * How to start a program (its argv and whole environment) in the box `plan` says. `privateDir` is
 * ws's own runtime directory (the seccomp filter's file; macOS's private TMPDIR).
 */
export function boxLaunch(run: { argv: readonly string[]; env: Record<string, string> }, plan: BoxPlan, tool: BoxTool, privateDir: string): { argv: string[]; env: Record<string, string> } {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(run.env)) if (!DROPPED_ENV.includes(k)) env[k] = v;
  env.WS_BOXED = "1";
  if (tool.kind === "seatbelt") {
    const tmp = joinPath(privateDir, `box-tmp-${crypto.randomUUID().slice(0, 8)}`);
    mkdirSync(tmp, { recursive: true, mode: 0o700 });
    return { argv: [tool.path, ...seatbeltArgv(plan, tmp, run.argv)], env: { ...env, TMPDIR: tmp } };
  }
  const filter = filterFile(privateDir);
  // bwrap reads the filter from a descriptor: sh opens it as fd 3 and becomes bwrap.
  if (filter) return { argv: ["/bin/sh", "-c", 'exec "$@" 3<"$0"', filter, tool.path, ...bwrapArgv(plan, run.argv, 3)], env };
  return { argv: [tool.path, ...bwrapArgv(plan, run.argv)], env };
}

/** ws's runtime directories to hide, from a socket path: its directory, the main socket's when it
 * is a pane's (`<dir>/<server>.panes/panes.sock` or `<id>.sock`), and the default socket directory. */
export function runtimeDirsOf(socket: string | undefined, env: Env): string[] {
  const dirs = [socketDir(env)];
  if (socket) {
    const dir = parentDir(socket);
    dirs.push(dir.endsWith(".panes") ? parentDir(dir) : dir);
  }
  return [...new Set(dirs)];
}

/** keys.toml's `box` (every new pane boxed unless asked otherwise) and `box_agents` (claude, codex,
 * gemini and opencode typed in a pane start boxed). Read when the server starts; a file that
 * can't be read or parsed is the keymap's to report: both are then off. */
export function boxSettings(env: Env = process.env): { box: boolean; boxAgents: boolean } {
  try {
    const t = parseKeysToml(readKeysToml(env));
    return { box: t.box === true, boxAgents: t.box_agents === true };
  } catch {
    return { box: false, boxAgents: false };
  }
}
