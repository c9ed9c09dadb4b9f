// The repo of a project, for `ws new --project SLUG`. Projects are the projects feature's
// (src/features/projects/, issue 13): a directory $XDG_DATA_HOME/ws/projects/<slug>/ holding the
// project's record.
// TODO(projects): read the record through the projects feature's own reader once it lands; until
// then this reads `repo` from project.json or project.toml there, and an unknown slug gives no repo.
import { readFile } from "node:fs/promises";
import { homedir } from "node:os";
import { join } from "node:path";
import { parse as parseToml } from "smol-toml";
import { expandHome } from "./worktree";

export function projectsDir(env: Record<string, string | undefined> = process.env): string {
  return join(env.XDG_DATA_HOME || join(env.HOME || homedir(), ".local", "share"), "ws", "projects");
}

export async function projectRepo(slug: string, env: Record<string, string | undefined> = process.env): Promise<string | undefined> {
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(slug)) return undefined;
  const dir = join(projectsDir(env), slug);
  const readers: [string, (text: string) => unknown][] = [
    ["project.json", (t) => JSON.parse(t)],
    ["project.toml", (t) => parseToml(t)],
  ];
  for (const [file, parse] of readers) {
    try {
      const repo = (parse(await readFile(join(dir, file), "utf8")) as { repo?: unknown }).repo;
      if (typeof repo === "string" && repo) return expandHome(repo, env);
    } catch {}
  }
  return undefined;
}
