// ws project new|list|show|attach|rename: the projects store (features/projects) is the CLI's to
// write; the server is told what changed (project_attach, project_renamed).
import { resolve } from "node:path";
import { statSync } from "node:fs";
import { CliError, globals, print, printError, printResult, send, show } from "./common";
import type { HandlerInput } from "./handlers";
import type { EntryReply } from "../messages/types";
import type project_handoff from "../messages/project_handoff";
import { ProjectError, available, createProject, listProjects, moveProject, readProject, type Project } from "../features/projects/store";

function projectOrFail(slug: string): Project {
  const p = readProject(slug);
  if (!p) throw new CliError(`no project "${slug}"${available()}`);
  return p;
}

function storeCall<T>(fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    if (e instanceof ProjectError) throw new CliError(e.message);
    throw e;
  }
}

function showProject(p: Project): void {
  if (globals.json) return printResult("project", { ...p });
  print([`${p.slug}: ${p.name}`, ...(p.repo ? [`repo: ${p.repo}`] : []), ...(p.notes ? ["", p.notes.replace(/\n$/, "")] : [])].join("\n"));
}

export async function projectNew({ fields }: HandlerInput): Promise<void> {
  const slug = String(fields.slug);
  let repo: string | undefined;
  if (fields.repo !== undefined) {
    repo = resolve(String(fields.repo));
    let dir = false;
    try {
      dir = statSync(repo).isDirectory();
    } catch {}
    if (!dir) throw new CliError(`--repo ${repo}: no such directory`);
  }
  const name = fields.name !== undefined ? String(fields.name) : slug;
  showProject(storeCall(() => createProject({ slug, name, repo, notes: fields.notes as string | undefined })));
}

export async function projectList(): Promise<void> {
  const all = listProjects();
  if (globals.json) return printResult("projects", { projects: all });
  if (all.length) print(all.map((p) => `${p.slug}\t${p.name}${p.repo ? `\t${p.repo}` : ""}`).join("\n"));
}

export async function projectShow({ fields }: HandlerInput): Promise<void> {
  showProject(projectOrFail(String(fields.slug)));
}

/** project_attach is not a request (the server answers ok before it looks), so the slug is checked here first. */
export async function projectAttach({ command, fields }: HandlerInput): Promise<void> {
  projectOrFail(String(fields.slug));
  await send(command.message!, fields);
}

export async function projectRename({ fields }: HandlerInput): Promise<void> {
  const from = String(fields.old);
  const to = String(fields.slug);
  storeCall(() => moveProject(from, to));
  // On disk it has moved; the running server relinks its tabs (none running: nothing to relink).
  try {
    await send("project_renamed", { from, to });
  } catch (e) {
    if (!(e instanceof CliError && e.message.includes("Start one with"))) throw e;
  }
  if (globals.json) printResult("project_renamed", { from, to });
}

/** project_handoff's reply, as its registry entry declares it. */
type Handoff = EntryReply<typeof project_handoff>;

/** ws project handoff: the entries the agents appended, then a line for each that gave none. */
export async function projectHandoff({ command, fields }: HandlerInput): Promise<void> {
  const reply = await send(command.message!, fields);
  if (globals.json) return show(reply);
  const entries = String(reply.entries ?? "");
  if (entries) print(entries.replace(/\n+$/, ""));
  for (const a of (reply as Handoff).agents) {
    if (!a.asked) printError(`pane ${a.pane} (${a.tab}): not asked, its agent is blocked on a prompt`);
    else if (a.error === "timeout") printError(`pane ${a.pane} (${a.tab}): still working after --timeout`);
    else if (a.error) printError(`pane ${a.pane} (${a.tab}): ${a.error}`);
  }
  if (reply.truncated) printError(`ws: more entries than shown; the whole file is ${reply.file}`);
  if (!entries) printError(`ws: no agent appended an entry to ${reply.file}`);
  if ((reply as Handoff).agents.some((a) => !a.asked || a.error)) process.exitCode = 1;
}
