// Plugs projects into the daemon: the store, read with the daemon's environment, as a service
// for the messages that name a project (tab_new, open_tab, project_attach, handoff).
import type { Feature } from "../../server/features";
import { WsError } from "../../protocol/errors";
import { handoffFile, listProjects, projectExists, projectsDir } from "./store";

export interface ProjectService {
  /** Throw project_not_found unless a project by this slug exists. */
  check(slug: string, param?: string): void;
  /** The file the project's agents append their handoff entries to. */
  handoffFile(slug: string): string;
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
  handoffFile(slug) {
    this.check(slug, "slug");
    return handoffFile(slug)!;
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
