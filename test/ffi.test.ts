// One FFI style: every C function ws calls is declared in src/platform/ffi.ts and opened through
// its one loader (Bun.FFI, which bun:ffi's own dlopen calls; the module would cost each CLI call
// ~0.7 ms to load). The loader's functions take buffers as pointers and give numbers, bigints and
// pointers back as bun:ffi's do, and a library or symbol that won't load is an answer, not a throw.
import { expect, test } from "bun:test";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { glibc, lazyLibrary, readI32 } from "../src/platform/ffi";
import { GLIBC } from "../src/platform/os";

const SRC = join(import.meta.dir, "../src");
const sources = (dir: string): string[] =>
  readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? sources(p) : p.endsWith(".ts") ? [p] : [];
  });
/** Each source file's text without its comments' lines, by its path under src/. */
const code = sources(SRC).map((f) => ({ file: relative(SRC, f), text: readFileSync(f, "utf8").replace(/^\s*(\/\/|\*|\/\*\*).*$/gm, "") }));

test("only platform/ffi.ts opens a C library; bun:ffi is imported for its types alone; libc.so.6 is named once", () => {
  expect(code.filter((c) => /\bdlopen\s*\(|\bBun\.FFI\b|\.FFI\b/.test(c.text)).map((c) => c.file)).toEqual(["platform/ffi.ts"]);
  const valueImports = code.filter((c) => /^\s*import\s+(?!type\b)[^;]*from\s+["']bun:ffi["']|import\(\s*["']bun:ffi["']\s*\)|require\(\s*["']bun:ffi["']\s*\)/m.test(c.text));
  expect(valueImports.map((c) => c.file)).toEqual([]);
  expect(code.filter((c) => c.text.includes("libc.so.6")).map((c) => c.file)).toEqual(["platform/os.ts"]);
});

test.skipIf(!GLIBC)("the loader takes buffers as pointers and gives numbers, bigints and errno back", () => {
  const lib = lazyLibrary(GLIBC, { strlen: { args: ["ptr"], returns: "u64" }, getpid: { args: [], returns: "i32" } } as const)();
  expect(lib).toBeDefined();
  expect(lib!.getpid()).toBe(process.pid);
  expect(Number(lib!.strlen(new TextEncoder().encode("hello\0")))).toBe(5);
  const { lstat } = glibc.lstat()!;
  const { __errno_location } = glibc.stdin()!; // opened first: opening a set may set errno
  expect(lstat(new TextEncoder().encode("/no/such/path/for/ws\0"), new Uint32Array(64))).toBe(-1);
  expect(readI32(__errno_location()!)).toBe(2); // ENOENT
});

test("a library or symbol that won't load gives undefined, then and after, and never throws", () => {
  for (const open of [
    lazyLibrary(undefined, { getpid: { args: [], returns: "i32" } } as const),
    lazyLibrary("libws-no-such-library.so", { getpid: { args: [], returns: "i32" } } as const),
    lazyLibrary(GLIBC, { ws_no_such_symbol: { args: [], returns: "i32" } } as const),
  ]) {
    expect(open()).toBeUndefined();
    expect(open()).toBeUndefined();
  }
});
