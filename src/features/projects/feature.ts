// Plugs projects into the daemon: the store, read with the daemon's environment, as a service
// for the messages that name a project (tab_new, open_tab, project_attach, handoff).
import type { Feature } from "../feature";
import { WsError } from "../../protocol/errors";
import { ProjectError, fileProblem, handoffFile, listSlugs, projectExists, projectProblem, projectsDir, readFrom, sizeOf } from "./store";

/** Where a handoff's entries start: the file and its size before the agents were asked. */
export interface HandoffMark {
  file: string;
  offset: number;
}

export interface ProjectService {
  /** Throw project_not_found unless a project by this slug exists. */
  check(slug: string, param?: string): void;
  /** The file the project's agents append their handoff entries to, and where its new text starts. */
  handoffMark(slug: string): HandoffMark;
  /** The text appended since the mark, at most `max` bytes of it. */
  handoffSince(mark: HandoffMark, max: number): { text: string; truncated: boolean };
}

export const projectService: ProjectService = {
  check(slug, param = "project") {
    if (projectExists(slug)) return;
    const slugs = listSlugs();
    // A project.json that is a FIFO, a directory, …: named, never opened (that would wait).
    const problem = projectProblem(slug);
    if (problem) throw new WsError(`project "${slug}" can't be used: ${problem}`, "project_not_found", { param, available: slugs, command: "ws project list" });
    throw new WsError(`no project "${slug}" in ${projectsDir()} (make it with ws project new ${slug})`, "project_not_found", {
      param,
      available: slugs,
      command: "ws project list",
    });
  },
  handoffMark(slug) {
    this.check(slug, "slug");
    const file = handoffFile(slug)!;
    // Checked before any agent is asked: a FIFO here would never give its entries back.
    const problem = fileProblem(file);
    if (problem) throw new WsError(`can't hand off: ${problem}; remove it (the agents make a new one)`, "file_refused", { param: "slug" });
    return { file, offset: sizeOf(file) };
  },
  handoffSince(mark, max) {
    try {
      return readFrom(mark.file, mark.offset, max);
    } catch (e) {
      if (e instanceof ProjectError) throw new WsError(`the agents were asked, but their entries can't be read: ${e.message}`, "file_refused", { param: "slug" });
      throw e;
    }
  },
};

export default function projectsFeature(): Feature {
  return {
    name: "projects",
    provide(d) {
      d.services.provide("projects", projectService);
    },
  };
}
