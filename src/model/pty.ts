// The one small interface panes use to run a program in a pseudo-terminal. The platform layer
// chooses which (ptyKind): on Linux ws owns the PTY master (src/model/pty-native.ts) so it can stop
// reading while a pane's emulator catches up; elsewhere it uses Bun's own PTY (src/model/pty-bun.ts),
// which cannot. docs/pane-pipeline.md says why.
import { ptyKind } from "../platform";
import { spawnNativePty } from "./pty-native";
import { spawnBunPty } from "./pty-bun";

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
  /** Whether pause() stops the program whatever its terminal modes (ws's own PTY). Bun's PTY can
   * only send XOFF, which a raw-mode program ignores: the pane then bounds its backlog itself. */
  readonly canPause: boolean;
  write(data: string | Uint8Array): void;
  /**
   * Wait up to `timeoutMs` for output and return it, read out of turn: the caller delivers it as
   * onData would (it comes after everything onData had). A typed key's echo then reaches the
   * screen in the turn that wrote the key, with no event-loop wake-up of its own. Undefined when
   * nothing came in time (it arrives through onData, later) or when it can't be read out of turn
   * now. Only ws's own PTY has it.
   */
  readNow?(timeoutMs: number): Uint8Array | undefined;
  /**
   * Deliver `bytes` (given by readNow) through onData a moment from now, ahead of anything read
   * after them: a typed key's echo already on the person's screen is parsed once their terminal
   * has had the CPU to show it (only ws's own PTY has it).
   */
  holdBack?(bytes: Uint8Array): void;
  resize(cols: number, rows: number): void;
  /**
   * Stop reading the program's output until resume(): the PTY fills and the program's writes
   * block, whatever its terminal modes. At most one read already under way still arrives.
   */
  pause(): void;
  resume(): void;
  /** Signal the program's whole process group (it is a session leader on its own PTY). */
  kill(signal?: NodeJS.Signals): void;
  /**
   * Let go of the PTY now: no more output is read or delivered (whatever is unread is dropped)
   * and the program is hung up on, as when a terminal window closes. `exited` still reports it.
   */
  close(): void;
  /** Resolves once the program has exited and its output has been read (or the PTY closed). */
  readonly exited: Promise<number | null>;
}

/** `WS_PTY=bun` forces Bun's PTY (to compare, or if the native path misbehaves somewhere). */
export function spawnPty(o: PtyOptions): Pty {
  return ptyKind() === "native" ? spawnNativePty(o) : spawnBunPty(o);
}
