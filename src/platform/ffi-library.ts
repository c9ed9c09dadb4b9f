// A C library's functions through bun:ffi, opened on first use and then kept: each symbol is
// compiled into a trampoline when opened, so a process that never asks pays nothing. The one FFI
// style of the server's calls; the files are named once, in os.ts. (client-libc.ts, on the path of
// every CLI call, uses Bun.FFI underneath it: bun:ffi's wrappers cost a call ~0.8 ms to load.)
import { dlopen, type FFIFunction } from "bun:ffi";

export type Symbols<S extends Record<string, FFIFunction>> = ReturnType<typeof dlopen<S>>["symbols"];

/** A function giving `symbols` of the library `file`: undefined, then and after, where there is no
 * file for this system or it won't load (musl, a missing symbol); callers treat that as unknown. */
export function lazyLibrary<S extends Record<string, FFIFunction>>(file: string | undefined, symbols: S): () => Symbols<S> | undefined {
  let loaded: Symbols<S> | null | undefined;
  return () => {
    if (loaded === undefined) {
      loaded = null;
      try {
        if (file) loaded = dlopen(file, symbols).symbols;
      } catch {}
    }
    return loaded ?? undefined;
  };
}
