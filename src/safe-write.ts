// Writing into a tree someone else controls (a worktree, whose files and links come from a repo, a
// PR or the agent working there; a directory git keeps) without following a link anywhere on the
// way. Every component under the trusted root is checked with lstat (a link, or anything but a
// directory where one is needed, is refused by name), missing directories are made one by one,
// and the last one is opened with O_NOFOLLOW and O_NONBLOCK, then checked with fstat: a link
// planted at `.ws/pr.md -> ~/.bashrc` is refused, and a FIFO never holds the write.
// docs/security.md ("Files others control").
import { constants } from "node:fs";
import { lstat, mkdir, open, rmdir, symlink, unlink, type FileHandle } from "node:fs/promises";
import { join } from "node:path";
import { fileKind } from "./safe-file";

/** Why a path inside the tree was refused; `code` is LINK (a symbolic link on the way),
 * NOT_DIRECTORY, NOT_REGULAR, or the errno's name for a system error. */
export class WriteRefused extends Error {
  constructor(
    message: string,
    readonly code: string,
    /** The path refused. */
    readonly path: string,
  ) {
    super(message);
  }
}

/** `rel`'s components: no empty ones, no `.`; a `..` is refused (nothing leaves the root). */
function components(rel: string): string[] {
  const parts = rel.split("/").filter((c) => c !== "" && c !== ".");
  if (parts.includes("..")) throw new WriteRefused(`${rel} leaves its directory (..)`, "ESCAPES", rel);
  return parts;
}

/** The directory `parts` name under `root`, checked (and with `make`, made) one component at a
 * time; a link or a non-directory on the way is refused. Undefined when one is missing and not
 * `make`. */
async function directoryInside(root: string, parts: string[], make: boolean): Promise<string | undefined> {
  let at = root;
  for (const part of parts) {
    at = join(at, part);
    const st = await lstat(at).catch((e: NodeJS.ErrnoException) => {
      if (e.code === "ENOENT") return undefined;
      throw new WriteRefused(`${at} can't be read (${e.message})`, e.code ?? "EIO", at);
    });
    if (!st) {
      if (!make) return undefined;
      await mkdir(at).catch((e: NodeJS.ErrnoException) => {
        if (e.code !== "EEXIST") throw new WriteRefused(`${at} can't be made (${e.message})`, e.code ?? "EIO", at);
      });
      // Made by us, or by someone else in the same instant: check what is there now.
      const again = await lstat(at);
      if (!again.isDirectory() || again.isSymbolicLink()) throw refusedKind(at, again);
      continue;
    }
    if (!st.isDirectory()) throw refusedKind(at, st);
  }
  return at;
}

function refusedKind(path: string, st: { isSymbolicLink(): boolean }): WriteRefused {
  return st.isSymbolicLink()
    ? new WriteRefused(`${path} is a symbolic link; ws writes through no link`, "LINK", path)
    : new WriteRefused(`${path} is not a directory`, "NOT_DIRECTORY", path);
}

/** Make the directories of `rel` under `root` (each checked as it goes); returns the last one. */
export async function mkdirsInside(root: string, rel: string): Promise<string> {
  return (await directoryInside(root, components(rel), true))!;
}

/** Open `rel` under `root` for writing: each parent checked (made when `makeParents`), the file
 * itself opened without following a link or waiting on a FIFO, and refused unless it is a regular
 * file. `truncate`: empty it (only once it is known to be a regular file). The caller closes it. */
export async function openForWriteInside(root: string, rel: string, o: { mode?: number; makeParents?: boolean; truncate?: boolean } = {}): Promise<FileHandle> {
  const parts = components(rel);
  const name = parts.pop();
  if (name === undefined) throw new WriteRefused(`${rel} names no file`, "EINVAL", rel);
  const dir = await directoryInside(root, parts, o.makeParents ?? false);
  const path = join(dir ?? join(root, ...parts), name);
  if (dir === undefined) throw new WriteRefused(`${dirnameOf(path)} does not exist`, "ENOENT", path);
  let fh: FileHandle;
  try {
    fh = await open(path, constants.O_WRONLY | constants.O_CREAT | constants.O_NOFOLLOW | constants.O_NONBLOCK | constants.O_NOCTTY, o.mode ?? 0o644);
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    if (err.code === "ELOOP") throw new WriteRefused(`${path} is a symbolic link; ws writes through no link`, "LINK", path);
    // ENXIO: a FIFO with no reader (O_NONBLOCK refuses to wait for one).
    if (err.code === "ENXIO") throw new WriteRefused(`${path} is not a regular file (a FIFO, with no reader)`, "NOT_REGULAR", path);
    throw new WriteRefused(`${path} can't be written (${err.message})`, err.code ?? "EIO", path);
  }
  try {
    const st = await fh.stat();
    if (!st.isFile()) throw new WriteRefused(`${path} is not a regular file (${fileKind(st)})`, "NOT_REGULAR", path);
    if (o.truncate) await fh.truncate(0);
    return fh;
  } catch (e) {
    await fh.close();
    throw e;
  }
}

const dirnameOf = (p: string) => p.slice(0, p.lastIndexOf("/")) || "/";

/** Write `data` as the whole of `rel` under `root` (parents made), following no link. */
export async function writeFileInside(root: string, rel: string, data: string | Uint8Array, o: { mode?: number } = {}): Promise<void> {
  const fh = await openForWriteInside(root, rel, { mode: o.mode, makeParents: true, truncate: true });
  try {
    const bytes = typeof data === "string" ? Buffer.from(data) : data;
    let off = 0;
    while (off < bytes.length) off += (await fh.write(bytes, off, bytes.length - off)).bytesWritten;
  } finally {
    await fh.close();
  }
}

/** Make the symbolic link `rel` under `root` (to `target`), its parents checked and made. */
export async function symlinkInside(root: string, rel: string, target: string): Promise<void> {
  const parts = components(rel);
  const name = parts.pop();
  if (name === undefined) throw new WriteRefused(`${rel} names no file`, "EINVAL", rel);
  const dir = (await directoryInside(root, parts, true))!;
  await symlink(target, join(dir, name));
}

/** Make the directory `rel` under `root` when missing (its parents too); refused when a link or a
 * file is there. */
export async function mkdirInside(root: string, rel: string, mode?: number): Promise<void> {
  const parts = components(rel);
  const name = parts.pop();
  if (name === undefined) return;
  const dir = (await directoryInside(root, parts, true))!;
  const path = join(dir, name);
  await mkdir(path, mode !== undefined ? { mode } : {}).catch((e: NodeJS.ErrnoException) => {
    if (e.code !== "EEXIST") throw new WriteRefused(`${path} can't be made (${e.message})`, e.code ?? "EIO", path);
  });
  const st = await lstat(path);
  if (!st.isDirectory()) throw refusedKind(path, st);
}

/** Remove the file (or link: never what it points to) `rel` under `root`; nothing when it is
 * missing, or a parent is. A link on the way is refused. */
export async function removeInside(root: string, rel: string): Promise<void> {
  const parts = components(rel);
  const name = parts.pop();
  if (name === undefined) return;
  const dir = await directoryInside(root, parts, false);
  if (dir === undefined) return;
  await unlink(join(dir, name)).catch((e: NodeJS.ErrnoException) => {
    if (e.code !== "ENOENT") throw new WriteRefused(`${join(dir, name)} can't be removed (${e.message})`, e.code ?? "EIO", join(dir, name));
  });
}

/** Remove the directories of `rel` under `root` that are empty, deepest first, up to (not
 * including) `root`; stops at the first that is not empty, missing or not a plain directory. */
export async function removeEmptyDirsInside(root: string, rel: string): Promise<void> {
  const parts = components(rel);
  for (let n = parts.length; n > 0; n--) {
    let dir: string | undefined;
    try {
      dir = await directoryInside(root, parts.slice(0, n), false);
    } catch {
      return; // a link or a file on the way: not ours to remove
    }
    if (dir === undefined) return;
    try {
      await rmdir(dir);
    } catch {
      return;
    }
  }
}
