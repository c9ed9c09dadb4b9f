// How an event is declared: once, with its fields, the way a message is (messages/types.ts). The
// bus's types, the event log's lines, `describe`'s catalogue, the docs and persistence's "does this
// call for a save" all read the declarations. The model declares its own events (model/events.ts),
// each feature its own (features/*/events.ts); features/events.ts gathers them.
import type { Shape, ShapeField } from "./schema";

export interface EventField extends ShapeField {
  /** Carried on the bus only, never sent to subscribers (e.g. a way to read a command's output). */
  internal?: boolean;
}

export interface EventDecl {
  description: string;
  fields: Record<string, EventField>;
  /** Whether it changes what a save holds, so persistence saves after it; `{ ifSet }`: only when
   * that field is set (a pane_rename's name, not a title a program sets at every prompt). */
  saves: boolean | { ifSet: string };
  /** Sent to `subscribe`rs: under its own name (true), under another (a string), or not (false). */
  published: boolean | string;
}

export type EventDecls = Record<string, EventDecl>;

/** A set of events; each one's bus type is inferred from its fields (see EventsOf). */
export function defineEvents<const D extends EventDecls>(d: D): D {
  return d;
}

/** The bus events these declarations describe: `{ type, …fields }`, a union discriminated on `type`. */
export type EventsOf<D> = { [K in keyof D & string]: D[K] extends { fields: infer F } ? Shape<F, { type: K }> : never }[keyof D & string];

/** The name a subscriber sees it under, or undefined for an internal event. */
export function publishedName(type: string, d: EventDecl): string | undefined {
  return d.published === true ? type : d.published === false ? undefined : d.published;
}

/** Whether this event, as sent on the bus, changes what a save holds. */
export function changesSave(d: EventDecl, e: Record<string, unknown>): boolean {
  return typeof d.saves === "boolean" ? d.saves : e[d.saves.ifSet] !== undefined;
}
