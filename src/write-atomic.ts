// Replacing a file so that readers see the old one or the new one, never half: a temp file beside
// it (created exclusively, so never through something already at that name), given its mode and
// owner before any byte goes in, written, fsynced, renamed over the file, and the directory
// fsynced so the rename reaches the disk too. Any failure before the rename (a full disk, a file
// size limit, an I/O error) removes the temp file and leaves the old file as it was. One
// asynchronous writer (the daemon's saves) and one synchronous (the CLI's settings files, the
// projects store), sharing the steps.
import { closeSync, fchmodSync, fchownSync, fsyncSync, openSync, renameSync, rmSync, writeSync } from "node:fs";
import { open, rename, rm } from "node:fs/promises";
import { dirname } from "node:path";

export interface AtomicFile {
  /** The new file's permission bits (default 0600: it may hold secrets). */
  mode?: number;
  /** An owner to keep (an existing file's): set on the new file when it is not ours. */
  owner?: { uid: number; gid: number };
}

/** The owner asked for could not be given to the new file; nothing was changed. */
export class OwnerNotKept extends Error {}

/** What a temp file's name carries after the file's own: `<file>.tmp-<pid>-<random>`. */
export const TEMP_MARK = ".tmp-";

/** The writer's pid in a temp file's name, given the name after `<file>.tmp-`; NaN if none. */
export function tempWriter(rest: string): number {
  return Number(rest.split("-")[0]);
}

function tempPath(path: string): string {
  const random = Array.from(crypto.getRandomValues(new Uint8Array(4)), (b) => b.toString(16).padStart(2, "0")).join("");
  return `${path}${TEMP_MARK}${process.pid}-${random}`;
}

const chunksOf = (data: string | Uint8Array | Uint8Array[]): Uint8Array[] => (typeof data === "string" ? [Buffer.from(data)] : Array.isArray(data) ? data : [data]);

/** Mode and owner, on the open temp file before anything is written to it. */
function prepare(fd: number, path: string, o: AtomicFile): void {
  const { owner } = o;
  if (owner && (owner.uid !== process.getuid?.() || owner.gid !== process.getgid?.())) {
    try {
      fchownSync(fd, owner.uid, owner.gid);
    } catch {
      throw new OwnerNotKept(`${path} belongs to uid ${owner.uid} gid ${owner.gid} and can't be given that owner`);
    }
  }
  fchmodSync(fd, o.mode ?? 0o600); // exact: the umask does not apply
}

function syncDirSync(path: string): void {
  try {
    const dfd = openSync(dirname(path), "r");
    try {
      fsyncSync(dfd);
    } finally {
      closeSync(dfd);
    }
  } catch {} // a directory that can't be opened for fsync still got the rename
}

/** Replace `path` with `data` atomically (see the top of this file). */
export function writeAtomicSync(path: string, data: string | Uint8Array | Uint8Array[], o: AtomicFile = {}): void {
  const tmp = tempPath(path);
  const fd = openSync(tmp, "wx", 0o600);
  try {
    try {
      prepare(fd, path, o);
      for (const bytes of chunksOf(data)) for (let off = 0; off < bytes.length; ) off += writeSync(fd, bytes, off, bytes.length - off);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, path);
  } catch (e) {
    rmSync(tmp, { force: true });
    throw e;
  }
  syncDirSync(path);
}

/** Writes a file's bytes as they are made: `bytes` at the end, or at `position` (a part of what
 * was written, filled in last). */
export type FileWriter = (write: (bytes: Uint8Array, position?: number) => Promise<void>) => Promise<void>;

/** writeAtomicSync, without blocking the thread (the daemon's saves); `data` may be a writer that
 * streams the bytes, so a big file is never whole in memory. */
export async function writeAtomic(path: string, data: string | Uint8Array | Uint8Array[] | FileWriter, o: AtomicFile = {}): Promise<void> {
  const tmp = tempPath(path);
  const fh = await open(tmp, "wx", 0o600);
  try {
    try {
      prepare(fh.fd, path, o);
      const write = async (bytes: Uint8Array, position?: number) => {
        for (let off = 0; off < bytes.length; ) off += (await fh.write(bytes, off, bytes.length - off, position === undefined ? null : position + off)).bytesWritten;
      };
      if (typeof data === "function") await data(write);
      else for (const bytes of chunksOf(data)) await write(bytes);
      await fh.sync();
    } finally {
      await fh.close();
    }
    await rename(tmp, path);
  } catch (e) {
    await rm(tmp, { force: true });
    throw e;
  }
  try {
    const d = await open(dirname(path), "r");
    try {
      await d.sync();
    } finally {
      await d.close();
    }
  } catch {} // a directory that can't be opened for fsync still got the rename
}
