// Every event the daemon's bus carries, gathered from where each is declared (the model's own in
// model/events.ts, each feature's in its events.ts), and the two the event stream adds itself.
// The event log publishes from these, `describe` and the docs list them, persistence asks them
// whether to save.
import { DAEMON_EVENTS, MODEL_CHANGES, type ModelEvent } from "../model/events";
import { changesSave, type EventDecl, type EventField, publishedName } from "../protocol/event-decl";
import { AGENT_EVENTS } from "./agents/events";
import { APPROVAL_EVENTS } from "./approvals/events";
import { WORKSTREAM_EVENTS } from "./workstreams/events";

/** Every bus event, by type. */
export const BUS_EVENTS: Readonly<Record<ModelEvent["type"], EventDecl>> = { ...MODEL_CHANGES, ...DAEMON_EVENTS, ...AGENT_EVENTS, ...WORKSTREAM_EVENTS, ...APPROVAL_EVENTS };

/** Events the stream itself sends (no bus event behind them). */
const STREAM_EVENTS: Record<string, { description: string; fields: Record<string, EventField> }> = {
  output: {
    description: "A pane printed: opt-in (name it in `types`), at most one per pane per 100 ms, no seq, never replayed",
    fields: { pane: { type: "integer", description: "The pane" } },
  },
  gap: {
    description: "Events this subscriber will not get: always sent, whatever `types` names",
    fields: {
      reason: { type: "string", description: "evicted (no longer retained), boot_changed (another server start) or overflow (the reader fell behind)" },
      from_seq: { type: "integer", optional: true, description: "evicted, overflow: the first seq missed" },
      to_seq: { type: "integer", optional: true, description: "evicted, overflow: the last seq missed" },
      dropped: { type: "integer", optional: true, description: "evicted, overflow: how many" },
      previous_boot_id: { type: "string", optional: true, description: "boot_changed: the boot_id given" },
    },
  },
};

/** Events that come only when a subscriber names them. */
export const OPT_IN: readonly string[] = ["output"];

export interface PublishedEvent {
  /** The name subscribers see (`event`). */
  type: string;
  /** The bus event behind it, if any. */
  bus?: ModelEvent["type"];
  description: string;
  fields: Record<string, EventField>;
}

/** Where a pane is, added to an event about a pane that does not say it. */
const WHERE: Record<string, EventField> = {
  workspace: { type: "string", optional: true, description: "The pane's workspace (added when the event names a pane)" },
  tab: { type: "integer", optional: true, description: "The pane's tab" },
};

/** What subscribers get, in the catalogue's order: each published bus event, then the stream's own. */
export const PUBLISHED: readonly PublishedEvent[] = [
  ...Object.entries(BUS_EVENTS).flatMap(([bus, d]) => {
    const type = publishedName(bus, d);
    if (type === undefined) return [];
    const fields = Object.fromEntries(Object.entries(d.fields).filter(([, f]) => !f.internal));
    return [{ type, bus: bus as ModelEvent["type"], description: d.description, fields: "pane" in fields && !("workspace" in fields) ? { ...fields, ...WHERE } : fields }];
  }),
  ...Object.entries(STREAM_EVENTS).map(([type, d]) => ({ type, ...d })),
];

/** The names a subscriber may see (`subscribe`'s `types`, the catalogue's `events`). */
export const EVENT_TYPES: readonly string[] = PUBLISHED.map((e) => e.type);

const BY_BUS = new Map(PUBLISHED.filter((e) => e.bus !== undefined).map((e) => [e.bus!, e]));

/** The published form of a bus event: its subscriber name and the fields it carries, or undefined. */
export function publishedOf(type: ModelEvent["type"]): PublishedEvent | undefined {
  return BY_BUS.get(type);
}

/** Whether this bus event changes what a save holds. */
export function savesAfter(e: ModelEvent): boolean {
  return changesSave(BUS_EVENTS[e.type], e);
}
