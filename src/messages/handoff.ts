// handoff (v1): ask each running agent in a project's tabs to append its handoff entry to the
// project's handoff file. Answered `ok` before it acts; project_handoff (v6) is the request form
// that waits for the agents and answers with their entries.
import type { Session } from "../model/session";
import { panesOf } from "../model/layout";
import type { Services } from "../features/services";
import { WsError } from "../protocol/errors";
import { defineMessage } from "./types";
import { typeToAgent } from "./agent-typing";

/** One agent in the project's tabs: its pane, its tab's name, and its status now. */
export interface ProjectAgent {
  pane: number;
  tab: string;
  status: string;
}

/** The running agents in the tabs linked to `slug`, in screen order. */
export function projectAgents(session: Session, services: Services, slug: string): ProjectAgent[] {
  const agents = services.get("agents");
  const out: ProjectAgent[] = [];
  for (const ws of session.workspaces)
    for (const tab of ws.tabs) {
      if (tab.project !== slug) continue;
      for (const pane of panesOf(tab.layout)) {
        const status = agents?.status(pane)?.status;
        if (status !== undefined) out.push({ pane, tab: session.tabName(tab), status });
      }
    }
  return out;
}

/** The request typed into each agent: one line, the file last so it reads whole. */
export function handoffPrompt(slug: string, pane: number, file: string): string {
  return (
    `ws handoff for project ${slug}: add your handoff entry (what you did, where things stand, what's next) ` +
    `under a heading "## pane ${pane}" to the end of the project's handoff file, keeping what is there. The file: ${file}`
  );
}

export function needAgents(found: ProjectAgent[], slug: string): void {
  if (!found.length)
    throw new WsError(`no running agent in the tabs of project ${slug} (link a tab with ws project attach ${slug}; agents report through ws hooks install)`, "no_agent", {
      param: "slug",
    });
}

export default defineMessage({
  type: "handoff",
  since: 1,
  grant: "control",
  request: false,
  summary: "Ask a project's running agents for their handoff entries: each is typed a request to append its entry to the project's handoff file. Agents blocked on a prompt are skipped.",
  fields: { slug: { type: "string", required: true, description: "The project's slug" } },
  example: { v: 1, type: "handoff", slug: "button-a11y" },
  handle({ slug }, { session, services }) {
    const { file } = services.get("projects")!.handoffMark(slug);
    const found = projectAgents(session, services, slug);
    needAgents(found, slug);
    for (const a of found) if (a.status !== "blocked") typeToAgent(session, a.pane, handoffPrompt(slug, a.pane, file));
  },
});
