// The few libc calls that let ws own a PTY master itself (Linux, the platform layer's "linux"
// PTY): open a pair, set its size and terminal modes, write to it without blocking, and the
// util-linux `setsid` that starts a program on it. Loaded lazily; `libc()` is undefined where they
// are not available, and panes then get Bun's own PTY (src/model/pty.ts).
import { glibc, readI32, type PtyCalls } from "./ffi";

export type Libc = PtyCalls;

/** glibc on Linux only: the constants below are Linux's. */
export const libc = glibc.pty;

// Linux values (asm-generic, x86_64 and aarch64 alike).
const O_RDWR = 0o2;
const O_NOCTTY = 0o400;
const O_NONBLOCK = 0o4000;
const O_CLOEXEC = 0o2000000;
const F_GETFL = 3;
const F_SETFL = 4;
const TIOCSWINSZ = 0x5414;
const TIOCGPTN = 0x80045430;
const F_DUPFD_CLOEXEC = 1030;
const TCSANOW = 0;
const EAGAIN = 11;
const EINTR = 4;
const ENFILE = 23;
const EMFILE = 24;
// termios flags Bun's own PTY sets beyond the kernel's defaults; ws's panes get the same terminal.
const BRKINT = 0o2;
const IXANY = 0o4000;
const IMAXBEL = 0o20000;
const IUTF8 = 0o40000;
const HUPCL = 0o2000;
/** struct termios is 60 bytes on Linux glibc: c_iflag at 0, c_cflag at 8. */
const TERMIOS_SIZE = 64;

export interface PtyPair {
  /** Non-blocking, close-on-exec: ours alone. */
  master: number;
  /** Close-on-exec: the child gets it as its stdio (dup2 clears the flag), we close ours after. */
  slave: number;
}

/** Open a PTY pair sized cols x rows. Throws when the system has none to give. */
export function openPtyPair(c: Libc, cols: number, rows: number): PtyPair {
  const master = c.posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
  if (master < 0) throw failed("can't open a pseudo-terminal", errno(c));
  try {
    const name = new Uint8Array(128);
    if (c.grantpt(master) !== 0 || c.unlockpt(master) !== 0 || c.ptsname_r(master, name, name.length) !== 0) throw failed("can't set up a pseudo-terminal", errno(c));
    const path = name.subarray(0, name.indexOf(0) + 1); // NUL-terminated
    const slave = c.open(path, O_RDWR | O_NOCTTY | O_CLOEXEC);
    if (slave < 0) throw failed(`can't open ${new TextDecoder().decode(path.subarray(0, -1))}`, errno(c));
    c.fcntl(master, F_SETFL, c.fcntl(master, F_GETFL, 0) | O_NONBLOCK);
    setTerminalModes(c, slave);
    setWindowSize(c, master, cols, rows);
    return { master, slave };
  } catch (e) {
    c.close(master);
    throw e;
  }
}

/** An error with the errno's name as its code where it says the system ran out (launch.ts's startError). */
function failed(what: string, e: number): Error {
  const code = e === EMFILE ? "EMFILE" : e === ENFILE ? "ENFILE" : e === EAGAIN ? "EAGAIN" : undefined;
  return Object.assign(new Error(`${what} (${code ?? `errno ${e}`})`), code ? { code } : {});
}

function setTerminalModes(c: Libc, fd: number): void {
  const t = new Uint8Array(TERMIOS_SIZE);
  if (c.tcgetattr(fd, t) !== 0) return;
  const v = new DataView(t.buffer);
  v.setUint32(0, v.getUint32(0, true) | BRKINT | IXANY | IMAXBEL | IUTF8, true);
  v.setUint32(8, v.getUint32(8, true) | HUPCL, true);
  c.tcsetattr(fd, TCSANOW, t);
}

/** The kernel sends the foreground process group SIGWINCH when the size changes. */
export function setWindowSize(c: Libc, master: number, cols: number, rows: number): void {
  c.ioctl(master, TIOCSWINSZ, new Uint16Array([rows, cols, 0, 0]));
}

/**
 * Read the master as a stream through Bun, holding one descriptor for it, not two. Bun reads a
 * descriptor through a close-on-exec duplicate of its own (made at once, at the lowest free
 * number) and closes that duplicate when the stream ends or is cancelled; so ws writes and resizes
 * through Bun's duplicate and closes its own. `fd` is then not ours to close, nor to use once the
 * stream has ended (`shared`). Where the duplicate isn't where it should be (another Bun), ws keeps
 * its own as well: two descriptors, nothing else changes.
 */
export function readMaster(c: Libc, master: number): { reader: ReadableStreamDefaultReader<Uint8Array>; fd: number; shared: boolean } {
  const lowest = c.fcntl(master, F_DUPFD_CLOEXEC, 0);
  if (lowest >= 0) c.close(lowest);
  const reader = Bun.file(master).stream().getReader();
  const pty = ptyNumber(c, master);
  if (lowest < 0 || lowest === master || pty === undefined || ptyNumber(c, lowest) !== pty) return { reader, fd: master, shared: false };
  // The same PTY's master at `lowest`: only a duplicate can be (a master is opened once).
  c.close(master);
  return { reader, fd: lowest, shared: true };
}

/** The number of the PTY whose master `fd` is (the N of /dev/pts/N), or undefined when it is none. */
function ptyNumber(c: Libc, fd: number): number | undefined {
  const n = new Uint32Array(1);
  return c.ioctl(fd, TIOCGPTN, n) === 0 ? n[0] : undefined;
}

/** Write what the PTY takes now: the number of bytes written, 0 when it is full, -1 on a hard error. */
export function writeSome(c: Libc, fd: number, bytes: Uint8Array): number {
  for (;;) {
    const n = Number(c.write(fd, bytes, bytes.length));
    if (n >= 0) return n;
    const e = errno(c);
    if (e === EINTR) continue;
    return e === EAGAIN ? 0 : -1;
  }
}

const POLLIN = 1;
const pollFd = new Uint8Array(8);
const pollView = new DataView(pollFd.buffer);

/**
 * Wait up to `timeoutMs` for `fd` to have something to read, and read it into `into`: the number
 * of bytes read; 0 when nothing came in time; -1 when the fd failed or hung up (EIO: every slave
 * fd closed), which its stream reader will find and report as well.
 */
export function readWithin(c: Libc, fd: number, timeoutMs: number, into: Uint8Array): number {
  pollView.setInt32(0, fd, true);
  pollView.setInt16(4, POLLIN, true);
  pollView.setInt16(6, 0, true);
  for (;;) {
    const ready = c.poll(pollFd, 1, timeoutMs);
    if (ready === 0) return 0;
    if (ready < 0) return errno(c) === EINTR ? 0 : -1;
    const n = Number(c.read(fd, into, into.length));
    if (n > 0) return n;
    if (n === 0) return -1;
    const e = errno(c);
    if (e === EINTR) continue;
    return e === EAGAIN ? 0 : -1;
  }
}

function errno(c: Libc): number {
  return readI32(c.__errno_location()!);
}

let setsidPath: string | null | undefined;

/** util-linux `setsid`, the launcher of a program on ws's own PTY; null without glibc or it. */
export function setsid(): string | null {
  if (setsidPath === undefined) setsidPath = libc() ? Bun.which("setsid", { PATH: `/usr/bin:/bin:${process.env.PATH ?? ""}` }) : null;
  return setsidPath;
}

/** The flags a pane's program starts behind (`setsid … -- argv`): a new session whose controlling
 * terminal is its stdin, waited for so its exit status is the program's. */
export const LAUNCH_FLAGS = ["--ctty", "--wait", "--"] as const;

/** Whether `argv` is a pane's launcher that has not exec'd its program yet (it runs as the pane's
 * own pid for a moment, and would otherwise show as a program called `setsid`). */
export function isLauncherArgv(argv: readonly string[]): boolean {
  return setsidPath != null && argv[0] === setsidPath && LAUNCH_FLAGS.every((f, i) => argv[i + 1] === f);
}
