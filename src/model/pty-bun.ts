// Bun's own PTY (`Bun.spawn` with `terminal`): the fallback where ws cannot own the master. It is
// event driven and hands over raw byte chunks, but it cannot pause reading, so pause() is the
// terminal's own flow control: XOFF makes the program's writes block, XON restarts them. That
// only works while the program leaves IXON on; raw-mode programs turn it off and are not held back.
import type { Pty, PtyOptions } from "./pty";
import { signalGroup } from "./signal-group";
import { log } from "../log";
import { hostOs } from "../platform/os";

/** termios c_iflag IXON: 0o2000 on Linux, 0x200 on macOS. */
const IXON = hostOs === "darwin" ? 0x200 : 0o2000;
const XOFF = "\x13";
const XON = "\x11";
/** How long a program's exit waits for the PTY's EOF (a background child may hold it open). */
const EOF_GRACE_MS = 250;

export function spawnBunPty(o: PtyOptions): Pty {
  // Output can still be in the PTY when the process exits: report the exit once the PTY has hit
  // EOF too, or shortly after.
  let eof!: () => void;
  const ptyDone = new Promise<void>((r) => (eof = r));
  let dropped = false;
  const proc = Bun.spawn(o.argv, {
    cwd: o.cwd,
    env: o.env,
    terminal: {
      cols: o.cols,
      rows: o.rows,
      name: o.env.TERM ?? "xterm-256color",
      data: (_t, bytes) => {
        if (dropped) return;
        try {
          o.onData(bytes);
        } catch (e) {
          log.error("a pane's output handling failed:", e);
        }
      },
      exit: () => eof(),
    },
  });
  const terminal = proc.terminal!;
  const exitedWith = (code: number | null, signal: string | null) => {
    try {
      o.onExit(code, signal);
    } catch (e) {
      log.error("a pane's exit handling failed:", e);
    }
  };
  let closed = false;
  let stopped = false;
  // The terminal's exit callback reports the PTY, not the process: take the status from `exited`.
  const exited = proc.exited.then(
    async (code) => {
      await Promise.race([ptyDone, Bun.sleep(EOF_GRACE_MS)]);
      closed = true;
      const signal = proc.signalCode === null ? null : String(proc.signalCode);
      exitedWith(signal ? null : code, signal);
      return code;
    },
    () => {
      closed = true;
      exitedWith(null, null);
      return null;
    },
  );
  const live = () => !closed && !terminal.closed;
  const flow = (stop: boolean) => {
    if (stop === stopped || !live()) return;
    if (stop && !(terminal.inputFlags & IXON)) return; // XOFF would reach the program as input
    terminal.write(stop ? XOFF : XON);
    stopped = stop;
  };
  return {
    pid: proc.pid,
    canPause: false,
    write(data) {
      if (live()) terminal.write(data);
    },
    resize(cols, rows) {
      if (live()) terminal.resize(Math.max(1, cols), Math.max(1, rows));
    },
    pause: () => flow(true),
    resume: () => flow(false),
    kill(signal = "SIGHUP") {
      if (!closed) signalGroup(proc, signal);
    },
    close() {
      dropped = true;
      if (!terminal.closed) terminal.close();
    },
    exited,
  };
}
