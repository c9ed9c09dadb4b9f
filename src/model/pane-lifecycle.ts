// A pane's life from the Session's side: starting its program (checked first, boxed as asked, in
// its environment), wiring its callbacks to the event bus, starting it again (respawn), stopping one
// a failed request started, and what its program's end means for it (held, kept, closed). The
// Session decides when; this says how, and changes nothing in the model.
import { Pane, type PaneRun, type PaneSpec } from "./pane";
import { envInt } from "./limits";
import type { EventBus } from "./events";
import { checkLaunch, programOf, startError, usableDir, type NewPaneOptions } from "./launch";
import { BOXED_GRANTS, boxLaunch, boxTool, planBox, runtimeDirsOf, type BoxRequest } from "./box";
import { shellLaunch } from "./shell-integration";
import { parentDir } from "../paths";
import type { PopupClose } from "./popup";

/** What starting a pane needs of the server (the Session's options). */
export interface LaunchOptions {
  socketPath: string;
  /** The environment panes inherit (the server's, cleaned). */
  baseEnv: Record<string, string>;
  /** Variables a pane gets over the base environment, by its id (the tmux shim's TMUX_PANE). */
  paneEnv?: (id: number) => Record<string, string>;
  /** The pane's socket, its WS_SOCKET (default: the server's socket), made before it starts. */
  paneSocket?: (id: number) => string | undefined;
  /** The key pane `id`'s environment carries as WS_PANE_KEY, where its socket tells panes apart by it. */
  paneKey?: (id: number) => string | undefined;
  /** Makes a pane from its spec (default: a real one, its program on a PTY). A test gives panes
   * over a fake PTY, to drive the Session in-process. */
  createPane?: (spec: PaneSpec) => Pane;
  /** keys.toml's `box`: a pane not asked either way is boxed. */
  boxByDefault?: boolean;
}

export class PaneLauncher {
  constructor(private readonly opts: LaunchOptions) {}

  /** Refuse, before anything changes, a pane that could not start (launch.ts). `at` prefixes the
   * field names in errors (a layout tree's leaf). */
  check(o: NewPaneOptions, at?: string): void {
    checkLaunch(o, this.opts.baseEnv, at);
    const box = this.boxOf(o);
    if (box) this.boxWrap(box, usableDir(o.cwd));
  }

  /** Start a pane's program in workspace `workspace`. The pane is not in the model until adopted. */
  start(workspace: string, o: NewPaneOptions, cols: number, rows: number, id: number): Pane {
    this.check(o);
    const cwd = usableDir(o.cwd);
    // Never a key asked for: a pane's key is its own.
    const key = this.opts.paneKey?.(id);
    const { WS_PANE_KEY: _notAsked, ...asked } = o.env ?? {};
    const env = { ...this.opts.baseEnv, ...this.opts.paneEnv?.(id), ...asked, WS_SOCKET: this.opts.paneSocket?.(id) ?? this.opts.socketPath, ...(key ? { WS_PANE_KEY: key } : {}), WS_PANE_ID: String(id), WS_WORKSPACE: workspace, PWD: cwd };
    const argv = programOf(o, this.opts.baseEnv);
    const box = this.boxOf(o);
    try {
      const launch = shellLaunch(argv, env, parentDir(this.opts.socketPath));
      const wrap = box ? this.boxWrap(box, cwd, launch?.dir) : undefined;
      const spec: PaneSpec = { id, argv, command: o.argv ?? [], cwd, env, cols, rows, preface: o.preface, launch, keep: o.keep, grants: o.grants ?? (box ? BOXED_GRANTS : undefined), ...(o.resume !== undefined ? { resume: o.resume } : {}), ...(box ? { box, wrap } : {}) };
      return this.opts.createPane ? this.opts.createPane(spec) : new Pane(spec);
    } catch (e) {
      throw startError(argv[0]!, e);
    }
  }

  /**
   * Start a program in a pane again, same id, same screen (tmux respawn-pane -k): a running one is
   * hung up on first. `argv` defaults to the pane's command, `cwd` to where it started. Checked
   * before anything changes.
   */
  respawn(pane: Pane, workspace: string, o: { argv?: string[]; cwd?: string }): void {
    const PATH = pane.env.PATH;
    const launch: NewPaneOptions = { argv: o.argv ?? pane.command, cwd: o.cwd ?? pane.cwd, strictCwd: o.cwd !== undefined, env: PATH !== undefined ? { PATH } : undefined, box: pane.box ?? false };
    this.check(launch);
    const cwd = usableDir(launch.cwd);
    const argv = programOf(launch, this.opts.baseEnv);
    try {
      const env = { ...pane.env, WS_WORKSPACE: workspace, PWD: cwd };
      const shell = shellLaunch(argv, env, parentDir(this.opts.socketPath));
      pane.respawn({ argv, command: launch.argv, cwd, env, launch: shell, wrap: pane.box ? this.boxWrap(pane.box, cwd, shell?.dir) : undefined });
    } catch (e) {
      throw startError(argv[0]!, e);
    }
  }

  /** How a pane is boxed: as asked, else as keys.toml's `box` says. */
  private boxOf(o: NewPaneOptions): BoxRequest | undefined {
    return o.box === false ? undefined : (o.box ?? (this.opts.boxByDefault ? {} : undefined));
  }

  /** What starts a program in its box (src/model/box.ts); box_unavailable or box_refused when it
   * can't be boxed. The box sees the pane's socket (its WS_SOCKET) and ws's shell start-up files. */
  private boxWrap(box: BoxRequest, cwd: string, shellFiles?: string): (run: PaneRun) => PaneRun {
    const env = this.opts.baseEnv;
    const tool = boxTool(env);
    const runtime = runtimeDirsOf(this.opts.socketPath, env);
    planBox(cwd, box, { env, runtime });
    const privateDir = parentDir(this.opts.socketPath);
    return (run) => boxLaunch(run, planBox(cwd, box, { env, runtime, socket: run.env.WS_SOCKET, read: shellFiles ? [shellFiles] : [] }), tool, privateDir);
  }
}

/** Tell the bus what a pane does (its output, title, bell, clipboard, shell marks); `exited` is
 * called when its program ends. */
export function wirePane(pane: Pane, bus: EventBus, exited: (pane: Pane) => void): void {
  pane.onOutput = () => bus.emit({ type: "pane_output", pane: pane.id });
  pane.onTitle = () => bus.emit({ type: "pane_renamed", pane: pane.id, title: pane.title, label: pane.label });
  pane.onExit = () => exited(pane);
  pane.onBell = () => bus.emit({ type: "pane_bell", pane: pane.id });
  pane.onClipboard = (_, data) => bus.emit({ type: "pane_clipboard", pane: pane.id, data });
  pane.shell.onStarted = (command) => bus.emit({ type: "command_started", pane: pane.id, ...(command !== undefined ? { command } : {}) });
  pane.shell.onFinished = (done) =>
    bus.emit({ type: "command_finished", pane: pane.id, ...(done.command !== undefined ? { command: done.command } : {}), exit_code: done.exitCode, result: done });
}

/** Stop a pane that was started for a request that then failed. */
export function discardPane(pane: Pane): void {
  pane.kill("SIGHUP");
  pane.pty.exited.finally(() => pane.dispose());
}

/** A program that ends this soon after it started, and not well, is held (afterExit).
 * `WS_FAILED_START_MS` in the server's environment changes it (tests wait less). */
export const FAILED_START_MS = envInt("WS_FAILED_START_MS", 5_000);

/**
 * What a pane's program ending leaves: the pane `close`s, or `stays`. A popup closes as its
 * `close` says. A kept pane stays, readable, saying how its program ended, until it is closed or
 * respawned. So does one whose program failed soon after it started (a typo, make without a
 * Makefile), until a key in it: it doesn't vanish before anyone could read why (tmux
 * remain-on-exit failed). The pane is marked held, and shows its end, here.
 */
export function afterExit(pane: Pane, popup: { close: PopupClose } | undefined): "close" | "stays" {
  if (popup) return closesOnExit(popup.close, pane.exitCode) ? "close" : "stays";
  pane.setHeld(!pane.keep && failedAtStart(pane));
  if (pane.keep || pane.held) pane.showExit();
  return pane.keep || pane.held ? "stays" : "close";
}

/** Whether a pane's program failed within FAILED_START_MS of starting: a non-zero status, or a
 * signal other than the hang-up or interrupt a person or ws sends to end it. */
function failedAtStart(pane: Pane): boolean {
  if (Date.now() - pane.startedAt > FAILED_START_MS) return false;
  if (pane.exitSignal !== null) return pane.exitSignal !== "SIGHUP" && pane.exitSignal !== "SIGINT";
  return pane.exitCode !== null && pane.exitCode !== 0;
}

/** Whether a popup closes when its program ends this way (tmux's -E, -E -E). */
function closesOnExit(close: PopupClose, exitCode: number | null): boolean {
  return close === "exit" || (close === "success" && exitCode === 0);
}

