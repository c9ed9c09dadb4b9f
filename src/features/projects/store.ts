// Projects on disk: $XDG_DATA_HOME/ws/projects/<slug>/ (else ~/.local/share/ws/projects/), a
// directory per project holding project.json (name, repo), notes.md and the agents' handoff.md.
// Directories 0700, files 0600, each file written whole (temp file, rename) so a reader sees the
// old one or the new one. Sync and small: the daemon checks a slug on tab_new with one stat. Every
// read goes through src/safe-file.ts: a FIFO or a device put in a project's place is refused, not
// waited on, and each file is read up to a bound.
import { existsSync, mkdirSync, readdirSync, renameSync, statSync } from "node:fs";
import { wsDir } from "../../xdg-dirs";
import { writeAtomicSync } from "../../write-atomic";
import { FileReadError, fileKind, readRegular, readTextFileIfAny } from "../../safe-file";
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

/** The most of project.json and notes.md ws reads (project.json is a few lines ws wrote). */
export const MAX_PROJECT_FILE = 1024 * 1024;

/** Up to `max` bytes of a file from `offset` (as text), and whether more followed; nothing when it
 * isn't there. Throws ProjectError for something that is not a regular file (a FIFO, say). */
export function readFrom(path: string, offset: number, max: number): { text: string; truncated: boolean } {
  try {
    const { bytes, truncated } = readRegular(path, { offset, max });
    return { text: bytes.toString("utf8"), truncated };
  } catch (e) {
    if (e instanceof FileReadError && e.code === "ENOENT") return { text: "", truncated: false };
    throw new ProjectError((e as Error).message);
  }
}

/** Why the file at `path` can't be a project's file (not a regular file), or undefined when it is
 * one or is not there. A stat, which never waits on a FIFO. */
export function fileProblem(path: string): string | undefined {
  try {
    const st = statSync(path);
    return st.isFile() ? undefined : `${path} is not a regular file (${fileKind(st)})`;
  } catch {
    return undefined;
  }
}

export function projectExists(slug: string, env: Env = process.env): boolean {
  const dir = projectDir(slug, env);
  if (dir === undefined) return false;
  try {
    return statSync(join(dir, "project.json")).isFile();
  } catch {
    return false;
  }
}

/** Why the project by this slug can't be used although its directory is there (its project.json is
 * a FIFO, a directory, …), or undefined. */
export function projectProblem(slug: string, env: Env = process.env): string | undefined {
  const dir = projectDir(slug, env);
  return dir === undefined ? undefined : fileProblem(join(dir, "project.json"));
}

function readText(path: string): string | undefined {
  try {
    return readTextFileIfAny(path, MAX_PROJECT_FILE);
  } catch (e) {
    throw new ProjectError((e as Error).message);
  }
}

/** The project, or undefined when there is none by that slug (or its project.json is not JSON).
 * Throws ProjectError when a file of it is not a regular file, or project.json is over
 * MAX_PROJECT_FILE (notes.md past it is cut there). */
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
  const notes = readFrom(join(dir, "notes.md"), 0, MAX_PROJECT_FILE).text;
  return {
    slug,
    name: typeof meta.name === "string" ? meta.name : slug,
    ...(typeof meta.repo === "string" ? { repo: meta.repo } : {}),
    ...(notes ? { notes } : {}),
  };
}

/** The names in the projects directory, sorted; none when it is missing or can't be read. */
function entryNames(env: Env): string[] {
  try {
    return readdirSync(projectsDir(env)).sort();
  } catch {
    return [];
  }
}

/** The slugs of every project whose project.json is a regular file: stats only, nothing read. */
export function listSlugs(env: Env = process.env): string[] {
  return entryNames(env).filter((n) => projectExists(n, env));
}

/** Every project, by slug. */
export function listProjects(env: Env = process.env): Project[] {
  // One project that can't be read (a FIFO for a file, say) is left out; the others still list.
  return entryNames(env).flatMap((n) => {
    try {
      const p = readProject(n, env);
      return p ? [p] : [];
    } catch {
      return [];
    }
  });
}

/** Write `text` to `path` whole (src/write-atomic.ts), keeping the old file's mode (else 0600). */
function writeWhole(path: string, text: string): void {
  let mode = 0o600;
  try {
    mode = statSync(path).mode & 0o7777;
  } catch {}
  writeAtomicSync(path, text, { mode });
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
  const slugs = listSlugs(env);
  return ` (have: ${slugs.length ? slugs.join(", ") : "none; make one with ws project new SLUG"})`;
}
