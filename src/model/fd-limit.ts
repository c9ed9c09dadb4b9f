// The daemon's file descriptors: how many it may open (RLIMIT_NOFILE), raised to the hard limit at
// start, and how they are shared. Every pane holds its PTY master (one descriptor, shared with the
// stream that reads it: pty-libc.ts readMaster), on Linux a pidfd for its process unless Bun reaps
// children on one thread (ONE_REAPER_ENV), and its own listening socket where it has one
// (server/pane-sockets.ts); every connection 1. Run out, and the kernel refuses the next `accept`: the listening
// socket stays readable, the event loop wakes for it again and again (100% CPU), and no client is
// answered. Bun's listener (usockets) retries such an accept at once and tells JavaScript nothing
// (no error callback, no backoff: bun PR 32705 is open), so ws can't back off there; it makes sure
// accept never runs out instead. Panes may use only what connections, refused connections and
// short-lived files (a save, git's pipes) leave them: past that, creating a pane is refused with
// `resource_exhausted`, and the listener serves at most `connectionShare` connections.
import { fileLimits, openFileCount } from "../platform";
import type { Limits } from "../platform/sys";
import { WsError } from "../protocol/errors";
import { hostOs } from "../platform/os";

/** Bun watches each child on Linux through a pidfd of its own (one descriptor a pane, for the
 * pane's life) unless told to reap them all on one thread; it reads that flag only beside the
 * garbage collector's level (0 is its default). `ws start` gives the server these; panes don't get them. */
export const ONE_REAPER_ENV = { BUN_FEATURE_FLAG_FORCE_WAITER_THREAD: "1", BUN_GARBAGE_COLLECTOR_LEVEL: "0" } as const;

/** Whether Bun in this process holds a pidfd for each child it runs. */
function pidfdPerChild(env: Record<string, string | undefined> = process.env): boolean {
  return hostOs === "linux" && !env.BUN_FEATURE_FLAG_FORCE_WAITER_THREAD;
}

/** Descriptors one pane holds: its PTY master, a pidfd where Bun keeps one, its own socket where it has one. */
export function fdsPerPane(ownSocket = paneSocketsOwnFds): number {
  return 1 + (pidfdPerChild() ? 1 : 0) + (ownSocket ? 1 : 0);
}
/** Whether panes listen on sockets of their own (set by the daemon at start). */
let paneSocketsOwnFds = true;
export function setPaneSocketsOwnFds(own: boolean): void {
  paneSocketsOwnFds = own;
}
/** Kept for short-lived files and pipes (saves, git, gh, /proc reads) and refused connections:
 * 128, or an eighth of a small limit. */
const spareFds = (limit: number) => Math.min(128, Math.floor(limit / 8));
/** What the daemon holds itself (stdio, its log, the socket, workers, Bun's own): 64, or an eighth. */
const daemonFds = (limit: number) => Math.min(64, Math.floor(limit / 8));
/** Raise the soft limit to the hard one (as most servers do at start): the soft default (1024 on
 * many systems) is meant for programs that never hold hundreds of terminals. Returns the limits now. */
export function raiseFileLimit(): Limits | undefined {
  const c = fileLimits();
  const now = c?.get();
  if (!c || !now) return undefined;
  if (now.soft < now.hard && c.set({ soft: now.hard, hard: now.hard })) return c.get();
  return now;
}

/** Descriptors this process may have open (the soft limit); Infinity when it can't be read. */
export function fileLimit(): number {
  return fileLimits()?.get()?.soft ?? Infinity;
}

/** Connections the descriptors allow beside the panes: a quarter of them (at least 16). */
export function connectionShare(limit = fileLimit()): number {
  return Number.isFinite(limit) ? Math.max(16, Math.floor(limit / 4)) : Number.MAX_SAFE_INTEGER;
}

/** Descriptors open now (undefined where the system can't tell). */
export function openFiles(): number | undefined {
  return openFileCount();
}

/**
 * Refuse, before anything starts, `n` more panes (beside `panes` running) that the descriptors
 * can't hold while keeping the connections' share, what the daemon itself holds and a spare; or
 * that would leave fewer than the spare free now, whatever holds them.
 */
export function checkFileRoom(n: number, panes: number): void {
  const limit = fileLimit();
  if (!Number.isFinite(limit)) return;
  const keep = connectionShare(limit) + spareFds(limit) + daemonFds(limit);
  const each = fdsPerPane();
  const most = Math.max(0, Math.floor((limit - keep) / each));
  if (panes + n > most) throw resourceExhausted(limit, `that leaves room for ${most} panes (${each} ${each === 1 ? "file" : "files"} each; ${keep} are kept for connections and ws itself)`, most);
  const open = openFiles();
  if (open !== undefined && open + n * each + spareFds(limit) > limit) throw resourceExhausted(limit, `${open} are open now`);
}

/** The error for a pane the system's limits refuse (also when the kernel said EMFILE or ENFILE). */
export function resourceExhausted(limit: number, detail: string, panes?: number): WsError {
  const lim = Number.isFinite(limit) ? `${limit}` : "its";
  return new WsError(
    `no room for another pane: ws may open ${lim} files (RLIMIT_NOFILE) and ${detail}; close panes, or raise the limit (ulimit -Hn before ws start)`,
    "resource_exhausted",
    Number.isFinite(limit) ? { limit, ...(panes !== undefined ? { panes } : {}) } : {},
  );
}
