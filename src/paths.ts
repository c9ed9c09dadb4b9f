// Where sockets live (spec: "Finding the socket"). Pure string work, no node modules: every CLI
// call computes its socket path, and node:path alone costs a call ~2 ms to load. The rules that
// keep sockets private are in platform/socket-check.ts (checked before connecting) and
// server/socket-files.ts (the server's directory, probing, removal).

export type Env = Record<string, string | undefined>;

/** `a/b` from `a` and `b`, with one slash between them. */
export const joinPath = (dir: string, name: string) => (dir.endsWith("/") ? dir + name : `${dir}/${name}`);

/** The directory part of a path (`/` for a file at the root, `.` for a bare name). */
export function parentDir(path: string): string {
  const trimmed = path.length > 1 && path.endsWith("/") ? path.slice(0, -1) : path;
  const slash = trimmed.lastIndexOf("/");
  return slash < 0 ? "." : slash === 0 ? "/" : trimmed.slice(0, slash);
}

/** The per-user socket directory: $XDG_RUNTIME_DIR/ws, else $TMPDIR/ws-<uid>, else /tmp/ws-<uid>. */
export function socketDir(env: Env = process.env): string {
  if (env.XDG_RUNTIME_DIR) return joinPath(env.XDG_RUNTIME_DIR, "ws");
  let tmp = env.TMPDIR || "/tmp";
  while (tmp.length > 1 && tmp.endsWith("/")) tmp = tmp.slice(0, -1);
  return joinPath(tmp, `ws-${process.getuid!()}`);
}

/** `-L NAME` → `NAME.sock`. The CLI refuses a name outside the rule (protocol/names.ts
 * serverNameProblem), so this changes nothing of a name it let through; for other callers (tmux's
 * -L in the shim) characters other than ASCII letters, digits, `.`, `-` and `_` become `_`. */
export function sanitizeName(name: string): string {
  return name.replace(/[^A-Za-z0-9._-]/g, "_");
}

export interface SocketChoice {
  name?: string; // -L NAME
  local?: boolean; // --local: ws-<pid>.sock
}

/** The socket a command should use. Inside a pane WS_SOCKET wins unless -L or --local says otherwise. */
export function socketPath(choice: SocketChoice = {}, env: Env = process.env): string {
  // --local inside a pane of a --local server means that server (its socket is ws-<its pid>.sock).
  if (choice.local) return env.WS_SOCKET && /(^|\/)ws-\d+(\.sock|\.panes\/\d+\.sock)$/.test(env.WS_SOCKET) ? env.WS_SOCKET : joinPath(socketDir(env), `ws-${process.pid}.sock`);
  if (choice.name === undefined && env.WS_SOCKET) return env.WS_SOCKET;
  // "default" needs no sanitising: the regex (and its first-use cost) only for -L names.
  return joinPath(socketDir(env), `${choice.name === undefined ? "default" : sanitizeName(choice.name)}.sock`);
}

/** The directory of a server's pane sockets, beside its main socket: `<socket dir>/<server name>.panes`
 * (mode 0700). Each pane listens on `<pane id>.sock` in it (paneSocketPath); a box shows a pane
 * that one socket alone (docs/security.md "Grants"). */
export function paneSocketDir(mainSocket: string): string {
  return `${mainSocket.replace(/\.sock$/, "")}.panes`;
}

/** Pane `id`'s own socket: every connection that arrives there is that pane, with its grants. */
export function paneSocketPath(mainSocket: string, id: number): string {
  return joinPath(paneSocketDir(mainSocket), `${id}.sock`);
}

/** The socket every pane shares where the server can tell panes apart by their peers (Linux:
 * server/pane-identity.ts), in the same 0700 directory. */
export function sharedPaneSocketPath(mainSocket: string): string {
  return joinPath(paneSocketDir(mainSocket), "panes.sock");
}

/** The main socket a pane socket belongs to, or undefined when `path` is not a pane socket. */
export function mainSocketOfPane(path: string): string | undefined {
  const m = /^(.*)\.panes\/(?:\d+|panes)\.sock$/.exec(path);
  return m ? `${m[1]}.sock` : undefined;
}

/** How to run this same ws again: the compiled binary, or bun with the source entry. */
export function selfArgv(): string[] {
  const script = process.argv[1] ?? "";
  if (script.startsWith("/$bunfs/") || script.startsWith("B:/~BUN/")) return [process.execPath];
  return [process.execPath, script];
}
