// Type-level tests, checked by `bun run typecheck` (not run by bun test): a handler's reply must be
// what its entry's `reply` and `replyFields` declare. Each @ts-expect-error line is a mismatch tsc
// must refuse; if the inference stopped checking replies, the directive itself would fail tsc.
import type checkpoint_restore from "../src/messages/checkpoint_restore";
import type pane_info from "../src/messages/pane_info";
import { defineMessage, type EntryReply, replyTyped } from "../src/messages/types";
import { EventBus } from "../src/model/events";

const fields = { a: { type: "integer", description: "A number" }, b: { type: "string", optional: true, description: "Sometimes a string" } } as const;
const base = { type: "reply_types_test", since: 6, grant: "report", request: true, reply: "answer", summary: "A test entry", fields: {} } as const;

// What agrees compiles: every declared field, an optional one left out or given, a promise of it.
defineMessage({ ...base, replyFields: fields, handle: () => ({ type: "answer", a: 1 }) });
defineMessage({ ...base, replyFields: fields, handle: async () => ({ type: "answer", a: 1, b: "x" }) });
defineMessage({ ...base, replyFields: { rows: replyTyped<{ id: number }[]>()({ type: "array", description: "Rows" }) }, handle: () => ({ type: "answer", rows: [{ id: 1 }] }) });

// @ts-expect-error a field the entry does not declare
defineMessage({ ...base, replyFields: fields, handle: () => ({ type: "answer", a: 1, c: 2 }) });
// @ts-expect-error the same from an async handler
defineMessage({ ...base, replyFields: fields, handle: async () => ({ type: "answer", a: 1, c: 2 }) });
// @ts-expect-error a declared field missing
defineMessage({ ...base, replyFields: fields, handle: () => ({ type: "answer", b: "x" }) });
// @ts-expect-error a declared field of the wrong type
defineMessage({ ...base, replyFields: fields, handle: () => ({ type: "answer", a: "1" }) });
// @ts-expect-error a reply of another type than `reply`
defineMessage({ ...base, replyFields: fields, handle: () => ({ type: "other", a: 1 }) });
// @ts-expect-error a typed field's rows of the wrong shape
defineMessage({ ...base, replyFields: { rows: replyTyped<{ id: number }[]>()({ type: "array", description: "Rows" }) }, handle: () => ({ type: "answer", rows: [{ id: "1" }] }) });
// @ts-expect-error an entry without replyFields replies with its type alone
defineMessage({ ...base, handle: () => ({ type: "answer", a: 1 }) });

// The registry's replies, as clients read them.
export const restored = (r: EntryReply<typeof checkpoint_restore>): number => r.n + r.written;
// @ts-expect-error a closed pane's info has no size: cols may be missing
export const width = (r: EntryReply<typeof pane_info>): number => r.cols + 0;

// The bus's events are typed from their declarations (model/events.ts, features/*/events.ts).
const bus = new EventBus();
bus.emit({ type: "prompt_queued", id: 1, pane: 2, when: "idle", position: 1 });
// @ts-expect-error an event no declaration names
bus.emit({ type: "no_such_event" });
// @ts-expect-error a declared event without its declared fields
bus.emit({ type: "prompt_queued", id: 1 });
