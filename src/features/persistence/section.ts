// What a feature declares to keep its part of a saved pane (its type, its check, its limits): the
// save composes the sections (sections.ts) without knowing any feature's shape. Also the small
// checks every reader of a save uses.
import { nameProblem } from "../../protocol/names";
import { logValue } from "../../safe-text";

/** A feature's part of a saved pane, under its own key: how a value read back is checked. */
export interface PaneSection<T> {
  /** The usable value (undefined: dropped) and, when something was dropped, a note for the person. */
  check(raw: unknown): { value?: T; note?: string };
}

/** A feature's part of a save's body, under its own key: checked whole, each bad entry noted and
 * left out; undefined when nothing is left to keep. */
export interface BodySection<T> {
  check(raw: unknown, note: (m: string) => void): T | undefined;
}

/** The value type a section keeps. */
export type SectionValue<S> = S extends PaneSection<infer T> ? T : S extends BodySection<infer T> ? T : never;

// biome-ignore lint/suspicious/noExplicitAny: a checked object whose fields the checks read and narrow one by one
export const isObj = (v: unknown): v is Record<string, any> => typeof v === "object" && v !== null && !Array.isArray(v);
export const isInt = (v: unknown, min = 0): v is number => Number.isSafeInteger(v) && (v as number) >= min;
export const noNul = (s: unknown): s is string => typeof s === "string" && !s.includes("\u0000");
export const isArgv = (v: unknown): v is string[] => Array.isArray(v) && v.every(noNul);

/** Why a saved name can't be used (the model's one rule, src/protocol/names.ts), or undefined. */
export function savedNameProblem(v: unknown, what: string): string | undefined {
  if (typeof v !== "string") return `no ${what}`;
  const problem = nameProblem(v);
  return problem && `its ${what} ${logValue(v)} ${problem}`;
}
