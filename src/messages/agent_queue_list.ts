// agent_queue_list: the prompts queued for agents (ws agent queue), oldest first.
import type { When } from "../features/agents/queue";
import { defineMessage, replyTyped } from "./types";

/** A queued prompt as the list shows it; where its pane is, while it is there. */
export interface QueuedPrompt {
  id: number;
  pane: number;
  /** 1: next. */
  position: number;
  when: When;
  text: string;
  queued_ms: number;
  workspace?: string;
  tab?: number;
  tab_name?: string;
}

export default defineMessage({
  type: "agent_queue_list",
  since: 6,
  grant: "report",
  scope: "all",
  request: true,
  reply: "agent_queue",
  summary: "The prompts queued for agents (agent_send with `when`), oldest first: each one's id, its agent's pane and where that is, its place in that agent's queue, when it goes in, its text, and how long it has waited.",
  fields: {
    pane: { type: "integer", description: "Only this agent's queue (its pane)" },
  },
  replyFields: {
    prompts: replyTyped<QueuedPrompt[]>()({
      type: "array",
      description: "One object per prompt: id, pane, position (1: next), when (idle or done), text, queued_ms, and workspace, tab and tab_name where the pane is",
    }),
  },
  example: { v: 6, id: 1, type: "agent_queue_list" },
  cli: { path: "agent queue", summary: "The prompts queued for agents (ws agent send --when), oldest first", flags: ["pane"], view: "agentQueue" },
  handle({ pane }, { session, services }) {
    const queue = services.get("agents")?.queue;
    const now = Date.now();
    const prompts = (queue?.list() ?? [])
      .filter((p) => pane === undefined || p.pane === pane)
      .map((p): QueuedPrompt => {
        const at = session.where(p.pane);
        return {
          id: p.id,
          pane: p.pane,
          position: queue!.position(p),
          when: p.when,
          text: p.text,
          queued_ms: Math.max(0, now - p.at),
          ...(at ? { workspace: at.ws.name, tab: at.tab.id, tab_name: session.tabName(at.tab) } : {}),
        };
      });
    return { type: "agent_queue", prompts };
  },
});
