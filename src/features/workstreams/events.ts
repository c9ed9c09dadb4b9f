// The workstreams feature's events: its records (table.ts), checkpoints, fans and ships.
import { defineEvents, type EventsOf } from "../../protocol/event-decl";
import { shapeTyped } from "../../protocol/schema";

const workstream = { type: "string", description: "The workstream" } as const;

export const WORKSTREAM_EVENTS = defineEvents({
  workstream_created: {
    description: "A workstream was recorded (ws new, ws review, a restore); `workspace` and `tab` while its tab is open",
    fields: { workstream: { type: "string", description: "Its name" }, workspace: { type: "string", optional: true, description: "The workspace" }, tab: { type: "integer", optional: true, description: "The tab's id" } },
    saves: true,
    published: true,
  },
  workstream_closed: { description: "ws done forgot a workstream", fields: { workstream: { type: "string", description: "Its name" } }, saves: true, published: true },
  checkpoint_saved: {
    description: "A workstream's worktree was checkpointed",
    fields: {
      workstream,
      n: { type: "integer", description: "The checkpoint's number" },
      commit: { type: "string", description: "Its commit" },
      files: { type: "integer", description: "Files changed since the one before" },
      text: { type: "string", description: "What it says (a turn's prompt, or the message given)" },
    },
    saves: false,
    published: true,
  },
  fan_started: {
    description: "ws fan made its candidates",
    fields: {
      fan: { type: "string", description: "The fan" },
      template: { type: "string", description: "Its template" },
      workstreams: { type: "string[]", description: "Its candidates' workstreams" },
      base: { type: "string", description: "The commit they start from" },
      tiled: { type: "boolean", description: "Whether they share one tab" },
    },
    saves: false,
    published: true,
  },
  fan_candidate_done: {
    description: "A fan candidate's agent finished a turn; `check`: the template's check's result, when it has one",
    fields: {
      fan: { type: "string", description: "The fan" },
      workstream,
      k: { type: "integer", description: "The candidate's number" },
      check: shapeTyped<{ exit_code: number; passed: boolean; ms: number }>()({ type: "object", optional: true, description: "`exit_code`, `passed`, `ms`" }),
    },
    saves: false,
    published: true,
  },
  shipped: {
    description: "ship (through the server) committed, pushed or opened a PR",
    fields: {
      workstream,
      branch: { type: "string", description: "Its branch" },
      commit: { type: "string", optional: true, description: "The commit made" },
      pushed: { type: "boolean", description: "Whether the branch was pushed" },
      pr: { type: "string", optional: true, description: "The PR's address" },
    },
    saves: false,
    published: true,
  },
});

declare module "../../model/events" {
  interface FeatureEvents {
    workstreams: EventsOf<typeof WORKSTREAM_EVENTS>;
  }
}
