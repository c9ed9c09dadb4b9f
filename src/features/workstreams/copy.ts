// Copying the main clone's untracked files (a template's `copy`, the repo's .worktreeinclude) into
// a new worktree without following a symbolic link out of either. Which paths are links is decided
// by the repo's tracked content, i.e. by whoever pushed to it: a link in the worktree could make
// ws write into a directory outside it (conf -> /home/u/.ssh), and a link in the clone could copy a
// secret from outside into the worktree (lnk -> /home/u/.ssh). Every source is resolved inside the
// main checkout (a link followed only where it stays inside), and every destination is written
// into the new worktree following no link at all (safe-write); anything else is refused by name
// (path_escapes), and the caller then removes the worktree.
import { constants } from "node:fs";
import { lstat, open, readdir, readlink, realpath, stat, type FileHandle } from "node:fs/promises";
import { join, sep } from "node:path";
import { WsError } from "../../protocol/errors";
import { FileReadError, readTextFileAsync } from "../../safe-file";
import { mkdirInside, mkdirsInside, openForWriteInside, symlinkInside, WriteRefused } from "../../safe-write";
import { log } from "../../log";

/** The most bytes of .worktreeinclude read: it is a short list of paths. */
export const MAX_WORKTREEINCLUDE_BYTES = 64 * 1024;

const inside = (root: string, p: string) => p === root || p.startsWith(root.endsWith(sep) ? root : root + sep);

function escapes(entry: string, message: string): WsError {
  return new WsError(`copy ${JSON.stringify(entry)}: ${message}. Nothing was made: remove the entry from the template's copy or .worktreeinclude, or the link`, "path_escapes", { param: "copy" });
}

type Side = { root: string; what: string };

/** Where a path that is a symbolic link leads, when that is inside `side.root`; else refused. */
async function followInside(entry: string, side: Side, link: string): Promise<string> {
  const to = await readlink(link).catch(() => "?");
  const real = await realpath(link).catch(() => undefined);
  if (real === undefined || !inside(side.root, real))
    throw escapes(entry, `${link} is a symbolic link to ${to}, outside ${side.what}; ws follows no link out of it`);
  return real;
}

/** The real directory that holds `rel`'s last component under the main checkout, each directory
 * on the way checked (a link followed only where it stays inside); undefined when one is missing
 * or not a directory (nothing to copy). */
async function sourceParent(entry: string, side: Side, rel: string): Promise<string | undefined> {
  const parts = rel.split("/").filter((c) => c !== "" && c !== ".");
  let at = side.root;
  for (const part of parts.slice(0, -1)) {
    const next = join(at, part);
    const st = await lstat(next).catch(() => undefined);
    if (!st) return undefined;
    at = st.isSymbolicLink() ? await followInside(entry, side, next) : next;
    if (!(await stat(at)).isDirectory()) return undefined;
  }
  return at;
}

/** A refusal of safe-write's, as path_escapes naming the entry (and a link's target). */
async function refusedWrite(entry: string, dst: Side, e: unknown): Promise<never> {
  if (!(e instanceof WriteRefused)) throw e;
  if (e.code === "LINK") throw escapes(entry, `${e.path} is a symbolic link to ${await readlink(e.path).catch(() => "?")} in ${dst.what}; ws writes through no link`);
  if (e.code === "NOT_DIRECTORY") throw escapes(entry, `${e.path} in ${dst.what} is not a directory`);
  if (e.code === "NOT_REGULAR") throw escapes(entry, `${e.message} in ${dst.what}`);
  throw new WsError(`copy ${JSON.stringify(entry)}: ${e.message}`, "setup_failed", { param: "copy" });
}

/** Copy the listed paths that exist in `repo` (the main clone) into `dir` (the new worktree), modes
 * and times kept. Returns the entries copied; throws path_escapes naming the first that leaves. */
export async function copyIntoWorktree(repo: string, dir: string, list: string[]): Promise<string[]> {
  const src: Side = { root: await realpath(repo), what: `the main checkout ${repo}` };
  const dst: Side = { root: await realpath(dir), what: `the new worktree ${dir}` };
  const copied: string[] = [];
  for (const entry of list) {
    const parts = entry.split("/").filter((c) => c !== "" && c !== ".");
    const name = parts.at(-1);
    if (name === undefined) continue;
    const fromDir = await sourceParent(entry, src, entry);
    if (fromDir === undefined) continue;
    const from = join(fromDir, name);
    if (!(await lstat(from).catch(() => undefined))) continue;
    await mkdirsInside(dst.root, parts.slice(0, -1).join("/")).catch((e) => refusedWrite(entry, dst, e));
    await copyNode(entry, src, dst, from, parts.join("/"));
    copied.push(entry);
  }
  return copied;
}

/** Copy one file, directory (recursively) or link to `to` (relative to the worktree), checking the
 * source at every step; the destination is written following no link (safe-write). */
async function copyNode(entry: string, src: Side, dst: Side, from: string, to: string): Promise<void> {
  const st = await lstat(from);
  const there = await lstat(join(dst.root, to)).catch(() => undefined);
  try {
    if (st.isSymbolicLink()) {
      // A link is copied as the link it is, and only when it leads somewhere inside the checkout.
      await followInside(entry, src, from);
      if (there?.isSymbolicLink()) throw new WriteRefused(`${join(dst.root, to)} is a symbolic link`, "LINK", join(dst.root, to));
      if (there) throw escapes(entry, `${join(dst.root, to)} exists in ${dst.what}, and ${from} is a symbolic link`);
      await symlinkInside(dst.root, to, await readlink(from));
      return;
    }
    if (st.isDirectory()) {
      await mkdirInside(dst.root, to, st.mode & 0o7777);
      for (const child of await readdir(from)) await copyNode(entry, src, dst, join(from, child), `${to}/${child}`);
      return;
    }
    if (!st.isFile()) {
      log.warn(`copy ${JSON.stringify(entry)}: skipped ${from}: not a regular file, directory or link`);
      return;
    }
    await copyFile(from, dst.root, to, st.mode & 0o7777, st.atime, st.mtime);
  } catch (e) {
    await refusedWrite(entry, dst, e);
  }
}

/** A regular file's bytes, opened without following a link or waiting on a FIFO on either side. */
async function copyFile(from: string, root: string, to: string, mode: number, atime: Date, mtime: Date): Promise<void> {
  let a: FileHandle | undefined;
  let b: FileHandle | undefined;
  try {
    a = await open(from, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
    if (!(await a.stat()).isFile()) return;
    b = await openForWriteInside(root, to, { mode, truncate: true });
    const buf = Buffer.allocUnsafe(1 << 20);
    for (;;) {
      const { bytesRead } = await a.read(buf, 0, buf.length, null);
      if (bytesRead === 0) break;
      let off = 0;
      while (off < bytesRead) off += (await b.write(buf, off, bytesRead - off)).bytesWritten;
    }
    await b.chmod(mode);
    await b.utimes(atime, mtime);
  } finally {
    await a?.close();
    await b?.close();
  }
}

/** The repo's .worktreeinclude, read through safe-file as a regular file inside the checkout
 * (never a FIFO or a device, never through a link out of it), or "" when there is none, or when it
 * is not a regular file or is over MAX_WORKTREEINCLUDE_BYTES (said on stderr). */
export async function readWorktreeInclude(repo: string): Promise<string> {
  const root = await realpath(repo);
  const file = join(root, ".worktreeinclude");
  const st = await lstat(file).catch(() => undefined);
  if (!st) return "";
  let path = file;
  if (st.isSymbolicLink()) path = await followInside(".worktreeinclude", { root, what: `the main checkout ${repo}` }, file);
  try {
    return await readTextFileAsync(path, MAX_WORKTREEINCLUDE_BYTES, true);
  } catch (e) {
    if (!(e instanceof FileReadError)) throw e;
    log.warn(`ignored ${e.message}`);
    return "";
  }
}
