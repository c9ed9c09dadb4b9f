// The agents feature's events: statuses its hooks report, and its prompt queue.
import { defineEvents, type EventsOf } from "../../protocol/event-decl";

const pane = { type: "integer", description: "The agent's pane" } as const;
const prompt = { id: { type: "integer", description: "The prompt's id" }, pane } as const;

export const AGENT_EVENTS = defineEvents({
  agent_status: {
    description: "An agent's status changed (blocked, working, done, idle; null: it stopped reporting)",
    fields: { pane, status: { type: "string|null", description: "Its status now" }, before: { type: "string|null", description: "Its status before" }, detail: { type: "string", optional: true, description: "What it says it is doing or asking" } },
    saves: false,
    published: "agent_status_changed",
  },
  agent_attention: {
    description: "An agent needs the person (it blocked, or finished a turn)",
    fields: { pane, status: { type: "string", description: "Its status" }, detail: { type: "string", optional: true, description: "What it asks" } },
    saves: false,
    published: false,
  },
  // A wait's end: Codex ends turn after turn in `done`.
  agent_report: { description: "A hook report that gives a status, changed or not", fields: { pane, status: { type: "string", description: "The status reported" } }, saves: false, published: false },
  ports_changed: { description: "The TCP ports panes listen on changed", fields: { panes: { type: "integer[]", description: "The panes whose ports changed" } }, saves: false, published: false },
  prompt_queued: {
    description: "A prompt joined an agent's queue (ws agent send --when)",
    fields: { ...prompt, when: { type: "string", description: "idle or done" }, position: { type: "integer", description: "Its place in the queue (1: next)" } },
    saves: true,
    published: true,
  },
  prompt_delivered: { description: "A queued prompt was typed into its agent", fields: { ...prompt, when: { type: "string", description: "idle or done" } }, saves: true, published: true },
  prompt_cancelled: {
    description: "A prompt left the queue untyped",
    fields: { ...prompt, reason: { type: "string", description: "cancelled, pane_closed or pane_exited" } },
    saves: true,
    published: true,
  },
});

declare module "../../model/events" {
  interface FeatureEvents {
    agents: EventsOf<typeof AGENT_EVENTS>;
  }
}
