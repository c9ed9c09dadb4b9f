// What a feature declares to keep its part of a saved pane (its type, its check, its limits): the
// save composes the sections (sections.ts) without knowing any feature's shape. Also the small
// checks every reader of a save uses.
/** A feature's part of a saved pane, under its own key: how a value read back is checked. */
export interface PaneSection<T> {
  /** The usable value (undefined: dropped) and, when something was dropped, a note for the person. */
  check(raw: unknown): { value?: T; note?: string };
}

/** The value type a section keeps. */
export type SectionValue<S> = S extends PaneSection<infer T> ? T : never;

// biome-ignore lint/suspicious/noExplicitAny: a checked object whose fields the checks read and narrow one by one
export const isObj = (v: unknown): v is Record<string, any> => typeof v === "object" && v !== null && !Array.isArray(v);
export const isInt = (v: unknown, min = 0): v is number => Number.isSafeInteger(v) && (v as number) >= min;
export const noNul = (s: unknown): s is string => typeof s === "string" && !s.includes("\u0000");
export const isArgv = (v: unknown): v is string[] => Array.isArray(v) && v.every(noNul);
