// lstat for the client's socket checks: glibc's own (client-libc.ts, through ffi.ts) where it can,
// since node:fs costs every CLI call ~4 ms to load; node:fs elsewhere.
import { clientLibc } from "./client-libc";

export type EntryKind = "directory" | "socket" | "symlink" | "file" | "other";

export interface Entry {
  kind: EntryKind;
  /** Permission bits (mode & 0o7777). */
  mode: number;
  uid: number;
}

const S_IFMT = 0o170000;
const KINDS: Record<number, EntryKind> = { 0o040000: "directory", 0o140000: "socket", 0o120000: "symlink", 0o100000: "file" };
const entry = (mode: number, uid: number): Entry => ({ kind: KINDS[mode & S_IFMT] ?? "other", mode: mode & 0o7777, uid });

/** Through glibc's lstat; null when that is not available here. Undefined when the path can't be read. */
export function lstatViaLibc(path: string): Entry | undefined | null {
  const libc = clientLibc();
  if (!libc) return null;
  if (path.includes("\0")) return undefined;
  const st = libc.lstat(path);
  return st && entry(st.mode, st.uid);
}

/** Through node:fs. Undefined when the path can't be read. */
export function lstatViaNode(path: string): Entry | undefined {
  // Loaded here, so a call that has glibc never pays for node:fs.
  const { lstatSync } = process.getBuiltinModule("node:fs") as typeof import("node:fs");
  try {
    const st = lstatSync(path);
    return entry(st.mode, st.uid);
  } catch {
    return undefined;
  }
}

/** What is at `path` itself (a symlink is reported, not followed); undefined when it can't be read. */
export function lstatEntry(path: string): Entry | undefined {
  const viaLibc = lstatViaLibc(path);
  return viaLibc === null ? lstatViaNode(path) : viaLibc;
}
