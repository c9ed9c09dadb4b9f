// Changing an agent's settings file so the change can be taken back byte for byte: what
// `ws hooks install|uninstall` and `ws mcp install|uninstall` share. The user's own keys stay; a
// backup sits beside the file; a file installed and then uninstalled (untouched in between) comes
// back exactly, with its mode, its owner and (for a symlink) its link.
//
// The settings file may hold secrets (0600) and may be a symlink a dotfile manager made. So: the
// file ws changes is the symlink's target (the link stays a link); every write keeps the target's
// mode and owner, goes to a temp file beside the target, is fsynced, then renamed over it.
import { existsSync, lstatSync, mkdirSync, readlinkSync, realpathSync, rmSync, type Stats } from "node:fs";
import { dirname, resolve } from "node:path";
import { readTextFile } from "../../safe-file";
import { OwnerNotKept, writeAtomicSync } from "../../write-atomic";

/** A settings file ws won't change, and why; nothing was changed. */
export class SettingsError extends Error {}

interface SettingsFile {
  /** The path as named (maybe a symlink): where the backup sits, what messages show. */
  path: string;
  /** The regular file behind it, which is what gets read and written. */
  target: string;
  /** The target's mode and owner, when it exists. */
  stat?: Stats;
}

const MAX_LINKS = 40; // as the kernel's own limit on a path's symlinks

/** Follow `path`'s symlinks to the file they name, existing or not (a dangling link's target). */
export function resolveSettings(path: string): SettingsFile {
  let p = resolve(path);
  let linked = false;
  for (let hops = 0; hops <= MAX_LINKS; hops++) {
    let st: Stats;
    try {
      st = lstatSync(p);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "ENOENT") throw new SettingsError(`${p}: ${(e as Error).message}`);
      const dir = dirname(p);
      // A dangling link is written through (its target created), but not into a directory that
      // isn't there: that is a dotfile checkout missing, not something for ws to make up.
      if (linked && !existsSync(dir))
        throw new SettingsError(`${path} is a symlink to ${p}, whose directory does not exist; nothing was changed`);
      return { path, target: p };
    }
    if (st.isSymbolicLink()) {
      linked = true;
      const dir = dirname(p);
      p = resolve(existsSync(dir) ? realpathSync(dir) : dir, readlinkSync(p));
      continue;
    }
    if (!st.isFile()) throw new SettingsError(`${p} is not a regular file; nothing was changed`);
    return { path, target: linked ? realpathSync(p) : p, stat: st };
  }
  throw new SettingsError(`${path}: too many levels of symlinks; nothing was changed`);
}

/** The most of a settings file (or its backup) read: far past any agent's settings. */
export const MAX_SETTINGS_BYTES = 4 * 1024 * 1024;

/** A settings file's text through src/safe-file.ts: a regular file only, refused past its bound. */
function readSettings(path: string): string {
  try {
    return readTextFile(path, MAX_SETTINGS_BYTES);
  } catch (e) {
    throw new SettingsError(`${(e as Error).message}; nothing was changed`);
  }
}

const read = (f: SettingsFile) => (f.stat ? readSettings(f.target) : null);

/** Replace `path` with `text` atomically (src/write-atomic.ts), with `like`'s mode and owner (else
 * 0644 and ours). */
function writeAtomic(path: string, text: string, like: Stats | undefined): void {
  try {
    writeAtomicSync(path, text, like ? { mode: like.mode & 0o7777, owner: like } : { mode: 0o644 });
  } catch (e) {
    if (e instanceof OwnerNotKept) throw new SettingsError(`${path} belongs to uid ${like?.uid} gid ${like?.gid} and ws can't keep that owner; nothing was changed`);
    throw e;
  }
}

/** Lines removed and added, for --dry-run (a plain LCS: settings files are small). */
export function lineDiff(before: string, after: string): string {
  const a = before === "" ? [] : before.replace(/\n$/, "").split("\n");
  const b = after === "" ? [] : after.replace(/\n$/, "").split("\n");
  const lcs = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i--)
    for (let j = b.length - 1; j >= 0; j--)
      lcs[i]![j] = a[i] === b[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
  const out: string[] = [];
  let [i, j] = [0, 0];
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) [i, j] = [i + 1, j + 1];
    else if (i < a.length && (j === b.length || lcs[i + 1]![j]! >= lcs[i]![j + 1]!)) out.push(`- ${a[i++]}`);
    else out.push(`+ ${b[j++]}`);
  }
  return out.join("\n");
}

// A settings file of the user's: each field read is checked (typeof, Array.isArray) before it is used.
// biome-ignore lint/suspicious/noExplicitAny: parsed JSON of any shape, narrowed where it is read
export function readJson(text: string | null): Record<string, any> {
  if (text === null || text.trim() === "") return {};
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (e) {
    throw new SettingsError(`settings file is not valid JSON (${(e as Error).message}); fix it first, nothing was changed`);
  }
  if (!v || typeof v !== "object" || Array.isArray(v)) throw new SettingsError("settings file is not a JSON object");
  // biome-ignore lint/suspicious/noExplicitAny: as readJson's return type
  return v as Record<string, any>;
}

/** Write JSON the way the file was written: same indent, same final newline. */
export function writeJsonLike(value: unknown, like: string | null): string {
  const indent = like ? (/\n([ \t]+)\S/.exec(like)?.[1] ?? "  ") : "  ";
  const eol = like === null || like.endsWith("\n") ? "\n" : "";
  return JSON.stringify(value, null, indent) + eol;
}

export interface SettingsEdit {
  action: "install" | "uninstall";
  dryRun?: boolean;
  path: string;
  /** The file's text with ws's part added (null: no file yet). */
  install: (text: string | null) => string;
  /** The file's text with ws's part taken out. */
  uninstall: (text: string) => string;
  /** Where the backup of `path` sits (one name per kind of change, so two never share one). */
  backup: (path: string) => string;
  words: { already: string; none: string; installed: string; removed: string };
}

/** Do it (or, with dryRun, show it). Returns what to print. */
export function editSettingsFile(o: SettingsEdit): string {
  const file = resolveSettings(o.path);
  const { path, target } = file;
  const shown = target === resolve(path) ? path : `${path} (→ ${target})`;
  const before = read(file);
  const backup = o.backup(path);
  let after: string | null;
  if (o.action === "install") after = o.install(before);
  else if (before === null) return `${shown}: no such file, nothing to remove`;
  else {
    // Untouched since install: put the original back exactly (or remove a file install created).
    const saved = existsSync(backup) ? readSettings(backup) : null;
    // (The backup itself may hold ws's part, from an install over an installed file: take it out.)
    if (saved !== null && o.install(saved) === before) after = o.uninstall(saved);
    else if (saved === null && o.install(null) === before) after = null;
    else after = o.uninstall(before);
  }
  if (after === before) return `${shown}${o.action === "install" ? o.words.already : o.words.none}`;
  const diff = lineDiff(before ?? "", after ?? "");
  if (o.dryRun) return `${shown} (dry run, nothing written):\n${diff}`;
  if (o.action === "install") {
    // The backup holds what the target held, so it gets the target's mode and owner too.
    if (before !== null) writeAtomic(backup, before, file.stat);
    if (!file.stat) mkdirSync(dirname(target), { recursive: true });
    writeAtomic(target, after!, file.stat);
  } else {
    if (after === null) rmSync(target); // install created it; a symlink to it stays as it was
    else writeAtomic(target, after, file.stat);
    rmSync(backup, { force: true });
  }
  const verb = o.action === "install" ? o.words.installed : o.words.removed;
  return `${verb} ${shown}${o.action === "install" && before !== null ? ` (backup: ${backup})` : ""}\n${diff}`;
}
