// The daemon's life: claim the socket safely, build or restore the session, serve, and shut down
// cleanly (every pane's process group ended, the socket removed).
import { chmodSync, writeFileSync, mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { keepLogSmall, log } from "../log";
import type { HandlerContext } from "../messages/types";
import { ensureSocketDir, probeSocket, removeIfPresent } from "./socket-files";
import { checkSocketPath } from "../platform/socket-check";
import { serverLogPath } from "../xdg-dirs";
import { BUILD, WS_VERSION } from "../build-info";
import { createListener } from "./listener";
import { PaneSockets, type PaneSocketSet } from "./pane-sockets";
import { SharedPaneSocket } from "./pane-socket-shared";
import { trustRefusal } from "./trust";
import { GrantService } from "../features/grants/service";
import { PERSON_PANE_DEFAULT, isGrantLevel, type GrantLevel } from "../protocol/grants";
import { parseKeysToml, readKeysToml } from "../keys-toml";
import { Session } from "../model/session";
import { paneBaseEnv } from "../model/launch";
import { boxSettings } from "../model/box";
import { raiseFileLimit, setPaneSocketsOwnFds } from "../model/fd-limit";
import { FEATURES } from "./features";
import type { Feature, FeatureHost } from "../features/feature";
import { Control } from "../features/control";
import { Services, type TmuxLineService } from "../features/services";
import type { Connection } from "../protocol/connection";
import { failAtStartForTests, installTestFaults, testFaultsWanted } from "./test-faults";
import { hostOs } from "../platform/os";
import { CodePagesWatch } from "./code-pages-watch";

/** Errors nothing caught that are logged whole in one minute; past this they are only counted. */
export const MAX_FAULT_LOGS = 20;
/** After an error nothing caught, the session is saved at most this often. */
export const FAULT_SAVE_EVERY_MS = 5000;

export interface DaemonOptions {
  socketPath: string;
  /** Where the first pane starts. */
  cwd?: string;
  /** What the first pane runs (`ws start -- CMD`; default: the user's shell). */
  command?: string[];
  /** A `ws --local` server: private to the client that started it, ends with it, never saved for later. */
  local?: boolean;
  /** `ws start --fresh`: start clean, without restoring the saved session (the first save replaces it). */
  fresh?: boolean;
  /** What the entry point plugs in (cli/server-cmds.ts sets the tmux shim's), so the daemon core
   * loads no shim or keymap module itself. */
  hooks?: DaemonHooks;
}

export interface DaemonHooks {
  /** Extra variables for each pane, given its id (the shim's TMUX and PATH), or undefined for none. */
  paneEnv?(socket: string, basePath: string | undefined): ((id: number) => Record<string, string>) | undefined;
  /** After every pane and connection has ended: remove what this server left beside its socket. */
  afterStop?(socket: string): void;
  /** tmux command lines on this server's model (the shim's parser), for prefix : and keys.toml. */
  tmuxLines?(d: Daemon): TmuxLineService;
}

export class ServerStartError extends Error {}

/** keys.toml's `grants`: what the panes the person opens get (control unless it says less). Read
 * when the server starts; a file that can't be read is the keymap's to report. */
function personGrants(env: Record<string, string | undefined>): GrantLevel {
  try {
    const g = parseKeysToml(readKeysToml(env)).grants;
    return isGrantLevel(g) ? g : PERSON_PANE_DEFAULT;
  } catch {
    return PERSON_PANE_DEFAULT;
  }
}

export function infoPath(socketPath: string): string {
  return socketPath.replace(/\.sock$/, "") + ".info.json";
}

export class Daemon implements FeatureHost {
  readonly session: Session;
  readonly services: Services;
  readonly bootId = crypto.randomUUID();
  readonly startedAt = Date.now();
  readonly connections = new Set<Connection>();
  // Logs are for people watching `ws server` (or its log file): all of them go to stderr, never
  // stdout, through the one logger (src/log.ts).
  readonly log = log;
  private listener: ReturnType<ReturnType<typeof createListener>["listen"]> | undefined;
  /** The panes' socket: one shared (Linux: each connection placed by its peer) or one each;
   * connections there are a pane, with its grants. */
  readonly paneSockets: PaneSocketSet;
  /** Closes the connections that are a pane, when it closes (set once the listener is made). */
  private closePaneConnections: (pane: number) => void = () => {};
  readonly grants: GrantService;
  private features: Feature[] = [];
  private stopping: Promise<void> | undefined;
  /** Resolves when the daemon has fully stopped. */
  readonly done: Promise<void>;
  private resolveDone!: () => void;
  /** The last resort's bookkeeping: errors logged in this minute, those only counted, the save. */
  private faults = { windowStart: 0, logged: 0, counted: 0, savedAt: 0, saveTimer: undefined as ReturnType<typeof setTimeout> | undefined };
  private readonly onUncaught = (e: unknown) => this.unexpected("uncaught exception", e);
  private readonly onUnhandled = (e: unknown) => this.unexpected("unhandled promise rejection", e);

  constructor(readonly opts: DaemonOptions) {
    const warn = (m: string) => this.log.warn(m);
    // Where the kernel names a peer and its environment (Linux), panes share one socket: one
    // descriptor for all, not one a pane (docs/limits.md).
    this.paneSockets = hostOs === "linux" ? new SharedPaneSocket(opts.socketPath, warn, () => this.panePids()) : new PaneSockets(opts.socketPath, warn);
    setPaneSocketsOwnFds(this.paneSockets instanceof PaneSockets);
    this.session = new Session({
      socketPath: opts.socketPath,
      paneSocket: (id) => this.paneSockets.socketFor(id),
      paneKey: (id) => this.paneSockets.keyFor?.(id),
      baseEnv: paneBaseEnv(process.env),
      paneEnv: opts.hooks?.paneEnv?.(opts.socketPath, process.env.PATH),
      boxByDefault: boxSettings(process.env).box,
      onEmpty: () => {
        this.log.info("the last pane exited; quitting");
        void this.shutdown(false);
      },
    });
    this.done = new Promise((r) => (this.resolveDone = r));
    // Before any other listener, so a listener that throws comes first on the bus (test-faults.ts).
    if (testFaultsWanted()) installTestFaults(this.session);
    // Protocol v6's event log and exit records: made before the first workspace, so every change
    // of this daemon's life has a seq.
    this.services = new Services(new Control(this.session, this.bootId, this.startedAt));
    // Grants are the daemon's own, not an optional feature: every connection is checked.
    this.grants = new GrantService(this.session, (pane) => this.services.get("agents")?.status(pane) !== undefined, personGrants(process.env));
    this.services.provide("grants", this.grants);
    const tmux = opts.hooks?.tmuxLines?.(this);
    if (tmux) this.services.provide("tmux", tmux);
    this.session.bus.on((e) => {
      if (e.type !== "pane_closed") return;
      this.paneSockets.close(e.pane);
      this.closePaneConnections(e.pane);
    });
  }

  /** Each running pane's program pid to its id. */
  private panePids(): Map<number, number> {
    const out = new Map<number, number>();
    for (const [id, p] of this.session.panes) if (!p.exited) out.set(p.pid, id);
    return out;
  }

  context(conn?: Connection, pane?: number): HandlerContext {
    return { session: this.session, services: this.services, connection: conn, shutdown: (keep) => void this.shutdown(keep), ...(pane !== undefined ? { callerPane: pane } : {}) };
  }

  async start(): Promise<void> {
    const path = this.opts.socketPath;
    keepLogSmall(serverLogPath(path));
    // Hundreds of panes need more descriptors than a shell's soft default (often 1024).
    const files = raiseFileLimit();
    if (files) this.log.debug(`open files: at most ${files.soft} (hard limit ${files.hard})`);
    checkSocketPath(path);
    ensureSocketDir(dirname(path));
    const state = await probeSocket(path);
    if (state === "live") throw new ServerStartError(`a ws server is already running on ${path}`);
    if (state === "stale") {
      this.log.info(`removing stale socket ${path} (left by a server that crashed)`);
      removeIfPresent(path);
      removeIfPresent(infoPath(path));
    }
    this.features = await Promise.all(FEATURES.map((load) => load()));
    // Made before any pane starts: the panes' socket is bound before a program runs (a box
    // binds it in), a restore's panes too.
    const server = createListener({
      context: (conn, pane) => this.context(conn, pane),
      authorize: (entry, params, conn, pane) => trustRefusal(entry, params, { session: this.session, grants: this.grants, connection: conn, pane, paneOfKey: (key) => this.paneSockets.paneOfKey?.(key) }),
      admit: (conn) => {
        this.connections.add(conn);
        return undefined;
      },
      onClose: (conn) => this.connections.delete(conn),
    });
    this.paneSockets.ready((p, paneOf) => server.listen(p, paneOf));
    this.closePaneConnections = (pane) => server.closePane(pane);
    let restored = false;
    if (this.opts.fresh) this.log.info("starting fresh: the saved session is not restored (the first save replaces it)");
    else for (const f of this.features) if (f.restore && !restored) restored = await f.restore(this);
    // `ws start -- make build`: the pane stays with its status when make ends, rather than the
    // server quitting with its only pane.
    // The first pane is the person's own, unboxed whatever keys.toml's `box` says (a box in their
    // home directory would be refused, and the server with it).
    if (!restored) this.session.newWorkspace("main", { cwd: this.opts.cwd ?? process.cwd(), argv: this.opts.command, box: false, ...(this.opts.command?.length ? { keep: true } : {}) });
    else if (this.opts.command?.length) this.log.warn(`the saved session was restored; ${this.opts.command[0]} was not started (ws tab new -- … runs it)`);
    for (const f of this.features) f.provide?.(this);
    // The socket must never be reachable by others, not even between bind and chmod.
    const oldMask = process.umask(0o177);
    try {
      this.listener = server.listen(path);
    } catch (e) {
      throw new ServerStartError(`can't listen on ${path}: ${(e as Error).message}`);
    } finally {
      process.umask(oldMask);
    }
    try {
      chmodSync(path, 0o600);
      this.afterBind();
      for (const f of this.features) await f.start?.(this);
      failAtStartForTests();
      // Written last: `ws start` and doctor take an info file naming this process as a server that
      // is up, so one that fails on the way (below) never looks started.
      writeFileSync(infoPath(path), JSON.stringify({ pid: process.pid, build: BUILD, version: WS_VERSION, boot_id: this.bootId, started: this.startedAt }) + "\n", { mode: 0o600 });
    } catch (e) {
      // Bound but not started: leave no socket for the next start to take as live, and no panes.
      this.listener?.stop(true);
      this.paneSockets.closeAll();
      removeIfPresent(path);
      removeIfPresent(infoPath(path));
      this.session.killAll("SIGHUP");
      throw new ServerStartError(`the server failed while starting on ${path}: ${(e as Error).message}`);
    }
    this.log.info(`ws ${WS_VERSION} (${BUILD}) listening on ${path}`);
    // Starting ran code from all over the executable, most of which a running server never runs
    // again: unmap those pages (they stay in the page cache) rather than keep them resident, and
    // again whenever the server's work has brought many back.
    new CodePagesWatch(this.log, () => !!this.stopping).start();
  }

  /** Signals and last-resort error handlers, once the socket is bound. */
  private afterBind(): void {
    // A signal (logout, reboot, Ctrl-C on `ws server`) is not a person closing their panes: keep
    // the session, as shutdown_keep does. Only `shutdown` (ws kill-server) and the last pane
    // exiting end it.
    for (const sig of ["SIGTERM", "SIGINT", "SIGHUP"] as const) process.on(sig, () => void this.shutdown(true));
    // Bun ends the process on an error nothing caught (a timer's, a promise chain's): every pane
    // would go with it. Each loop guards its own turn; this is what catches the rest.
    process.on("uncaughtException", this.onUncaught);
    process.on("unhandledRejection", this.onUnhandled);
  }

  /**
   * The last resort for an error nothing caught: log it with its stack, save the session (at most
   * every FAULT_SAVE_EVERY_MS) in case the next one is worse, and serve on. A storm of them is
   * logged whole MAX_FAULT_LOGS times a minute and counted beyond.
   */
  private unexpected(kind: string, e: unknown): void {
    try {
      const f = this.faults;
      const now = Date.now();
      if (now - f.windowStart >= 60_000) {
        if (f.counted) this.log.error(`${f.counted} more errors nothing caught in the last minute (not logged one by one)`);
        f.windowStart = now;
        f.logged = 0;
        f.counted = 0;
      }
      if (f.logged < MAX_FAULT_LOGS) {
        f.logged++;
        this.log.error(`${kind}; ws serves on:`, e);
      } else f.counted++;
      this.saveAfterFault();
    } catch {
      // The last resort must not throw itself: that would end the process after all.
    }
  }

  private saveAfterFault(): void {
    const f = this.faults;
    if (this.stopping || f.saveTimer) return;
    const save = () => {
      f.saveTimer = undefined;
      if (this.stopping) return;
      f.savedAt = Date.now();
      void this.services.get("persistence")?.save().catch(() => {});
    };
    const wait = f.savedAt + FAULT_SAVE_EVERY_MS - Date.now();
    if (wait <= 0) save();
    else f.saveTimer = setTimeout(save, wait);
  }

  /** Quit: save first when asked, tell clients, end every pane's process group, remove the socket. */
  shutdown(keep: boolean): Promise<void> {
    this.stopping ??= (async () => {
      for (const f of this.features) {
        try {
          await f.beforeShutdown?.(this, keep);
        } catch (e) {
          this.log.error(`${f.name}: ${(e as Error).message}`);
        }
      }
      clearTimeout(this.faults.saveTimer);
      this.session.bus.emit({ type: "server_quitting" });
      this.listener?.stop(true);
      this.paneSockets.closeAll();
      removeIfPresent(this.opts.socketPath);
      removeIfPresent(infoPath(this.opts.socketPath));
      const ended = this.session.killAll("SIGHUP");
      const late = setTimeout(() => this.session.killAll("SIGKILL"), 2000);
      await Promise.race([ended, Bun.sleep(3000)]);
      clearTimeout(late);
      for (const f of this.features) {
        try {
          await f.stop?.(this);
        } catch {}
      }
      for (const c of this.connections) c.end();
      try {
        this.opts.hooks?.afterStop?.(this.opts.socketPath); // the shim's <name>.tmux/, the shell-*/ files
      } catch {}
      process.off("uncaughtException", this.onUncaught);
      process.off("unhandledRejection", this.onUnhandled);
      this.resolveDone();
    })();
    return this.stopping;
  }
}

/** `ws server`: run in the foreground until shut down. */
export async function runServer(opts: DaemonOptions): Promise<number> {
  const d = new Daemon(opts);
  try {
    await d.start();
  } catch (e) {
    log.error((e as Error).message);
    return 1;
  }
  await d.done;
  return 0;
}

export function ensureParent(path: string): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
}
