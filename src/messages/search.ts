// search: every pane's history and screen, line by line (wrapped rows joined), for a string or a
// regex. A regex runs in the regex helpers with their time budget (regex-pool.ts), one pane per
// check, so a pattern that backtracks for ever costs one budget and ends the search with
// regex_timeout; a plain string is found with indexOf on the daemon's thread. Reading a pane's
// 10,000 lines of history out of its emulator takes ~11 ms (more on a busy machine), so the search lets the daemon's
// loop turn between panes: other clients are answered meanwhile, not after every pane.
import { WsError } from "../protocol/errors";
import { CHECK_BUDGET_MS, regexPool } from "../patterns/regex-pool";
import { MAX_PATTERN_LENGTH, userPattern } from "../patterns/user-pattern";
import { defineMessage, replyTyped } from "./types";

export const DEFAULT_MAX = 100;
export const MAX_MATCHES = 10_000;
/** The reply's matched text at most, in characters: past it the search stops, `truncated`. */
export const MAX_REPLY_TEXT = 4 * 1024 * 1024;

interface Match {
  pane: number;
  line: number;
  row: number;
  text: string;
}

export default defineMessage({
  type: "search",
  since: 6,
  grant: "self",
  scope: "all",
  request: true,
  longRunning: true,
  reply: "search_result",
  summary:
    "Find a string or a regex in every pane's history and screen, line by line (a line the terminal wrapped counts as one). Each match gives the pane, the line and its text; panes in id order, lines in order.",
  fields: {
    pattern: { type: "string", required: true, description: `What to find (at most ${MAX_PATTERN_LENGTH} characters): a plain string, or with regex a JavaScript regular expression whose ^ and $ match at the line's ends` },
    regex: { type: "boolean", default: false, description: `pattern is a regular expression; checking one pane's text that takes over ${CHECK_BUDGET_MS} ms ends the search with regex_timeout` },
    case: { type: "boolean", default: false, description: "Match case (default: ignore it)" },
    max: { type: "integer", default: DEFAULT_MAX, min: 1, max: MAX_MATCHES, description: "The most matches to return" },
    panes: { type: "integer[]", description: "Only these panes (default: all)" },
  },
  replyFields: {
    matches: replyTyped<Match[]>()({ type: "array", description: "[{pane, line, row, text}]: line is 1-based in pane_read's recent-unwrapped source (pane_read --start LINE reads it), row the buffer row it starts on (0 is the oldest kept), text the whole line" }),
    truncated: { type: "boolean", description: "More matches were left out (max, or the reply's size limit)" },
  },
  errors: ["pane_not_found", "regex_timeout", "busy"],
  example: { v: 6, id: 1, type: "search", pattern: "error\\[E\\d+\\]", regex: true, max: 20 },
  cli: {
    path: "search",
    summary: "Find text in every pane's history and screen; prints PANE:LINE: TEXT, and exits 1 when nothing matches (as grep)",
    status: "found",
    args: ["pattern"],
    switches: {
      regex: { field: "regex", value: true, description: "PATTERN is a regular expression" },
      case: { field: "case", value: true, description: "Match case" },
    },
    flags: ["max", "panes"],
    view: "search",
  },
  async handle(p, { session, signal }) {
    const ids = p.panes ?? [...session.panes.keys()].sort((a, b) => a - b);
    for (const id of p.panes ?? []) session.pane(id); // each named pane exists, before any work
    const pattern = p.regex ? userPattern(p.pattern, !p.case) : undefined;
    if (!pattern && p.pattern.length > MAX_PATTERN_LENGTH) throw new WsError(`pattern is ${p.pattern.length} characters long; at most ${MAX_PATTERN_LENGTH} are accepted`, "invalid_params", { param: "pattern" });
    const needle = p.case ? p.pattern : p.pattern.toLowerCase();
    const matches: Match[] = [];
    let size = 0;
    let truncated = false;
    let first = true;
    for (const id of [...new Set(ids)]) {
      if (!first) await new Promise<void>((resolve) => setImmediate(resolve));
      first = false;
      // Past max, panes are still searched for one more match: truncated then says there are more.
      if (truncated || signal?.aborted) break;
      let lines: { text: string; row: number }[] = [];
      const read = () => {
        const pane = session.panes.get(id);
        if (!pane) return undefined; // closed meanwhile
        lines = pane.emulator.sourceRows("recent-unwrapped");
        return lines.map((l) => l.text).join("\n");
      };
      // One more than wanted says whether there were more.
      const want = p.max - matches.length + 1;
      let found: number[];
      if (pattern) found = await regexPool.matchingLines(pattern, read, want);
      else {
        found = [];
        if (read() !== undefined)
          for (let i = 0; i < lines.length && found.length < want; i++) if ((p.case ? lines[i]!.text : lines[i]!.text.toLowerCase()).includes(needle)) found.push(i);
      }
      for (const i of found) {
        const l = lines[i]!;
        if (matches.length >= p.max || size + l.text.length > MAX_REPLY_TEXT) {
          truncated = true;
          break;
        }
        size += l.text.length;
        matches.push({ pane: id, line: i + 1, row: l.row, text: l.text });
      }
    }
    return { type: "search_result", matches, truncated };
  },
});
