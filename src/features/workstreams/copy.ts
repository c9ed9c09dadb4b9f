// Copying the main clone's untracked files (a template's `copy`, the repo's .worktreeinclude) into
// a new worktree without following a symbolic link out of either. Which paths are links is decided
// by the repo's tracked content, i.e. by whoever pushed to it: a link in the worktree could make
// ws write into a directory outside it (conf -> /home/u/.ssh), and a link in the clone could copy a
// secret from outside into the worktree (lnk -> /home/u/.ssh). Every source is resolved inside the
// main checkout and every destination inside the new worktree; anything that leaves them is
// refused by name (path_escapes), and the caller then removes the worktree.
import { constants } from "node:fs";
import { lstat, mkdir, open, readdir, readlink, realpath, stat, symlink, type FileHandle } from "node:fs/promises";
import { join, sep } from "node:path";
import { WsError } from "../../protocol/errors";

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

/** The real directory that holds `rel`'s last component under `side.root`, each directory on the
 * way checked (a link followed only where it stays inside). Missing directories are made when
 * `make`, else the answer is undefined (nothing to copy). */
async function parentInside(entry: string, side: Side, rel: string, make: boolean): Promise<string | undefined> {
  const parts = rel.split("/").filter((c) => c !== "" && c !== ".");
  let at = side.root;
  for (const part of parts.slice(0, -1)) {
    const next = join(at, part);
    const st = await lstat(next).catch(() => undefined);
    if (!st) {
      if (!make) return undefined;
      await mkdir(next);
      at = next;
      continue;
    }
    if (st.isSymbolicLink()) at = await followInside(entry, side, next);
    else at = next;
    if (!(await stat(at)).isDirectory()) {
      if (!make) return undefined;
      throw escapes(entry, `${next} in ${side.what} is not a directory`);
    }
  }
  return at;
}

/** Copy the listed paths that exist in `repo` (the main clone) into `dir` (the new worktree), modes
 * and times kept. Returns the entries copied; throws path_escapes naming the first that leaves. */
export async function copyIntoWorktree(repo: string, dir: string, list: string[]): Promise<string[]> {
  const src: Side = { root: await realpath(repo), what: `the main checkout ${repo}` };
  const dst: Side = { root: await realpath(dir), what: `the new worktree ${dir}` };
  const copied: string[] = [];
  for (const entry of list) {
    const name = entry.split("/").filter((c) => c !== "" && c !== ".").pop();
    if (name === undefined) continue;
    const fromDir = await parentInside(entry, src, entry, false);
    if (fromDir === undefined) continue;
    const from = join(fromDir, name);
    if (!(await lstat(from).catch(() => undefined))) continue;
    const toDir = await parentInside(entry, dst, entry, true);
    await copyNode(entry, src, dst, from, join(toDir!, name));
    copied.push(entry);
  }
  return copied;
}

/** Copy one file, directory (recursively) or link, checking both sides at every step. */
async function copyNode(entry: string, src: Side, dst: Side, from: string, to: string): Promise<void> {
  const st = await lstat(from);
  const there = await lstat(to).catch(() => undefined);
  if (there?.isSymbolicLink()) throw escapes(entry, `${to} is a symbolic link in ${dst.what} (to ${await readlink(to).catch(() => "?")}); ws writes through no link`);
  if (st.isSymbolicLink()) {
    // A link is copied as the link it is, and only when it leads somewhere inside the checkout.
    await followInside(entry, src, from);
    if (there) throw escapes(entry, `${to} exists in ${dst.what}, and ${from} is a symbolic link`);
    await symlink(await readlink(from), to);
    return;
  }
  if (st.isDirectory()) {
    if (there && !there.isDirectory()) throw escapes(entry, `${to} in ${dst.what} is not a directory`);
    if (!there) await mkdir(to, { mode: st.mode & 0o7777 });
    for (const child of await readdir(from)) await copyNode(entry, src, dst, join(from, child), join(to, child));
    return;
  }
  if (!st.isFile()) {
    console.error(`ws: copy ${JSON.stringify(entry)}: skipped ${from}: not a regular file, directory or link`);
    return;
  }
  if (there && !there.isFile()) throw escapes(entry, `${to} in ${dst.what} is not a regular file`);
  await copyFile(from, to, st.mode & 0o7777, st.atime, st.mtime);
}

/** A regular file's bytes, opened without following a link or waiting on a FIFO on either side. */
async function copyFile(from: string, to: string, mode: number, atime: Date, mtime: Date): Promise<void> {
  let a: FileHandle | undefined;
  let b: FileHandle | undefined;
  try {
    a = await open(from, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
    if (!(await a.stat()).isFile()) return;
    b = await open(to, constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | constants.O_NOFOLLOW | constants.O_NONBLOCK, mode);
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

/** The repo's .worktreeinclude, read as a regular file inside the checkout (never a FIFO, never
 * through a link out of it, at most MAX_WORKTREEINCLUDE_BYTES), or "" when there is none. */
export async function readWorktreeInclude(repo: string): Promise<string> {
  const root = await realpath(repo);
  const file = join(root, ".worktreeinclude");
  const st = await lstat(file).catch(() => undefined);
  if (!st) return "";
  let path = file;
  if (st.isSymbolicLink()) path = await followInside(".worktreeinclude", { root, what: `the main checkout ${repo}` }, file);
  const fh = await open(path, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const fst = await fh.stat();
    if (!fst.isFile()) {
      console.error(`ws: ${file}: not a regular file, ignored`);
      return "";
    }
    const buf = Buffer.alloc(Math.min(fst.size, MAX_WORKTREEINCLUDE_BYTES));
    const { bytesRead } = await fh.read(buf, 0, buf.length, 0);
    if (fst.size > MAX_WORKTREEINCLUDE_BYTES) console.error(`ws: ${file}: over ${MAX_WORKTREEINCLUDE_BYTES} bytes; read its first ${MAX_WORKTREEINCLUDE_BYTES}`);
    return buf.subarray(0, bytesRead).toString("utf8");
  } finally {
    await fh.close();
  }
}
