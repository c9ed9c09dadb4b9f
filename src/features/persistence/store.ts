// Where saves live and how they are written: $XDG_STATE_HOME/ws/<server>.session (else
// ~/.local/state/ws/), one file per server name, mode 0600, written atomically (src/write-atomic.ts:
// temp file, fsync, rename, fsync of the directory), so a crash leaves the old save or the new one,
// never half.
import { mainSocketOfPane } from "../../paths";
import { readFileAsync, readTextFileAsync } from "../../safe-file";
import { chmod, copyFile, mkdir, readdir, rename, stat, unlink, writeFile } from "node:fs/promises";
import { wsDir } from "../../xdg-dirs";
import { TEMP_MARK, tempWriter, writeAtomic, type FileWriter } from "../../write-atomic";
import { basename, dirname, join } from "node:path";

export type Env = Record<string, string | undefined>;

export function stateDir(env: Env = process.env): string {
  return wsDir("state", env);
}

/** The server's name, from its socket file: default.sock → "default". */
export function serverName(socketPath: string): string {
  // A pane socket (NAME.panes/panes.sock or ID.sock) belongs to server NAME.
  return basename(mainSocketOfPane(socketPath) ?? socketPath).replace(/\.sock$/, "");
}

export function savePath(socketPath: string, env: Env = process.env): string {
  return join(stateDir(env), `${serverName(socketPath)}.session`);
}

/** Saves that could not be loaded are renamed to this prefix plus a time stamp. */
export function asidePrefix(path: string): string {
  return `${path}.unreadable-`;
}

/** Write the save (`data`, in chunks): its directory made 0700 when missing, the file 0600, atomically. */
export async function writeSave(path: string, data: Uint8Array | Uint8Array[] | FileWriter): Promise<void> {
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  await writeAtomic(path, data);
}

/** The save's bytes; undefined when there is none. Never waits on a FIFO or device in its place
 * (src/safe-file.ts): that is an error, as a file over `max` bytes is. */
export async function readSaveBytes(path: string, max = 1024 * 1024 * 1024): Promise<Uint8Array | undefined> {
  try {
    return await readFileAsync(path, max);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw e;
  }
}

function stamp(d = new Date()): string {
  return d.toISOString().replace(/[:.]/g, "-");
}

/** Move an unreadable save aside (keeping it for a person or a newer ws) and note why. */
export async function moveAside(path: string, reason: string): Promise<string> {
  const aside = asidePrefix(path) + stamp();
  await rename(path, aside);
  await writeFile(`${aside}.reason`, reason + "\n", { mode: 0o600 }).catch(() => {});
  return aside;
}

/** Saves restored in part are copied to this prefix plus a time stamp (the next save overwrites the
 * original with what was rebuilt). */
export function partialPrefix(path: string): string {
  return `${path}.partial-`;
}

/** Keep a copy of a save that was restored in part, and note what was left out. */
export async function keepAside(path: string, reason: string): Promise<string> {
  const kept = partialPrefix(path) + stamp();
  await copyFile(path, kept);
  await chmod(kept, 0o600).catch(() => {});
  await writeFile(`${kept}.reason`, reason + "\n", { mode: 0o600 }).catch(() => {});
  return kept;
}

export interface AsideFile {
  path: string;
  server: string;
  reason: string;
  when: Date;
}

/** Saves moved aside, for `ws doctor` and `ws session discard --unreadable`. */
export async function listAside(env: Env = process.env): Promise<AsideFile[]> {
  const dir = stateDir(env);
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return [];
  }
  const out: AsideFile[] = [];
  for (const n of names) {
    const m = /^(.*)\.session\.(?:unreadable|partial)-[^.]+$/.exec(n);
    if (!m) continue;
    const path = join(dir, n);
    const reason = (await readTextFileAsync(`${path}.reason`, 64 * 1024).catch(() => "unknown reason")).trim();
    // When it was moved aside: the reason note is written then (the file keeps its old mtime).
    const when = await stat(`${path}.reason`).then((s) => s.mtime, () => stat(path).then((s) => s.mtime, () => new Date(0)));
    out.push({ path, server: m[1]!, reason, when });
  }
  return out.sort((a, b) => a.when.getTime() - b.when.getTime());
}

export async function removeAside(f: AsideFile): Promise<void> {
  await unlink(f.path).catch(() => {});
  await unlink(`${f.path}.reason`).catch(() => {});
}

export async function removeSave(path: string): Promise<boolean> {
  try {
    await unlink(path);
    return true;
  } catch {
    return false;
  }
}

/** Temp files a crash left mid-write (their writer is gone): remove them. */
export async function removeStaleTemps(path: string): Promise<void> {
  const prefix = basename(path) + TEMP_MARK;
  let names: string[];
  try {
    names = await readdir(dirname(path));
  } catch {
    return;
  }
  for (const n of names) {
    if (!n.startsWith(prefix)) continue;
    const pid = tempWriter(n.slice(prefix.length));
    let alive = false;
    try {
      process.kill(pid, 0);
      alive = pid !== process.pid;
    } catch {}
    if (!alive && pid !== process.pid) await unlink(join(dirname(path), n)).catch(() => {});
  }
}
