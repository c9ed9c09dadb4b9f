// Projects on disk: $XDG_DATA_HOME/ws/projects/<slug>/ (else ~/.local/share/ws/projects/), a
// directory per project holding project.json (name, repo), notes.md and the agents' handoff.md.
// Directories 0700, files 0600, each file written whole (temp file, rename) so a reader sees the
// old one or the new one. Sync and small: the daemon checks a slug on tab_new with one stat.
import { closeSync, existsSync, fstatSync, fsyncSync, readSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, statSync, unlinkSync, writeSync } from "node:fs";
import { wsDir } from "../../xdg-dirs";
import { join } from "node:path";

export type Env = Record<string, string | undefined>;

export interface Project {
  slug: string;
  name: string;
  /** The project's main clone. */
  repo?: string;
  notes?: string;
}

/** A slug names a directory: ASCII letters, digits, `.`, `_`, `-`, starting with a letter or digit. */
const SLUG = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** What is wrong with a slug, as a phrase, or undefined if it is fine. */
export function slugProblem(slug: string): string | undefined {
  return SLUG.test(slug) ? undefined : "must be 1–64 ASCII letters, digits, `.`, `_` or `-`, starting with a letter or digit";
}

export function projectsDir(env: Env = process.env): string {
  return wsDir("data", env, "projects");
}

/** The project's directory; undefined for a slug that could not be one. */
export function projectDir(slug: string, env: Env = process.env): string | undefined {
  return slugProblem(slug) ? undefined : join(projectsDir(env), slug);
}

/** The file a project's agents append their handoff entries to. */
export function handoffFile(slug: string, env: Env = process.env): string | undefined {
  const dir = projectDir(slug, env);
  return dir && join(dir, "handoff.md");
}

/** A file's size in bytes; 0 when it isn't there yet. */
export function sizeOf(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}

/** Up to `max` bytes of a file from `offset` (as text), and whether more followed. */
export function readFrom(path: string, offset: number, max: number): { text: string; truncated: boolean } {
  let fd: number;
  try {
    fd = openSync(path, "r");
  } catch {
    return { text: "", truncated: false };
  }
  try {
    const size = fstatSync(fd).size;
    const want = Math.max(0, Math.min(size - offset, max));
    const buf = Buffer.alloc(want);
    let got = 0;
    while (got < want) {
      const n = readSync(fd, buf, got, want - got, offset + got);
      if (n === 0) break;
      got += n;
    }
    return { text: buf.subarray(0, got).toString("utf8"), truncated: size - offset > max };
  } finally {
    closeSync(fd);
  }
}

export function projectExists(slug: string, env: Env = process.env): boolean {
  const dir = projectDir(slug, env);
  return dir !== undefined && existsSync(join(dir, "project.json"));
}

function readText(path: string): string | undefined {
  try {
    return readFileSync(path, "utf8");
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw e;
  }
}

/** The project, or undefined when there is none by that slug (or its project.json is unreadable). */
export function readProject(slug: string, env: Env = process.env): Project | undefined {
  const dir = projectDir(slug, env);
  if (!dir) return undefined;
  const json = readText(join(dir, "project.json"));
  if (json === undefined) return undefined;
  let meta: { name?: unknown; repo?: unknown };
  try {
    meta = JSON.parse(json);
  } catch {
    return undefined;
  }
  const notes = readText(join(dir, "notes.md"));
  return {
    slug,
    name: typeof meta.name === "string" ? meta.name : slug,
    ...(typeof meta.repo === "string" ? { repo: meta.repo } : {}),
    ...(notes ? { notes } : {}),
  };
}

/** Every project, by slug. */
export function listProjects(env: Env = process.env): Project[] {
  let names: string[];
  try {
    names = readdirSync(projectsDir(env));
  } catch {
    return [];
  }
  return names
    .sort()
    .map((n) => readProject(n, env))
    .filter((p): p is Project => p !== undefined);
}

/** Write `text` to `path` whole: a temp file (0600, or the old file's mode), synced, renamed over it. */
function writeWhole(path: string, text: string): void {
  let mode = 0o600;
  try {
    mode = statSync(path).mode & 0o7777;
  } catch {}
  const tmp = `${path}.tmp-${process.pid}`;
  try {
    unlinkSync(tmp);
  } catch {}
  const fd = openSync(tmp, "wx", mode);
  try {
    const bytes = Buffer.from(text);
    let off = 0;
    while (off < bytes.length) off += writeSync(fd, bytes, off, bytes.length - off);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  try {
    renameSync(tmp, path);
  } catch (e) {
    try {
      unlinkSync(tmp);
    } catch {}
    throw e;
  }
}

export class ProjectError extends Error {}

/** Make a project. Refuses a bad slug or one that exists. */
export function createProject(p: Project, env: Env = process.env): Project {
  const problem = slugProblem(p.slug);
  if (problem) throw new ProjectError(`invalid slug ${JSON.stringify(p.slug)}: it ${problem}`);
  const dir = projectDir(p.slug, env)!;
  mkdirSync(projectsDir(env), { recursive: true, mode: 0o700 });
  try {
    mkdirSync(dir, { mode: 0o700 });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "EEXIST") throw new ProjectError(`a project "${p.slug}" exists (ws project show ${p.slug})`);
    throw e;
  }
  writeWhole(join(dir, "project.json"), JSON.stringify({ name: p.name, ...(p.repo !== undefined ? { repo: p.repo } : {}) }, null, 2) + "\n");
  if (p.notes) writeWhole(join(dir, "notes.md"), p.notes.endsWith("\n") ? p.notes : p.notes + "\n");
  return readProject(p.slug, env)!;
}

/** Move a project to a new slug: one rename of its directory, so it is never in both places. */
export function moveProject(from: string, to: string, env: Env = process.env): void {
  const problem = slugProblem(to);
  if (problem) throw new ProjectError(`invalid slug ${JSON.stringify(to)}: it ${problem}`);
  if (!projectExists(from, env)) throw new ProjectError(`no project "${from}"${available(env)}`);
  const target = projectDir(to, env)!;
  if (existsSync(target)) throw new ProjectError(`a project "${to}" exists`);
  renameSync(projectDir(from, env)!, target);
}

/** " (have: a, b)" for a message about a missing project. */
export function available(env: Env = process.env): string {
  const slugs = listProjects(env).map((p) => p.slug);
  return ` (have: ${slugs.length ? slugs.join(", ") : "none; make one with ws project new SLUG"})`;
}
