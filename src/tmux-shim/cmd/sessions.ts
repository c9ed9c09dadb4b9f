// The session, client and server commands (tmux's cmd-new-session.c, cmd-list-sessions.c,
// cmd-has-session.c, cmd-kill-session.c, cmd-rename-session.c, cmd-attach-session.c, …): each
// exports its entry; cmd/index.ts puts them in tmux's table.
import { call, ShimError } from "../world";
import { has, val } from "../getopt";
import { resolveSession, currentPane } from "../target";
import { entry, nothing, paneArgv, paneEnv, printList, printNew, startDir, world, type Run } from "./helpers";

const listSessions: Run = async (ctx, p) => {
  const { world: w } = await world(ctx);
  const fmt = "#{session_name}: #{session_windows} windows#{?session_attached, (attached),}";
  await printList(ctx, w, p, val(p, "F") ?? fmt, w.sessions.map((session) => ({ session })));
};

const hasSession: Run = async (ctx, p) => {
  const { world: w, here } = await world(ctx);
  resolveSession(w, val(p, "t"), here);
};

const newSession: Run = async (ctx, p) => {
  const { world: w, here } = await world(ctx);
  let name = val(p, "s");
  if (name === undefined) for (let n = 0; ; n++) if (!w.sessions.some((s) => s.name === String(n))) { name = String(n); break; }
  if (w.sessions.some((s) => s.name === name)) {
    if (has(p, "A")) return;
    throw new ShimError(`duplicate session: ${name}`);
  }
  await call(ctx.sock, "workspace_new", { name });
  const { world: after } = await world(ctx);
  const session = after.sessions.find((s) => s.name === name);
  const pane = session?.windows[0]?.panes[0];
  if (!pane) throw new ShimError(`can't find session: ${name}`);
  // workspace_new starts a shell: start instead what tmux would, in this environment.
  await call(ctx.sock, "pane_respawn", { pane: pane.id, command: await paneArgv(ctx, p.args, paneEnv(ctx, p)), cwd: startDir(ctx, after, p, currentPane(after, here)) });
  if (val(p, "n")) await call(ctx.sock, "tab_rename", { workspace: name, tab: "1", to: val(p, "n") });
  if (!has(p, "d")) await call(ctx.sock, "workspace_focus", { name });
  await printNew(ctx, p, pane.id, "#{session_name}:");
};

const killSession: Run = async (ctx, p) => {
  const { world: w, here } = await world(ctx);
  const session = resolveSession(w, val(p, "t"), here);
  await call(ctx.sock, "workspace_close", { name: session.name });
};

const renameSession: Run = async (ctx, p) => {
  const { world: w, here } = await world(ctx);
  const session = resolveSession(w, val(p, "t"), here);
  await call(ctx.sock, "workspace_rename", { name: session.name, to: p.args[0] ?? "" });
};

// ---- the entries ---------------------------------------------------------------------------

export const attachSessionEntry = entry("attach-session", "attach");
export const detachClientEntry = entry("detach-client", "detach");
export const hasSessionEntry = entry("has-session", "has", "t:", hasSession);
export const killServerEntry = entry("kill-server", undefined);
export const killSessionEntry = entry("kill-session", undefined, "aCt:", killSession);
export const listClientsEntry = entry("list-clients", "lsc");
export const listSessionsEntry = entry("list-sessions", "ls", "F:f:", listSessions);
export const lockClientEntry = entry("lock-client", "lockc");
export const lockServerEntry = entry("lock-server", "lock");
export const lockSessionEntry = entry("lock-session", "locks");
export const newSessionEntry = entry("new-session", "new", "Ac:dDe:EF:f:n:Ps:t:x:Xy:", newSession);
export const refreshClientEntry = entry("refresh-client", "refresh", "A:B:cC:Df:F:l:LRSt:U", nothing);
export const renameSessionEntry = entry("rename-session", "rename", "t:", renameSession);
export const serverAccessEntry = entry("server-access", undefined);
export const startServerEntry = entry("start-server", "start", "", nothing);
export const suspendClientEntry = entry("suspend-client", "suspendc");
export const switchClientEntry = entry("switch-client", "switchc");
