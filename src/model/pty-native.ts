// A PTY whose master ws owns (Linux; src/platform/ picks it, src/platform/pty-libc.ts opens it): the only way to stop reading a program's output, which is
// the backpressure every program obeys, raw mode included (docs/pane-pipeline.md).
//  - libc (platform/ffi.ts) opens the pair, sets its size and modes, and writes our input to the master.
//  - The program starts through util-linux `setsid --ctty` with the slave as its stdio: a new
//    session whose controlling terminal is the slave, as a terminal emulator gives its shell.
//  - Bun reads the non-blocking master as a stream on its own event loop (no thread, nothing
//    polled while idle), and only when we pull: not pulling is pausing. A typed key's echo is the
//    one exception: right after the key is written, readNow waits for it (poll, ≤ 1 ms) and reads
//    it here, so it is drawn in the same turn (docs/pane-pipeline.md, "A key's hops").
import { statSync } from "node:fs";
import { isAbsolute, resolve } from "node:path";
import { LAUNCH_FLAGS, libc, openPtyPair, readMaster, readWithin, setsid, setWindowSize } from "../platform/pty-libc";
import { FdWriteQueue } from "./fd-write-queue";
import type { Pty, PtyOptions } from "./pty";
import { signalGroup } from "./signal-group";
import { execProblem } from "./exec-check";
import { log } from "../log";
import { hop } from "../platform/hop-trace";

/** How long a program's exit waits for more output while the PTY stays open (a background child
 * may hold it open for ever); the wait restarts with every read and stands still while paused. */
const EOF_GRACE_MS = 250;
/** ...but no longer than this in all: a background child writing for ever must not keep the pane. */
const EXIT_DRAIN_MAX_MS = 5000;
/** Input the program has not read yet, kept for it; past this, further input is dropped. */
const INPUT_LIMIT = 4 * 1024 * 1024;
/** How often input the PTY could not take yet is offered again. */
const INPUT_RETRY_MS = 4;
/** How long an echo already on the person's screen waits to be parsed (holdBack): drawing its frame
 * at once took the CPU from the terminal showing it, ~0.1 ms of the echo on two cores. */
const HOLD_BACK_MS = 1;
/** The most a typed key's echo read at once (readNow) takes; more waits for the stream. */
const ECHO_READ_MAX = 4096;
let echoBuffer: Uint8Array | undefined;

/** Whether this system can run the native path: glibc through platform/ffi.ts and util-linux setsid. */
export function nativePtyAvailable(): boolean {
  return setsid() !== null;
}

export function spawnNativePty(o: PtyOptions): Pty {
  const c = libc();
  if (!c || !setsid()) throw new Error("ws's own PTY needs Linux with glibc and setsid");
  checkProgram(o.argv[0] ?? "", o.cwd, o.env.PATH ?? process.env.PATH ?? "");
  const { master, slave } = openPtyPair(c, Math.max(1, o.cols), Math.max(1, o.rows));
  let proc: ReturnType<typeof Bun.spawn>;
  try {
    // setsid does not fork (a child of ours leads no process group), so the pid is the program's;
    // --wait keeps the exit status right should it ever have to.
    proc = Bun.spawn([setsid()!, ...LAUNCH_FLAGS, ...o.argv], { cwd: o.cwd, env: o.env, stdio: [slave, slave, slave] });
  } catch (e) {
    c.close(master);
    throw e;
  } finally {
    c.close(slave);
  }

  let paused = false;
  let reading = false;
  /** The read loop waits on the stream with nothing of ours undelivered (readNow may read). */
  let waiting = false;
  /** The last readNow's echo did not come in time: the program answers slowly, so further keys
   * don't wait for it (the main thread would only stand still) until output follows a write
   * within that time again. When input was last written (performance.now()). */
  let echoSlow = false;
  let echoWait = 0;
  let wroteAt = -Infinity;
  /** Output held back (holdBack), delivered before anything read after it. */
  let held: Uint8Array | undefined;
  let heldTimer: Timer | undefined;
  const deliverHeld = () => {
    clearTimeout(heldTimer);
    const bytes = held;
    held = undefined;
    if (bytes && !released) deliver(bytes);
  };
  let eof = false;
  /** We let go of the master: nothing more is read, written or delivered. */
  let released = false;
  let status: { code: number | null; signal: string | null } | undefined;
  let finished = false;
  let graceTimer: Timer | undefined;
  let drainTimer: Timer | undefined;
  let reportExit!: (code: number | null) => void;
  const exited = new Promise<number | null>((r) => (reportExit = r));
  // One descriptor for the master (readMaster): Bun's, which it closes when the stream ends.
  const { reader, fd, shared } = readMaster(c, master);
  /** Nothing more may touch `fd`: we let go, or the stream ended (Bun has closed a shared fd, and
   * its number may already be another file's). */
  const fdGone = () => released || (shared && eof);

  // Input the PTY cannot take yet (the program is not reading) waits here, bounded. A hard error
  // means the slave side is gone: what waited is dropped.
  const input = new FdWriteQueue(c, fd, { retryMs: INPUT_RETRY_MS, limit: INPUT_LIMIT, onError: () => {} });

  const release = () => {
    if (released) return;
    released = true;
    input.stop();
    // Bun stops watching the fd when the stream is cancelled; only then is the number ours to close
    // (a shared one Bun closes itself).
    reader.cancel().catch(() => {}).finally(() => {
      if (!shared) c.close(fd);
    });
  };

  // The exit is reported once the program has exited and its output has been read: at EOF, or
  // when the PTY stays open but quiet (and we are not the ones holding it back).
  const settle = () => {
    if (!status || finished) return;
    clearTimeout(graceTimer);
    if (eof || released) return finish();
    if (!paused) graceTimer = setTimeout(finish, EOF_GRACE_MS);
  };
  const finish = () => {
    if (finished) return;
    finished = true;
    clearTimeout(graceTimer);
    clearTimeout(drainTimer);
    release();
    try {
      o.onExit(status!.code, status!.signal);
    } catch (e) {
      log.error("a pane's exit handling failed:", e);
    }
    reportExit(status!.code);
  };

  const pull = async () => {
    if (reading) return;
    reading = true;
    try {
      while (!paused && !released && !eof) {
        // EIO (every slave fd closed) is the PTY's EOF.
        waiting = true;
        const chunk = await reader.read().then((r) => r.value, () => undefined);
        waiting = false;
        if (released) break; // closed meanwhile: the backlog is dropped
        deliverHeld();
        if (chunk) {
          if (echoSlow && performance.now() - wroteAt <= echoWait) echoSlow = false;
          hop("pty-read");
          deliver(chunk);
        }
        else {
          eof = true;
          if (shared) input.stop();
        }
        settle();
      }
    } finally {
      reading = false;
    }
  };
  // Nothing awaits the read loop: a throw from the pane's side is logged here, and the loop reads on.
  const deliver = (chunk: Uint8Array) => {
    try {
      o.onData(chunk);
    } catch (e) {
      log.error("a pane's output handling failed:", e);
    }
  };

  const exitedWith = (code: number | null, signal: string | null) => {
    status = { code, signal };
    drainTimer = setTimeout(finish, EXIT_DRAIN_MAX_MS);
    settle();
  };
  proc.exited.then(
    (code) => {
      const signal = proc.signalCode === null ? null : String(proc.signalCode);
      exitedWith(signal ? null : code, signal);
    },
    () => exitedWith(null, null),
  );

  void pull();
  return {
    pid: proc.pid,
    canPause: true,
    write(data) {
      if (!fdGone()) input.write(typeof data === "string" ? Buffer.from(data) : data);
      wroteAt = performance.now();
      hop("pty-write");
    },
    readNow(timeoutMs) {
      deliverHeld(); // what was read before comes first
      // Only while the read loop waits on the stream: Bun hands each chunk it reads to that loop
      // before anything else runs (its promise settles with the microtasks drained right after),
      // so nothing read before now is still on its way and what is read here comes after it.
      // Only right after a write (a key that was not written has no echo to wait for).
      if (!waiting || paused || echoSlow || fdGone() || performance.now() - wroteAt > timeoutMs) return undefined;
      const into = (echoBuffer ??= new Uint8Array(ECHO_READ_MAX));
      const n = readWithin(c, fd, timeoutMs, into);
      echoWait = timeoutMs;
      echoSlow = n === 0;
      if (n <= 0) return undefined;
      hop("pty-read");
      return into.slice(0, n);
    },
    holdBack(bytes) {
      deliverHeld();
      held = bytes;
      heldTimer = setTimeout(deliverHeld, HOLD_BACK_MS);
    },
    resize(cols, rows) {
      if (!fdGone()) setWindowSize(c, fd, Math.max(1, cols), Math.max(1, rows));
    },
    pause() {
      paused = true;
      settle();
    },
    resume() {
      if (!paused) return;
      paused = false;
      void pull();
      settle();
    },
    kill(signal = "SIGHUP") {
      if (!finished) signalGroup(proc, signal);
    },
    close() {
      release();
      settle();
    },
    exited,
  };
}

/** Refuse a program that cannot be started, as Bun.spawn would, before anything is opened. */
function checkProgram(program: string, cwd: string, PATH: string): void {
  const found = Bun.which(program, { PATH, cwd });
  if (found) {
    const problem = execProblem(found, PATH);
    if (problem) throw Object.assign(new Error(problem.why), { code: problem.code, path: program });
    return;
  }
  const path = isAbsolute(program) ? program : resolve(cwd, program);
  let exists = false;
  try {
    exists = program.includes("/") && !!statSync(path);
  } catch {}
  const e = exists
    ? Object.assign(new Error(`EACCES: permission denied, posix_spawn '${program}'`), { code: "EACCES", errno: -13, path: program, syscall: "posix_spawn" })
    : Object.assign(new Error(`Executable not found in $PATH: "${program}"`), { code: "ENOENT", errno: -2, path: program });
  throw e;
}
