// The approvals feature's events: the inbox's permission requests and questions. Held in the
// server only: a restart forgets them.
import { defineEvents, type EventsOf } from "../../protocol/event-decl";

const id = { type: "integer", description: "Its id" } as const;
const pane = { type: "integer", description: "The asking pane" } as const;

export const APPROVAL_EVENTS = defineEvents({
  approval_requested: {
    description: "An agent's hook asked for permission: the inbox's new row",
    fields: {
      id,
      pane,
      agent: { type: "string", optional: true, description: "The agent (claude, codex, …)" },
      workspace: { type: "string", optional: true, description: "Where its pane is" },
      tab: { type: "integer", optional: true, description: "Its pane's tab" },
      tab_name: { type: "string", optional: true, description: "That tab's name" },
      workstream: { type: "string", optional: true, description: "Its pane's workstream" },
      tool: { type: "string", description: "The tool it wants to use" },
      summary: { type: "string", description: "What it wants to do, in one line" },
      waited_ms: { type: "integer", description: "How long it has waited" },
      timeout_ms: { type: "integer", optional: true, description: "How long it may still wait" },
    },
    saves: true,
    published: true,
  },
  approval_resolved: {
    description: "A permission request ended: answered in ws or on ws web's pages, by the agent's own dialog, by the hook's time limit, or the hook went",
    fields: { id, pane, behavior: { type: "string", description: "allow, deny or none" }, by: { type: "string", description: "ws, web (on ws web's pages), agent, timeout or gone" }, message: { type: "string", optional: true, description: "deny: the reason given" } },
    saves: true,
    published: true,
  },
  question_asked: {
    description: "A pane (or a script: no pane) asked the person a question (ws ask)",
    fields: { id, pane: { ...pane, optional: true }, question: { type: "string", description: "The question" }, choices: { type: "string[]", description: "The answers it takes (empty: any line)" } },
    saves: false,
    published: true,
  },
  question_answered: {
    description: "A question ended: answered in ws (`answer`), at its time limit, or its asker went",
    fields: { id, pane: { ...pane, optional: true }, by: { type: "string", description: "ws, timeout or gone" }, answer: { type: "string", optional: true, description: "The answer" } },
    saves: false,
    published: true,
  },
});

declare module "../../model/events" {
  interface FeatureEvents {
    approvals: EventsOf<typeof APPROVAL_EVENTS>;
  }
}
