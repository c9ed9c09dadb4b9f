// The one small interface panes use to run a program in a pseudo-terminal. Bun's own PTY
// (`Bun.spawn` with `terminal`) is used: it is event driven and hands over raw byte chunks, where
// bun-pty polls (sleeping 8 ms when idle) and decodes to strings. See README "Dependencies".

export interface PtyOptions {
  argv: string[];
  cwd: string;
  env: Record<string, string>;
  cols: number;
  rows: number;
  onData: (bytes: Uint8Array) => void;
  onExit: (code: number | null, signal: string | null) => void;
}

export interface Pty {
  readonly pid: number;
  write(data: string | Uint8Array): void;
  resize(cols: number, rows: number): void;
  /**
   * Ask the terminal line discipline to stop (XOFF) or restart (XON) the program's output, as a
   * real terminal's flow control does: its writes then block, which is the only backpressure
   * Bun's PTY allows (it has no way to pause reading). Returns false when the program has turned
   * flow control off (raw mode clears IXON), so the bytes would reach it as input instead.
   */
  setFlow(stopped: boolean): boolean;
  /** Signal the program's whole process group (it is a session leader on its own PTY). */
  kill(signal?: NodeJS.Signals): void;
  readonly exited: Promise<number | null>;
}

/** termios c_iflag IXON: 0o2000 on Linux, 0x200 on macOS. */
const IXON = process.platform === "darwin" ? 0x200 : 0o2000;
const XOFF = "\x13";
const XON = "\x11";

export function spawnPty(o: PtyOptions): Pty {
  // Output can still be in the PTY when the process exits: report the exit once the PTY has hit
  // EOF too, or shortly after (a background child may hold the PTY open for ever).
  let eof!: () => void;
  const ptyDone = new Promise<void>((r) => (eof = r));
  const proc = Bun.spawn(o.argv, {
    cwd: o.cwd,
    env: o.env,
    terminal: {
      cols: o.cols,
      rows: o.rows,
      name: o.env.TERM ?? "xterm-256color",
      data: (_t, bytes) => o.onData(bytes),
      exit: () => eof(),
    },
  });
  const terminal = proc.terminal!;
  let closed = false;
  // The terminal's exit callback reports the PTY, not the process: take the status from `exited`.
  const exited = proc.exited.then(
    async (code) => {
      await Promise.race([ptyDone, Bun.sleep(250)]);
      closed = true;
      const signal = proc.signalCode === null ? null : String(proc.signalCode);
      o.onExit(signal ? null : code, signal);
      return code;
    },
    () => {
      closed = true;
      o.onExit(null, null);
      return null;
    },
  );
  return {
    pid: proc.pid,
    write(data) {
      if (!closed && !terminal.closed) terminal.write(data);
    },
    resize(cols, rows) {
      if (!closed && !terminal.closed) terminal.resize(Math.max(1, cols), Math.max(1, rows));
    },
    setFlow(stopped) {
      if (closed || terminal.closed) return false;
      if (!(terminal.inputFlags & IXON)) return false;
      terminal.write(stopped ? XOFF : XON);
      return true;
    },
    kill(signal = "SIGHUP") {
      if (closed) return;
      try {
        process.kill(-proc.pid, signal);
      } catch {
        try {
          proc.kill(signal);
        } catch {}
      }
    },
    exited,
  };
}
