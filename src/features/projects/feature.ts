// Plugs projects into the daemon: the store, read with the daemon's environment, as a service
// for the messages that name a project (tab_new, open_tab, project_attach, handoff).
import type { Feature } from "../../server/features";
import { WsError } from "../../protocol/errors";
import { handoffFile, listProjects, projectExists, projectsDir, readFrom, sizeOf } from "./store";

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
    const slugs = listProjects().map((p) => p.slug);
    throw new WsError(`no project "${slug}" in ${projectsDir()} (make it with ws project new ${slug})`, "project_not_found", {
      param,
      available: slugs,
      command: "ws project list",
    });
  },
  handoffMark(slug) {
    this.check(slug, "slug");
    const file = handoffFile(slug)!;
    return { file, offset: sizeOf(file) };
  },
  handoffSince(mark, max) {
    return readFrom(mark.file, mark.offset, max);
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
