// lstat for the client's socket checks: glibc's own through bun:ffi (client/libc.ts) where it can,
// since node:fs costs every CLI call ~4 ms to load; node:fs elsewhere.
import { clientLibc } from "./libc";

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
export async function lstatViaLibc(path: string): Promise<Entry | undefined | null> {
  const libc = await clientLibc();
  if (!libc) return null;
  if (path.includes("\0")) return undefined;
  const st = libc.lstat(path);
  return st && entry(st.mode, st.uid);
}

/** Through node:fs. Undefined when the path can't be read. */
export async function lstatViaNode(path: string): Promise<Entry | undefined> {
  const { lstatSync } = await import("node:fs");
  try {
    const st = lstatSync(path);
    return entry(st.mode, st.uid);
  } catch {
    return undefined;
  }
}

/** What is at `path` itself (a symlink is reported, not followed); undefined when it can't be read. */
export async function lstatEntry(path: string): Promise<Entry | undefined> {
  const viaLibc = await lstatViaLibc(path);
  return viaLibc === null ? lstatViaNode(path) : viaLibc;
}
