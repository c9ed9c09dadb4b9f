// Reading a file whose path a user or a program controls (a project's project.json and
// handoff.md, a script's `#!` interpreter, keys.toml) without ever waiting on it. A plain open()
// of a FIFO blocks until a writer appears, and a device or a huge file can hold a read for as
// long as it likes: on the daemon's one thread that stops every client. So: open non-blocking
// (a FIFO opens at once with no writer), optionally without following a final symlink, check
// with fstat that it is a regular file, and read at most a bound. A stream (stdin, a pipe, a
// child's output) is read the same way: at most a bound, and stdin never from a device other than a
// terminal (`ws report < /dev/zero`). docs/security.md, docs/limits.md.
import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from "node:fs";
import { open } from "node:fs/promises";
import { formatBytes, LineReader, LineTooLong } from "./line-reader";

/** The most read of a server's info file (`NAME.info.json` beside its socket: pid and build). */
export const INFO_MAX = 64 * 1024;

/** Why a file could not be used; `code` is the errno's name for a system error (ENOENT, EACCES,
 * ELOOP…), or NOT_REGULAR / TOO_BIG for what the checks refused. */
export class FileReadError extends Error {
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
  }
}

export interface ReadOptions {
  /** The most bytes read; the rest is left (`truncated`), or refused with `refuseBigger`. */
  max: number;
  /** Where to start reading. */
  offset?: number;
  /** Refuse a file bigger than `max` (TOO_BIG) instead of reading its first `max` bytes. */
  refuseBigger?: boolean;
  /** Refuse a symbolic link as the last part of the path (ELOOP) rather than follow it. */
  noFollow?: boolean;
}

/** What a non-regular file is, for a message. */
export function fileKind(st: Stats): string {
  if (st.isFIFO()) return "a FIFO";
  if (st.isSocket()) return "a socket";
  if (st.isCharacterDevice()) return "a character device";
  if (st.isBlockDevice()) return "a block device";
  if (st.isDirectory()) return "a directory";
  if (st.isSymbolicLink()) return "a symbolic link";
  return "not a plain file";
}

/** Open `path` for reading without blocking and check it is a regular file; returns the fd and its
 * stat. Throws FileReadError. The caller closes the fd. */
export function openRegular(path: string, noFollow = false): { fd: number; stat: Stats } {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY | (noFollow ? constants.O_NOFOLLOW : 0));
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    const code = err.code ?? "EIO";
    if (code === "ELOOP" && noFollow) throw new FileReadError(`${path} is a symbolic link`, code);
    throw new FileReadError(`${path} can't be read (${err.message})`, code);
  }
  let stat: Stats;
  try {
    stat = fstatSync(fd);
  } catch (e) {
    closeSync(fd);
    throw new FileReadError(`${path} can't be read (${(e as Error).message})`, "EIO");
  }
  if (!stat.isFile()) {
    closeSync(fd);
    throw new FileReadError(`${path} is not a regular file (${fileKind(stat)})`, "NOT_REGULAR");
  }
  return { fd, stat };
}

/** Up to `max` bytes of a regular file from `offset`, whether more followed, and its size. */
export function readRegular(path: string, o: ReadOptions): { bytes: Buffer; truncated: boolean; size: number } {
  const { fd, stat } = openRegular(path, o.noFollow);
  try {
    const offset = o.offset ?? 0;
    const left = Math.max(0, stat.size - offset);
    if (o.refuseBigger && left > o.max) throw new FileReadError(`${path} is too big (${stat.size} bytes; at most ${o.max})`, "TOO_BIG");
    const want = Math.min(left, o.max);
    const buf = Buffer.alloc(want);
    let got = 0;
    while (got < want) {
      const n = readSync(fd, buf, got, want - got, offset + got);
      if (n === 0) break;
      got += n;
    }
    return { bytes: buf.subarray(0, got), truncated: left > o.max, size: stat.size };
  } catch (e) {
    if (e instanceof FileReadError) throw e;
    throw new FileReadError(`${path} can't be read (${(e as Error).message})`, (e as NodeJS.ErrnoException).code ?? "EIO");
  } finally {
    closeSync(fd);
  }
}

/** A whole regular file as UTF-8 text, refused past `max` bytes. Throws FileReadError. */
export function readTextFile(path: string, max: number, noFollow = false): string {
  return readRegular(path, { max, refuseBigger: true, noFollow }).bytes.toString("utf8");
}

/** The same, or undefined when there is nothing at `path` (ENOENT). */
export function readTextFileIfAny(path: string, max: number, noFollow = false): string | undefined {
  try {
    return readTextFile(path, max, noFollow);
  } catch (e) {
    if (e instanceof FileReadError && e.code === "ENOENT") return undefined;
    throw e;
  }
}

/** readTextFile for async code: the same checks, so a FIFO never holds a worker thread (and the
 * request waiting on it) for as long as it likes. Throws FileReadError. */
export async function readTextFileAsync(path: string, max: number, noFollow = false): Promise<string> {
  return (await readFileAsync(path, max, noFollow)).toString("utf8");
}

/** A whole regular file's bytes, refused past `max`, for async code. Throws FileReadError. */
export async function readFileAsync(path: string, max: number, noFollow = false): Promise<Buffer> {
  return readRegularAsync(path, max, "refuse", noFollow);
}

/** The last `max` bytes of a regular file (all of a smaller one), for async code: the end of a log
 * or a transcript that may have grown past any bound. Throws FileReadError. */
export async function readFileTailAsync(path: string, max: number): Promise<Buffer> {
  return readRegularAsync(path, max, "tail");
}

/** readRegular for async code: a file past `max` is refused, or its last `max` bytes are read. */
async function readRegularAsync(path: string, max: number, past: "refuse" | "tail", noFollow = false): Promise<Buffer> {
  let fh;
  try {
    fh = await open(path, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY | (noFollow ? constants.O_NOFOLLOW : 0));
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    if (err.code === "ELOOP" && noFollow) throw new FileReadError(`${path} is a symbolic link`, err.code);
    throw new FileReadError(`${path} can't be read (${err.message})`, err.code ?? "EIO");
  }
  try {
    const st = await fh.stat();
    if (!st.isFile()) throw new FileReadError(`${path} is not a regular file (${fileKind(st)})`, "NOT_REGULAR");
    if (st.size > max && past === "refuse") throw new FileReadError(`${path} is too big (${st.size} bytes; at most ${max})`, "TOO_BIG");
    const buf = Buffer.alloc(Math.min(st.size, max));
    const offset = st.size - buf.length;
    let got = 0;
    while (got < buf.length) {
      const { bytesRead } = await fh.read(buf, got, buf.length - got, offset + got);
      if (bytesRead === 0) break;
      got += bytesRead;
    }
    return buf.subarray(0, got);
  } catch (e) {
    if (e instanceof FileReadError) throw e;
    throw new FileReadError(`${path} can't be read (${(e as Error).message})`, (e as NodeJS.ErrnoException).code ?? "EIO");
  } finally {
    await fh.close();
  }
}

/** A stream's bytes to its end, refused (TOO_BIG) as soon as they pass `max`: what is read past the
 * bound is never held. `what` names the stream for the error ("stdin", "ssh's output"). */
export async function readStreamBounded(stream: ReadableStream<Uint8Array>, max: number, what: string): Promise<Buffer> {
  const reader = stream.getReader();
  const parts: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const r = await reader.read();
      if (r.done) break;
      size += r.value.length;
      if (size > max) throw new FileReadError(`${what} is too big (over ${formatBytes(max)})`, "TOO_BIG");
      parts.push(r.value);
    }
  } finally {
    reader.releaseLock();
  }
  return Buffer.concat(parts);
}

/** Refuse stdin when it is neither a terminal, a pipe, a socket nor a regular file: a device such
 * as /dev/zero or /dev/urandom never ends. Throws FileReadError (NOT_REGULAR). */
async function checkStdin(): Promise<void> {
  let st: Stats;
  try {
    st = fstatSync(0);
  } catch (e) {
    throw new FileReadError(`stdin can't be read (${(e as Error).message})`, (e as NodeJS.ErrnoException).code ?? "EIO");
  }
  if (st.isFile() || st.isFIFO() || st.isSocket()) return;
  if (st.isCharacterDevice() && (await import("node:tty")).isatty(0)) return;
  throw new FileReadError(`stdin is ${fileKind(st)}, not a file, a pipe or a terminal`, "NOT_REGULAR");
}

/** All of stdin, refused past `max` bytes (TOO_BIG) or when it is a device (NOT_REGULAR). */
export async function readStdinBounded(max: number): Promise<Buffer> {
  await checkStdin();
  return readStreamBounded(Bun.stdin.stream(), max, "stdin");
}

/** stdin's lines (`ws batch`), each refused past `max` bytes (TOO_BIG), a device refused (NOT_REGULAR). */
export async function* stdinLines(max: number): AsyncGenerator<string> {
  await checkStdin();
  yield* streamLines(Bun.stdin.stream(), max, "a line on stdin");
}

/** A regular file's lines (`ws batch FILE`), read as a stream, each refused past `max` bytes
 * (TOO_BIG); anything but a regular file refused (NOT_REGULAR), never waited on. */
export async function* fileLines(path: string, max: number): AsyncGenerator<string> {
  const { fd } = openRegular(path);
  try {
    yield* streamLines(Bun.file(fd).stream(), max, `a line of ${path}`);
  } finally {
    closeSync(fd);
  }
}

async function* streamLines(stream: ReadableStream<Uint8Array>, max: number, what: string): AsyncGenerator<string> {
  const lines = new LineReader(max, what);
  const reader = stream.getReader();
  try {
    for (;;) {
      const r = await reader.read();
      if (r.done) break;
      let got: string[];
      try {
        got = lines.push(r.value);
      } catch (e) {
        if (e instanceof LineTooLong) throw new FileReadError(e.message, "TOO_BIG");
        throw e;
      }
      yield* got;
    }
  } finally {
    reader.releaseLock();
  }
  if (lines.pending) yield lines.rest();
}
