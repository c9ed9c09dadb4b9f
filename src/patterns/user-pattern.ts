// A regular expression sent by a client (wait_for's `pattern`): checked up front, and matched the
// same way on the main thread (literal patterns) and in a regex helper process (everything else).
import { WsError } from "../protocol/errors";

/** Longest pattern accepted, in UTF-16 units: far above any real one, and keeps compiling cheap. */
export const MAX_PATTERN_LENGTH = 4096;

export interface UserPattern {
  source: string;
  flags: string;
  /** No regex syntax at all: it cannot backtrack, so it may run on the main thread. */
  literal: boolean;
}

export interface PatternMatch {
  match: string;
  groups: (string | null)[];
  /** The 1-based line of the text where the match starts. */
  line: number;
}

/** Anything that makes a pattern more than a plain string (escapes included, to stay simple). */
const SYNTAX = /[\\^$.*+?()[\]{}|]/;

/** Validate a client's pattern; throws invalid_params naming `param`. */
export function userPattern(source: string, ignoreCase: boolean, param = "pattern"): UserPattern {
  if (source.length > MAX_PATTERN_LENGTH)
    throw new WsError(`pattern is ${source.length} characters long; at most ${MAX_PATTERN_LENGTH} are accepted`, "invalid_params", { param });
  // Multiline: the text is the pane's lines joined with \n, and ^ and $ mean a line's start and end.
  const flags = ignoreCase ? "im" : "m";
  try {
    // Only parses: the engine compiles on first use, which happens in the helper.
    new RegExp(source, flags);
  } catch (e) {
    throw new WsError(`pattern is not a valid regular expression: ${(e as Error).message}`, "invalid_params", { param });
  }
  return { source, flags, literal: !SYNTAX.test(source) };
}

/** The indices of the first `max` lines of `text` (split at \n) that `re` matches (search). */
export function findLines(re: RegExp, text: string, max: number): number[] {
  const out: number[] = [];
  const lines = text.split("\n");
  for (let i = 0; i < lines.length && out.length < max; i++) if (re.test(lines[i]!)) out.push(i);
  return out;
}

/** The first match of `re` in `text`, or null. */
export function findMatch(re: RegExp, text: string): PatternMatch | null {
  const m = re.exec(text);
  if (!m) return null;
  let line = 1;
  for (let i = text.indexOf("\n"); i >= 0 && i < m.index; i = text.indexOf("\n", i + 1)) line++;
  return { match: m[0], groups: m.slice(1).map((g) => g ?? null), line };
}
