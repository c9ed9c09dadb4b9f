// The few libc calls a CLI call makes itself, on Linux with glibc: lstat for the socket checks
// (lstat.ts), poll, read, fstat and isatty for a hook's stdin (ws report). They are on the path of every
// call, and the alternatives cost more than the call's own work: loading node:fs ~4 ms (Bun
// compiles that module's JavaScript on each start), reading Bun.stdin ~3.5 ms. Through ffi.ts these
// symbols cost ~1 ms. `clientLibc()` is null elsewhere (macOS, musl, glibc before 2.33,
// other architectures), and callers then use node:fs or Bun.stdin.
import { glibc, readI32 } from "./ffi";

/** Where glibc's struct stat keeps st_mode and st_uid (both u32), and its size, by architecture. */
const STAT_LAYOUT: Record<string, { size: number; mode: number; uid: number }> = {
  x64: { size: 144, mode: 24, uid: 28 },
  arm64: { size: 128, mode: 16, uid: 24 }, // asm-generic
};

// Linux values, the same on x86_64 and aarch64.
const POLLIN = 0x1;
const EINTR = 4;
const EAGAIN = 11;
const S_IFMT = 0o170000;
const S_IFCHR = 0o020000;
const S_IFBLK = 0o060000;

export interface ClientLibc {
  /** st_mode and st_uid of `path` itself (not followed), or undefined when it can't be read. */
  lstat(path: string): { mode: number; uid: number } | undefined;
  /** Everything on `fd` up to end of file; undefined when that did not come within `timeoutMs`;
   * "too_big" as soon as it passes `max` bytes (nothing past the bound is held); "device" at once
   * when `fd` is a device other than a terminal (/dev/zero never ends). */
  readToEnd(fd: number, timeoutMs: number, max: number): Uint8Array | undefined | "too_big" | "device";
}

let loaded: ClientLibc | null | undefined;

export function clientLibc(): ClientLibc | null {
  if (loaded === undefined) loaded = load();
  return loaded;
}

function load(): ClientLibc | null {
  const layout = STAT_LAYOUT[process.arch];
  // Opening lstat alone is what the socket checks pay; a hook's stdin opens its calls when it is read.
  const lstat = layout && glibc.lstat()?.lstat;
  if (!layout || !lstat) return null; // not glibc, or a glibc without an exported lstat
  const isatty = (fd: number) => glibc.isatty()?.isatty(fd) === 1;
  return {
    lstat(path) {
      const out = new Uint32Array(layout.size / 4);
      if (lstat(new TextEncoder().encode(path + "\0"), out) !== 0) return undefined;
      return { mode: out[layout.mode / 4]!, uid: out[layout.uid / 4]! };
    },
    readToEnd(fd, timeoutMs, max) {
      const io = glibc.stdin();
      if (!io) throw new Error("glibc's poll, read and fstat won't load");
      const { poll, read, fstat } = io;
      const errno = () => readI32(io.__errno_location()!);
      const st = new Uint32Array(layout.size / 4);
      if (fstat(fd, st) === 0) {
        const type = st[layout.mode / 4]! & S_IFMT;
        if ((type === S_IFCHR && !isatty(fd)) || type === S_IFBLK) return "device";
      }
      const deadline = performance.now() + timeoutMs;
      const pollfd = new Int32Array(2); // struct pollfd: int fd; short events; short revents
      const chunk = new Uint8Array(65536);
      const parts: Uint8Array[] = [];
      let size = 0;
      for (;;) {
        const left = Math.ceil(deadline - performance.now());
        if (left <= 0) return undefined;
        pollfd[0] = fd;
        pollfd[1] = POLLIN; // events (low half), revents cleared
        const ready = poll(pollfd, 1, left);
        if (ready === 0) return undefined;
        if (ready < 0) {
          if (errno() === EINTR) continue;
          return undefined;
        }
        const n = Number(read(fd, chunk, chunk.length));
        if (n === 0) break; // end of file
        if (n < 0) {
          const e = errno();
          if (e === EINTR || e === EAGAIN) continue;
          return undefined;
        }
        size += n;
        if (size > max) return "too_big";
        parts.push(chunk.slice(0, n));
      }
      const all = new Uint8Array(size);
      let at = 0;
      for (const p of parts) {
        all.set(p, at);
        at += p.length;
      }
      return all;
    },
  };
}
