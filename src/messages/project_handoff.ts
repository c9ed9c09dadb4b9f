// project_handoff (v6): handoff as a request. Asks each running agent in the project's tabs for its
// entry, waits for each to finish its turn, then answers with what they appended to the file.
import { WsError } from "../protocol/errors";
import { defineMessage, replyTyped } from "./types";
import { UNTIL_DEFAULT, typeToAgent } from "./agent-typing";
import { handoffPrompt, needAgents, projectAgents } from "./handoff";

/** The most entry text a reply carries (the file keeps it all). */
const MAX_ENTRIES_BYTES = 256 * 1024;
const MAX_WAIT_MS = 86_400_000;

interface AgentOutcome {
  pane: number;
  tab: string;
  /** Whether the request was typed (an agent blocked on a prompt is not: typing would answer it). */
  asked: boolean;
  /** The status that ended its wait, or `blocked` when it was not asked. */
  status?: string;
  elapsed_ms?: number;
  /** Why its wait ended without a status: timeout, pane_exited. */
  error?: string;
}

export default defineMessage({
  type: "project_handoff",
  since: 6,
  grant: "control",
  request: true,
  longRunning: true,
  reply: "handoff",
  summary:
    "handoff as a request: ask each running agent in the project's tabs to append its handoff entry to the project's handoff file, wait until each is done, idle or blocked, and answer with the agents and the text they appended.",
  fields: {
    slug: { type: "string", required: true, description: "The project's slug" },
    timeout: { type: "integer", default: 0, min: 0, max: MAX_WAIT_MS, description: "How long to wait for each agent, in ms; 0: no limit. An agent still working then is listed with error timeout" },
  },
  replyFields: {
    file: { type: "string", description: "The project's handoff file" },
    agents: replyTyped<AgentOutcome[]>()({ type: "array", description: "Each agent: pane, tab, asked, then status and elapsed_ms, or error (timeout, pane_exited)" }),
    entries: { type: "string", description: `What was appended to the file while the agents were asked (at most ${MAX_ENTRIES_BYTES / 1024} KiB)` },
    truncated: { type: "boolean", optional: true, description: "entries stops short of what was appended" },
  },
  errors: ["project_not_found", "no_agent", "file_refused"],
  example: { v: 6, type: "project_handoff", slug: "button-a11y", timeout: 600000 },
  cli: { path: "project handoff", args: ["slug"], run: "projectHandoff" },
  async handle({ slug, timeout }, { session, services, signal }) {
    const projects = services.get("projects")!;
    const mark = projects.handoffMark(slug);
    const found = projectAgents(session, services, slug);
    needAgents(found, slug);
    const outcomes = await Promise.all(
      found.map(async (a): Promise<AgentOutcome> => {
        if (a.status === "blocked") return { pane: a.pane, tab: a.tab, asked: false, status: "blocked" };
        try {
          const r = await typeToAgent(session, a.pane, handoffPrompt(slug, a.pane, mark.file), { until: UNTIL_DEFAULT, timeout }, signal);
          return { pane: a.pane, tab: a.tab, asked: true, status: r.status, elapsed_ms: r.elapsed_ms };
        } catch (e) {
          if (e instanceof WsError && (e.code === "timeout" || e.code === "pane_exited")) return { pane: a.pane, tab: a.tab, asked: true, error: e.code };
          throw e;
        }
      }),
    );
    const { text, truncated } = projects.handoffSince(mark, MAX_ENTRIES_BYTES);
    return { type: "handoff", file: mark.file, agents: outcomes, entries: text, ...(truncated ? { truncated } : {}) };
  },
});
