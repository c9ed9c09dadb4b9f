// Every C function ws calls, the server's and the CLI's alike: declared here, in sets, and opened
// through one loader. A set is opened on its first use and then kept (each symbol is compiled into
// a trampoline when opened, ~0.15 ms), so a process pays only for the sets it uses: a CLI call
// opens lstat alone; the PTY's set opens with the first pane.
//
// The loader is Bun's native FFI object (Bun.FFI), not the `bun:ffi` module: that module's dlopen
// is this same native dlopen (it normalises the path and returns the native functions as they
// are), but loading the module costs a process ~0.7 ms (measured in a compiled binary: 0.63–0.84 ms
// median), which every CLI call would pay for its socket checks' lstat. `bun:ffi` is imported here
// for its types only (erased). Where a set can't be opened (no file for this system, musl, a
// missing symbol, a Bun without Bun.FFI) its opener gives undefined, and callers fall back or treat
// the answer as unknown. The libraries' files are named once, in os.ts.
import type { ConvertFns, FFIFunction, Pointer, read as ReadFns } from "bun:ffi";
import { C_LIBRARY, GLIBC, hostOs, LIBSYSTEM } from "./os";

interface NativeFfi {
  dlopen<S extends Record<string, FFIFunction>>(path: string, symbols: S): { symbols: ConvertFns<S> };
  ptr(view: NodeJS.TypedArray | ArrayBufferLike | DataView): Pointer;
  read: typeof ReadFns;
}

const native = (Bun as unknown as { FFI?: Partial<NativeFfi> }).FFI;

/** The functions a set of symbols gives, typed from its declaration. */
export type Symbols<S extends Record<string, FFIFunction>> = ConvertFns<S>;

/** A function giving `symbols` of the library `file`: undefined, then and after, where there is no
 * file for this system or it won't load. */
export function lazyLibrary<S extends Record<string, FFIFunction>>(file: string | undefined, symbols: S): () => Symbols<S> | undefined {
  let loaded: Symbols<S> | null | undefined;
  return () => {
    if (loaded === undefined) {
      loaded = null;
      try {
        if (file && typeof native?.dlopen === "function") loaded = native.dlopen(file, symbols).symbols;
      } catch {}
    }
    return loaded ?? undefined;
  };
}

/** The address of a buffer, for a pointer argument or a pointer inside a C structure. Only called
 * once a set has opened, so Bun.FFI is there. */
export function ptr(view: NodeJS.TypedArray | ArrayBufferLike | DataView): Pointer {
  return native!.ptr!(view);
}

/** A 32-bit integer at `at + offset` (errno behind __errno_location's pointer). */
export function readI32(at: Pointer | bigint, offset = 0): number {
  return native!.read!.i32(Number(at) as Pointer, offset);
}

/** A PTY master of ws's own (pty-libc.ts): opening a pair, its size and modes, writing to it, and
 * reading a typed key's echo at once. */
const PTY = {
  posix_openpt: { args: ["i32"], returns: "i32" },
  grantpt: { args: ["i32"], returns: "i32" },
  unlockpt: { args: ["i32"], returns: "i32" },
  ptsname_r: { args: ["i32", "ptr", "u64"], returns: "i32" },
  open: { args: ["ptr", "i32"], returns: "i32" },
  close: { args: ["i32"], returns: "i32" },
  write: { args: ["i32", "ptr", "u64"], returns: "i64" },
  /** A typed key's echo, waited for and read in the same turn (pty-native.ts readNow). */
  poll: { args: ["ptr", "u64", "i32"], returns: "i32" },
  read: { args: ["i32", "ptr", "u64"], returns: "i64" },
  ioctl: { args: ["i32", "u64", "ptr"], returns: "i32" },
  fcntl: { args: ["i32", "i32", "i32"], returns: "i32" },
  tcgetattr: { args: ["i32", "ptr"], returns: "i32" },
  tcsetattr: { args: ["i32", "i32", "ptr"], returns: "i32" },
  __errno_location: { args: [], returns: "ptr" },
} as const;

export type PtyCalls = Symbols<typeof PTY>;

/** glibc's calls, on Linux only: the constants and structure layouts their callers use are Linux's. */
export const glibc = {
  /** The client's socket checks (client-libc.ts). */
  lstat: lazyLibrary(GLIBC, { lstat: { args: ["ptr", "ptr"], returns: "i32" } } as const),
  /** A hook's stdin, read to its end with a deadline (client-libc.ts, for ws report). */
  stdin: lazyLibrary(GLIBC, {
    poll: { args: ["ptr", "u64", "i32"], returns: "i32" },
    read: { args: ["i32", "ptr", "u64"], returns: "i64" },
    fstat: { args: ["i32", "ptr"], returns: "i32" },
    __errno_location: { args: [], returns: "ptr" },
  } as const),
  /** Only a character device on a hook's stdin (a terminal, or /dev/zero) pays for opening it. */
  isatty: lazyLibrary(GLIBC, { isatty: { args: ["i32"], returns: "i32" } } as const),
  pty: lazyLibrary(GLIBC, PTY),
  /** CLOCK_MONOTONIC, which every process on the machine shares (hop-trace.ts). */
  clock: lazyLibrary(GLIBC, { clock_gettime: { args: ["i32", "ptr"], returns: "i32" } } as const),
  /** Unmapping the server's start-up code (code-pages.ts): an address and a length, as integers. */
  madvise: lazyLibrary(GLIBC, { madvise: { args: ["u64", "u64", "i32"], returns: "i32" } } as const),
};

/** This system's C library (glibc, or libSystem on macOS): POSIX calls with the same signatures in both. */
export const cLibrary = {
  /** getsid, the descriptor limits, a Unix socket's peer (sys.ts). */
  sys: lazyLibrary(C_LIBRARY, {
    getsockopt: { args: ["i32", "i32", "i32", "ptr", "ptr"], returns: "i32" },
    getsid: { args: ["i32"], returns: "i32" },
    getrlimit: { args: ["i32", "ptr"], returns: "i32" },
    setrlimit: { args: ["i32", "ptr"], returns: "i32" },
  } as const),
  /** Becoming another program (exec.ts, ws box). */
  exec: lazyLibrary(C_LIBRARY, { execve: { args: ["ptr", "ptr", "ptr"], returns: "i32" } } as const),
};

/** macOS's libproc, in libSystem: a process's cwd, parent, terminal and name (darwin.ts). */
export const libproc = lazyLibrary(hostOs === "darwin" ? LIBSYSTEM : undefined, {
  proc_pidinfo: { args: ["i32", "i32", "u64", "ptr", "i32"], returns: "i32" },
} as const);
