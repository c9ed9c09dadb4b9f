// The few libc calls a CLI call makes itself, on Linux with glibc: lstat for the socket checks
// (lstat.ts), poll, read, fstat and isatty for a hook's stdin (ws report). They are on the path of every
// call, and the alternatives cost more than the call's own work: loading node:fs ~4 ms (Bun
// compiles that module's JavaScript on each start), reading Bun.stdin ~3.5 ms. Through Bun.FFI these
// symbols cost ~1 ms. `clientLibc()` is null elsewhere (macOS, musl, glibc before 2.33,
// other architectures), and callers then use node:fs or Bun.stdin.
import { GLIBC } from "./os";

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

type Fn = (...args: unknown[]) => number | bigint;

/**
 * The FFIType codes of the types used here (bun:ffi's FFIType.i32, .i64, .u64, .ptr; the test
 * holds them to those). Bun.FFI, the native object bun:ffi wraps, takes codes, and pointers as
 * numbers. It is used directly because bun:ffi's wrappers cost a call ~0.8 ms more: the module
 * itself, and a generated JavaScript function compiled per symbol.
 */
export const FFI_TYPE = { i32: 5, i64: 7, u64: 8, ptr: 12 } as const;

interface NativeFfi {
  dlopen(path: string, symbols: Record<string, { args: number[]; returns: number }>): { symbols: Record<string, Fn> };
  ptr(view: ArrayBufferView): number;
  read: { i32(ptr: number, offset: number): number };
}

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
  const glibc = GLIBC;
  if (!glibc || !layout) return null;
  const ffi = (Bun as unknown as { FFI?: NativeFfi }).FFI;
  if (typeof ffi?.dlopen !== "function" || typeof ffi.ptr !== "function") return null;
  const { i32, i64, u64, ptr } = FFI_TYPE;
  // Each symbol is compiled into a trampoline when opened (~0.15 ms): the socket checks open lstat
  // alone; a hook's stdin opens its three when it is read.
  let lstat: Fn;
  try {
    lstat = ffi.dlopen(glibc, { lstat: { args: [ptr, ptr], returns: i32 } }).symbols.lstat!;
  } catch {
    return null; // not glibc, or a glibc without an exported lstat
  }
  let io: { poll: Fn; read: Fn; fstat: Fn; errno: () => number } | undefined;
  const stdinCalls = () => {
    if (io) return io;
    const sym = ffi.dlopen(glibc, {
      poll: { args: [ptr, u64, i32], returns: i32 },
      read: { args: [i32, ptr, u64], returns: i64 },
      fstat: { args: [i32, ptr], returns: i32 },
      __errno_location: { args: [], returns: ptr },
    }).symbols;
    return (io = { poll: sym.poll!, read: sym.read!, fstat: sym.fstat!, errno: () => ffi.read.i32(sym.__errno_location!() as number, 0) });
  };
  // Only a character device on stdin (a terminal, or /dev/zero) pays for opening isatty.
  const isatty = (fd: number) => ffi.dlopen(glibc, { isatty: { args: [i32], returns: i32 } }).symbols.isatty!(fd) === 1;
  const p = ffi.ptr;
  return {
    lstat(path) {
      const out = new Uint32Array(layout.size / 4);
      if (lstat(p(new TextEncoder().encode(path + "\0")), p(out)) !== 0) return undefined;
      return { mode: out[layout.mode / 4]!, uid: out[layout.uid / 4]! };
    },
    readToEnd(fd, timeoutMs, max) {
      const { poll, read, fstat, errno } = stdinCalls();
      const st = new Uint32Array(layout.size / 4);
      if (fstat(fd, p(st)) === 0) {
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
        const ready = poll(p(pollfd), 1, left) as number;
        if (ready === 0) return undefined;
        if (ready < 0) {
          if (errno() === EINTR) continue;
          return undefined;
        }
        const n = Number(read(fd, p(chunk), chunk.length));
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
