// A pane: a program on a PTY whose output is parsed by its own headless xterm. The emulator is the
// pane's screen and scrollback; the UI, `pane read` and persistence all read from it through
// `pane.emulator` (src/model/pane-emulator.ts), on this thread or in the emulator worker.
// One piece: receiving, queueing, pausing, dropping and parsing output move the same counters
// (queued, received, parsed) that flushed() and the exit wait on; split, they would drift apart.
import { pasteBytes } from "./paste";
import { SCROLLBACK_MAX } from "../protocol/terminal-defaults";
import { spawnPty, type Pty, type PtyOptions } from "./pty";
import { inputHeldFor, inputSent, wantParse, type Parser } from "./parse-slices";
import type { ShellView } from "./shell-marks";
import type { PaneEmulator } from "./pane-emulator";
import { createEmulator } from "./create-emulator";
import type { ShellLaunch } from "./shell-integration";
import type { GrantLevel } from "../protocol/grants";
import type { BoxRequest } from "./box";
import { hop } from "../platform/hop-trace";

/** What a pane spawns: an argv and its whole environment. */
export interface PaneRun {
  argv: string[];
  env: Record<string, string>;
}

export interface PaneSpec {
  id: number;
  argv: string[]; // what runs (the user's shell resolved)
  /** The command as asked for; empty means "the user's shell" (a restore starts a fresh one). */
  command?: string[];
  cwd: string;
  env: Record<string, string>; // the full environment the program gets
  cols: number;
  rows: number;
  scrollback?: number;
  /** Text shown above the program's first output, e.g. a restored session's old scrollback. */
  preface?: string;
  /** The pane stays, readable, after its program exits (tmux remain-on-exit). */
  keep?: boolean;
  /** The grants it starts with (docs/security.md "Grants"); default: the person's. */
  grants?: GrantLevel;
  /** How to start the program with shell integration (shell-integration.ts): the argv and the
   * environment it gains, kept out of `argv` and `env` (what the pane runs, and what is saved). */
  launch?: ShellLaunch;
  /** The pane is boxed (src/model/box.ts): how, and what starts its program in the box. */
  box?: BoxRequest;
  /** A template's resume command for its agent, or false: kept for the save. */
  resume?: string[] | false;
  wrap?: (run: PaneRun) => PaneRun;
}

/** Modes a program may leave set, back to a fresh terminal's: attributes, cursor keys and keypad,
 * a visible cursor, wrapping, no insert mode, bracketed paste and mouse reports off, the kitty
 * keyboard stack popped. */
const RESET_MODES = "\x1b[0m\x1b[?1l\x1b>\x1b[?25h\x1b[?7h\x1b[4l\x1b[?2004l\x1b[?1000l\x1b[?1002l\x1b[?1003l\x1b[?1006l\x1b[<16u";

/** What a pane runs: given to respawn(). */
export type PaneProgram = Pick<PaneSpec, "argv" | "command" | "cwd" | "env" | "launch" | "wrap">;

/** Unparsed output above which the pane stops reading its PTY (the program's writes then block)
 * and below which it reads again: a flood runs at the emulator's pace, as under tmux, and a
 * pane's backlog stays under this plus one read (docs/pane-pipeline.md). */
export const READ_PAUSE_AT = 256 * 1024;
const READ_RESUME_AT = 64 * 1024;
/** A PTY that can't stop its program (Bun's, macOS and musl: a raw-mode program ignores XOFF)
 * keeps handing output over: past this much unparsed, the oldest is dropped (the screen shows a
 * gap; see overBacklog), so a flood costs at most this per pane. */
export const UNPAUSABLE_BACKLOG_MAX = 16 * 1024 * 1024;
/** What is parsed at once: the slices (parse-slices.ts) check the clock between pieces, and a
 * 2 KiB piece of even the slowest output (short lines, each a scroll) parses in ~0.1–3 ms. */
const PIECE = 2048;
/** Lines of history a pane keeps: WS_SCROLLBACK in the server's environment, else tmux's 2,000:
 * a flood parses ~25% faster than with 10,000 and a full history takes a fifth of the memory
 * (docs/pane-pipeline.md has the figures). */
export const SCROLLBACK_DEFAULT = 2_000;
export { SCROLLBACK_MAX };
export function scrollbackSetting(value: string | undefined): number {
  const n = value !== undefined && /^\d{1,6}$/.test(value) ? Number(value) : NaN;
  return n <= SCROLLBACK_MAX ? n : SCROLLBACK_DEFAULT;
}
let SCROLLBACK = scrollbackSetting(process.env.WS_SCROLLBACK);
/** keys.toml `history-limit`: the history panes started from now on keep (tmux's option of that
 * name); undefined goes back to WS_SCROLLBACK's or the default. */
export function setHistoryLimit(lines: number | undefined): void {
  SCROLLBACK = lines !== undefined && Number.isInteger(lines) && lines >= 0 && lines <= SCROLLBACK_MAX ? lines : scrollbackSetting(process.env.WS_SCROLLBACK);
}

export class Pane implements Parser {
  readonly id: number;
  // What runs; respawn() changes them (the Session's respawnPane is its only caller).
  argv: string[];
  command: string[];
  cwd: string;
  env: Record<string, string>;
  /** The pane's emulator: its screen, history and modes. */
  readonly emulator: PaneEmulator;
  pty: Pty;
  startedAt = Date.now();
  readonly keep: boolean;
  /** The grants it was started with, if not the default (a template's agent pane). */
  readonly startGrants: GrantLevel | undefined;
  /** A template's resume command for its agent, or false (a save keeps it; a restore uses it). */
  readonly resume: string[] | false | undefined;
  /** What the shell's OSC 133 marks say: prompt or running, the last command's output and status. */
  readonly shell: ShellView;
  /** ws started this pane's shell with its integration: marks are coming. */
  shellIntegration: boolean;
  /** How the current program was started with shell integration, if it was. */
  private launch: ShellLaunch | undefined;
  /** How the pane is boxed, if it is (its respawns and a restore box it the same way). */
  readonly box: BoxRequest | undefined;
  private wrap: ((run: PaneRun) => PaneRun) | undefined;
  cols: number;
  rows: number;
  // The label's parts and the hold are read by everyone and written only by the pane itself and by
  // the Session (the model's one writer), through the methods below: from outside they are
  // read-only (test/model-writers.test.ts proves a write fails to compile).
  #title = "";
  #name: string | undefined;
  #program = "";
  #foregroundPid = 0;
  #foregroundArgv: string[] = [];
  #titleOwner: number | undefined;
  #held = false;
  #borderFormat: string | undefined;
  exitCode: number | null = null;
  exitSignal: string | null = null;
  exited = false;
  lastOutputAt = Date.now();
  /** Called after the emulator has parsed new output. */
  onOutput: (pane: Pane) => void = () => {};
  /** Called when the program sets a new title. */
  onTitle: (pane: Pane) => void = () => {};
  /** Called when the program rings the bell, or sets the clipboard (OSC 52, checked). */
  onBell: (pane: Pane) => void = () => {};
  onClipboard: (pane: Pane, data: string) => void = () => {};
  /** Called once the program has exited and every byte it wrote has been parsed. */
  onExit: (pane: Pane) => void = () => {};

  private queue: Uint8Array[] = [];
  /** Bytes handed to us (output and preface) and bytes xterm has parsed, for flushed(). */
  private received = 0;
  private parsed = 0;
  private flushWaiters: { upTo: number; resolve: () => void }[] = [];
  private ptyExited = false;
  /** A parse that went async (see emulator-input.ts): nothing more is parsed until it settles. */
  private parsing: Promise<void> | null = null;
  private disposed = false;
  /** Counts programs run in this pane: a replaced program's late output and exit are ignored. */
  private generation = 0;

  /** `spawn` starts the program (a test gives a fake PTY: Session's createPane). */
  constructor(
    spec: PaneSpec,
    private readonly spawnProgram: (o: PtyOptions) => Pty = spawnPty,
  ) {
    this.id = spec.id;
    this.argv = spec.argv;
    this.command = spec.command ?? spec.argv;
    this.cwd = spec.cwd;
    this.env = spec.env;
    this.keep = spec.keep === true;
    this.startGrants = spec.grants;
    this.resume = spec.resume;
    this.cols = spec.cols;
    this.rows = spec.rows;
    this.emulator = createEmulator({ cols: spec.cols, rows: spec.rows, scrollback: spec.scrollback ?? SCROLLBACK });
    this.emulator.onTitle = (t) => {
      this.#titleOwner = undefined; // set again, maybe by another program: looked at next time
      if (t === this.#title) return;
      this.#title = t;
      this.onTitle(this);
    };
    this.emulator.onParsed = (n) => this.parsedElsewhere(n);
    // The emulator's answers to the program's queries go back to the program alone, as typed
    // input would (but are not the person typing: no input hold).
    this.emulator.onReply = (d) => {
      if (!this.exited && !this.disposed) this.pty.write(d);
    };
    this.emulator.onBell = () => this.onBell(this);
    this.emulator.onClipboard = (d) => this.onClipboard(this, d);
    this.shell = this.emulator.shell;
    this.launch = spec.launch;
    this.shellIntegration = spec.launch !== undefined;
    this.box = spec.box;
    this.wrap = spec.wrap;
    // A restored pane's old scrollback goes through the same paced queue as output (and before
    // it): 100 restored panes then parse their history a slice per turn instead of holding the
    // loop for seconds.
    if (spec.preface) this.inject(spec.preface, false);
    try {
      this.pty = this.spawn();
    } catch (e) {
      this.emulator.dispose(); // the program could not start: no pane, nothing left behind
      throw e;
    }
    if (this.queue.length) wantParse(this);
  }

  /** Start `argv` on a new PTY at the pane's size; its output and exit count while it is current. */
  private spawn(): Pty {
    const gen = ++this.generation;
    const plain: PaneRun = { argv: this.launch?.argv ?? this.argv, env: this.launch ? { ...this.env, ...this.launch.env } : this.env };
    const run = this.wrap ? this.wrap(plain) : plain;
    return this.spawnProgram({
      argv: run.argv,
      cwd: this.cwd,
      env: run.env,
      cols: this.cols,
      rows: this.rows,
      onData: (bytes) => {
        if (gen === this.generation) this.receive(bytes);
      },
      onExit: (code, signal) => {
        if (gen !== this.generation) return;
        this.exitCode = code;
        this.exitSignal = signal;
        this.ptyExited = true;
        this.maybeFinish();
      },
    });
  }

  /** Text for the emulator that no program wrote (a preface, the exit line), in order with output. */
  private inject(text: string, parse = true): void {
    const bytes = Buffer.from(text);
    this.queued += bytes.length;
    this.received += bytes.length;
    if (this.emulator.send) return this.emulator.send(bytes);
    this.enqueue(bytes);
    if (parse) wantParse(this);
  }

  /** How its program ended: "status 3" or "signal SIGTERM" (empty while it runs). */
  get exitText(): string {
    if (!this.exited) return "";
    return this.exitSignal ? `signal ${this.exitSignal}` : `status ${this.exitCode ?? 0}`;
  }

  /**
   * A kept pane whose program exited: let go of its terminal and say how it ended on its last
   * line, as tmux's remain-on-exit does. The screen and history stay readable.
   */
  showExit(): void {
    this.pty.close();
    const x = this.emulator.cursorX;
    this.inject(`\x1b[0m${x > 0 ? "\r\n" : ""}[exited: ${this.exitText}]`);
  }

  /**
   * Run a program in this pane again, same id, same screen and history (tmux respawn-pane -k): a
   * running program is hung up on first. Throws, changing nothing, if the new one can't start.
   */
  respawn(next: PaneProgram): void {
    const old = { argv: this.argv, command: this.command, cwd: this.cwd, env: this.env, launch: this.launch, wrap: this.wrap, pty: this.pty, gen: this.generation };
    Object.assign(this, { argv: next.argv, command: next.command ?? next.argv, cwd: next.cwd, env: next.env, launch: next.launch, wrap: next.wrap });
    try {
      this.pty = this.spawn();
    } catch (e) {
      Object.assign(this, { argv: old.argv, command: old.command, cwd: old.cwd, env: old.env, launch: old.launch, wrap: old.wrap, generation: old.gen });
      throw e;
    }
    // The marks of the program before say nothing about this one.
    this.emulator.resetShell();
    this.shellIntegration = next.launch !== undefined;
    old.pty.kill("SIGHUP");
    old.pty.close();
    this.exited = false;
    this.#held = false;
    this.ptyExited = false;
    this.exitCode = null;
    this.exitSignal = null;
    this.#program = "";
    this.#foregroundPid = 0;
    this.#foregroundArgv = [];
    this.startedAt = Date.now();
    // Out of the last program's alternate screen and modes (none of these moves the cursor), onto
    // a fresh line of the main screen.
    this.inject(`${this.emulator.alt ? "\x1b[?1049l" : ""}${RESET_MODES}${this.emulator.normalCursorX > 0 ? "\r\n" : ""}`);
  }

  get pid(): number {
    return this.pty.pid;
  }

  /** The title its program set (OSC 0/2). */
  get title(): string {
    return this.#title;
  }

  /** The name pane_rename gave it; it wins over the title and the program's name. */
  get name(): string | undefined {
    return this.#name;
  }

  /** The program in its terminal's foreground, once looked at: its name and pid. */
  get program(): string {
    return this.#program;
  }

  get foregroundPid(): number {
    return this.#foregroundPid;
  }

  /** The foreground program's argv, as last looked at (empty until then). */
  get foregroundArgv(): readonly string[] {
    return this.#foregroundArgv;
  }

  /** The foreground pid when the title was last set (undefined until looked at): a title is the
   * label only while the program that set it is in the foreground, so `top` run from a shell that
   * titles its prompt is labelled `top`. */
  get titleOwner(): number | undefined {
    return this.#titleOwner;
  }

  /** Not a kept pane, but its program failed soon after it started: it stays, showing how it
   * ended, until a key in it or a close (tmux's remain-on-exit failed). */
  get held(): boolean {
    return this.#held;
  }

  /** The tmux format its label row shows (the tmux shim's `set-option -p pane-border-format`),
   * while its tab's border status is on (Tab.border); ws's own label otherwise. */
  get borderFormat(): string | undefined {
    return this.#borderFormat;
  }

  // Owner-only writers: the Session's alone (test/model-writers.test.ts finds any other caller).

  /** Name the pane (undefined: no name). */
  setName(name: string | undefined): void {
    this.#name = name;
  }

  setBorderFormat(format: string | undefined): void {
    this.#borderFormat = format;
  }

  /** A restored pane's saved title, shown until its program sets one. */
  restoreTitle(title: string): void {
    this.#title = title;
  }

  /** What a look at the pane's foreground found; a title set before it is now that program's. */
  noteForeground(pid: number, program: string, argv?: string[]): void {
    this.#foregroundPid = pid;
    this.#program = program;
    if (argv) this.#foregroundArgv = argv;
    if (this.#titleOwner === undefined && this.#title) this.#titleOwner = pid;
  }

  setHeld(held: boolean): void {
    this.#held = held;
  }

  /** What the pane is called when it has no title: its program's name. */
  get commandName(): string {
    const prog = this.argv[0] ?? this.env.SHELL ?? "sh";
    return prog.split("/").pop() || prog;
  }

  /** The name ws shows: the name it was given, else its title, else its foreground program's name. */
  get label(): string {
    const titled = this.title && (this.titleOwner === undefined || this.titleOwner === this.foregroundPid);
    return this.name || (titled ? this.title : "") || this.program || this.commandName;
  }

  /** A process's argv as people know it: the shell ws started with its integration (`bash
   * --rcfile <ws's file>`) is the command the pane was asked to run. */
  shownArgv(argv: string[]): string[] {
    const l = this.launch?.argv;
    return l && l.length === argv.length && l.every((a, i) => a === argv[i]) ? this.argv : argv;
  }

  write(data: string | Uint8Array): void {
    if (this.exited) return; // a kept pane's program is gone: nothing reads its input
    inputSent();
    this.pty.write(data);
  }

  /** A person typed into the pane: its echo, if it comes within `ms` and nothing else waits to be
   * parsed, is read (Pty.readNow) and parsed now, or a moment later when `ahead` wrote it already
   * to the clients' terminals (Pty.holdBack: they get the CPU first). */
  readEcho(ms: number, ahead: (bytes: Uint8Array) => boolean): void {
    const echo = this.queue.length || this.parsing || this.readPaused || this.emulator.send ? undefined : this.pty.readNow?.(ms);
    if (!echo) return;
    if (this.pty.holdBack && ahead(echo)) this.pty.holdBack(echo);
    else this.receive(echo);
  }

  /** Type text as a paste: bracketed when the program asked for bracketed paste. */
  paste(text: string): void {
    this.write(pasteBytes(text, this.emulator.modes.bracketedPaste));
  }

  resize(cols: number, rows: number): void {
    cols = Math.max(1, cols);
    rows = Math.max(1, rows);
    if (cols === this.cols && rows === this.rows) return;
    this.cols = cols;
    this.rows = rows;
    this.emulator.resize(cols, rows);
    if (!this.ptyExited) this.pty.resize(cols, rows);
  }

  kill(signal: NodeJS.Signals = "SIGHUP"): void {
    this.pty.kill(signal);
  }

  /** Lines of the screen (and with `scrollback`, the history above it) as plain text. */
  readText(opts: { lines?: number; scrollback?: boolean } = {}): string[] {
    const s = this.emulator;
    const out = s.lines(opts.scrollback ? 0 : s.baseY, s.baseY + s.rows);
    // Trailing blank rows say nothing; a script reading the screen wants its content.
    while (out.length && out[out.length - 1] === "") out.pop();
    return opts.lines !== undefined ? out.slice(-opts.lines) : out;
  }

  /** Resolves once everything received so far (our queue included) has been parsed. */
  flushed(): Promise<void> {
    if (this.parsed < this.received) {
      const upTo = this.received;
      return new Promise((resolve) => this.flushWaiters.push({ upTo, resolve }));
    }
    return this.emulatorFlushed();
  }

  private emulatorFlushed(): Promise<void> {
    return this.emulator.flushed();
  }

  /** Bytes received from the PTY and not yet handed to the emulator. */
  private queued = 0;
  /** Whether we stopped reading the PTY. */
  private readPaused = false;
  /** Reading stopped while someone types (see receive). */
  private holdTimer: ReturnType<typeof setTimeout> | undefined;
  /** Output dropped because the PTY could not be paused (UNPAUSABLE_BACKLOG_MAX), in bytes. */
  private dropped = 0;

  get outputDropped(): number {
    return this.dropped;
  }

  /** Bytes received and not yet parsed. */
  get backlog(): number {
    return this.queued;
  }

  private receive(bytes: Uint8Array): void {
    this.lastOutputAt = Date.now();
    if (this.overBacklog(bytes)) return;
    const idle = !this.queue.length && !this.parsing;
    this.queued += bytes.length;
    this.received += bytes.length;
    if (!this.readPaused && this.queued > READ_PAUSE_AT) {
      this.readPaused = true;
      this.pty.pause();
    }
    // An emulator on another thread parses as it gets the bytes; `queued` counts them until it
    // says they are parsed (parsedElsewhere), so the pause above holds the same backlog.
    if (this.emulator.send) {
      this.emulator.send(bytes);
      this.holdReadingWhileTyping();
      return;
    }
    this.enqueue(bytes);
    if (!idle) this.holdReadingWhileTyping();
    // A little output into an idle pane (an echo, a prompt) is parsed at once: it costs less than
    // the turn it would wait for. Anything more waits for the slices.
    if (idle && bytes.length <= PIECE) {
      this.parsePiece();
      this.sliceDone();
    } else wantParse(this);
  }

  /** A PTY that can't pause: keep the backlog within UNPAUSABLE_BACKLOG_MAX by dropping the
   * oldest unparsed output, down to half (a flood's end, the screen the program leaves, is what
   * shows). An emulator on another thread already has what was sent: then what arrives is dropped.
   * Whether `bytes` are to be dropped. */
  private overBacklog(bytes: Uint8Array): boolean {
    if (this.pty.canPause || this.queued + bytes.length <= UNPAUSABLE_BACKLOG_MAX) return false;
    if (this.emulator.send) {
      this.dropped += bytes.length;
      return true;
    }
    while (this.queue.length && this.queued + bytes.length > UNPAUSABLE_BACKLOG_MAX / 2) {
      const piece = this.queue.shift()!;
      this.queued -= piece.length;
      this.parsed += piece.length; // dropped counts as done: flushed() waits for nothing
      this.dropped += piece.length;
    }
    return false;
  }

  /** While someone types, a pane with a backlog stops reading until the hold ends (its parsing
   * waits then anyway): reading a flood costs the main thread the echo's time. */
  private holdReadingWhileTyping(): void {
    const hold = inputHeldFor();
    if (hold <= 0 || this.readPaused || this.queued <= PIECE) return;
    this.readPaused = true;
    this.pty.pause();
    this.holdTimer = setTimeout(() => {
      this.holdTimer = undefined;
      this.resumeBelowMark();
    }, hold);
  }

  private enqueue(bytes: Uint8Array): void {
    for (let i = 0; i < bytes.length; i += PIECE) this.queue.push(bytes.subarray(i, i + PIECE));
  }

  /** The emulator on another thread parsed `n` more bytes (and published its screen). */
  private parsedElsewhere(n: number): void {
    if (this.disposed) return;
    this.queued = Math.max(0, this.queued - n);
    this.parsed += n;
    this.resumeBelowMark();
    this.sliceDone();
  }

  private resumeBelowMark(): void {
    if (this.readPaused && this.queued < READ_RESUME_AT && !this.holdTimer) {
      this.readPaused = false;
      this.pty.resume();
    }
  }

  /** Parser: one queued piece into the emulator (called by parse-slices.ts). */
  parsePiece(): boolean {
    if (this.parsing || this.disposed) return false;
    const piece = this.queue.shift();
    if (!piece) return false;
    this.queued -= piece.length;
    this.resumeBelowMark();
    let pending: void | Promise<void> = undefined;
    try {
      pending = this.emulator.parse!(piece);
    } catch {
      // xterm threw on these bytes: they are lost to the screen, but the pane goes on parsing.
    }
    if (pending) {
      this.parsing = pending.catch(() => {}).then(() => {
        this.parsing = null;
        this.parsed += piece.length;
        this.sliceDone();
        if (this.queue.length) wantParse(this);
      });
      return false;
    }
    this.parsed += piece.length;
    return this.queue.length > 0;
  }

  /** Parser: after a slice in which this pane parsed: tell the listeners once. */
  sliceDone(): void {
    if (this.disposed) return;
    if (this.flushWaiters.length) this.wakeFlushWaiters();
    hop("parsed");
    this.onOutput(this);
    this.maybeFinish();
  }

  private wakeFlushWaiters(): void {
    const due = this.flushWaiters.filter((w) => w.upTo <= this.parsed);
    if (!due.length) return;
    this.flushWaiters = this.flushWaiters.filter((w) => w.upTo > this.parsed);
    for (const w of due) w.resolve();
  }

  private maybeFinish(): void {
    if (!this.ptyExited || this.exited || this.queue.length || this.parsing || this.parsed < this.received) return;
    this.exited = true;
    this.onExit(this);
  }

  /**
   * The pane is closed: its program is hung up on and whatever output it has not parsed yet is
   * dropped at once (a flood's backlog costs nothing after close). The emulator goes once the
   * program is gone.
   */
  close(): void {
    clearTimeout(this.holdTimer);
    this.queue = [];
    this.queued = 0;
    this.received = this.parsed; // what is dropped counts as done (an exit waits for nothing)
    this.emulator.discard?.();
    this.pty.close();
    for (const w of this.flushWaiters.splice(0)) w.resolve();
    this.pty.exited.finally(() => this.dispose());
  }

  dispose(): void {
    this.disposed = true;
    // Nothing more will be parsed: don't leave anyone waiting for it.
    for (const w of this.flushWaiters.splice(0)) w.resolve();
    this.emulator.dispose();
  }
}
