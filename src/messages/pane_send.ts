import { WsError } from "../protocol/errors";
import { MAX_PATTERN_LENGTH } from "../patterns/user-pattern";
import { defineMessage, ok, replyTyped } from "./types";
import { waitFor } from "./waits";

export default defineMessage({
  type: "pane_send",
  since: 2,
  grant: "self",
  request: true,
  // With wait_output it answers once the output matched; without, at once.
  longRunning: true,
  reply: "ok",
  summary:
    "Type text into a pane as a paste, then press Enter if asked. To a program with bracketed paste on, the text goes between ESC[200~ and ESC[201~ with every control character but tab, CR and LF taken out (docs/security.md), so it can't end the paste early. With `wait_output` (v6) it then waits, in the same request, until what the pane writes after the text matches: the wait is in place before the text is typed, and the lines the text itself takes (its echo) don't count.",
  fields: {
    pane: { type: "integer", required: true, description: "The pane id" },
    text: { type: "string", required: true, description: "The text. May be empty" },
    enter: { type: "boolean", default: false, description: "Press Enter after the text" },
    wait_output: {
      type: "string",
      description: `(v6) Then wait until the pane's output after the text matches this JavaScript regular expression (at most ${MAX_PATTERN_LENGTH} characters; multiline, as wait_for's pattern), not counting the text's own lines; the reply carries wait_for's output fields (match, groups, line, elapsed_ms)`,
    },
    timeout: { type: "integer", default: 30000, min: 0, max: 86_400_000, description: "wait_output: give up after this many ms, with code timeout; 0: no limit" },
  },
  replyFields: {
    condition: { type: "string", optional: true, description: "wait_output: output" },
    pane: { type: "integer", optional: true, description: "wait_output: the pane" },
    match: { type: "string", optional: true, description: "wait_output: the text that matched" },
    groups: replyTyped<(string | null)[]>()({ type: "array", optional: true, description: "wait_output: the regex's capture groups" }),
    line: { type: "integer", optional: true, description: "wait_output: the 1-based line, after the text's own, where the match starts" },
    elapsed_ms: { type: "integer", optional: true, description: "wait_output: how long the wait took" },
  },
  errors: ["pane_not_found", "pane_exited", "timeout", "regex_timeout", "busy"],
  example: { v: 2, type: "pane_send", pane: 4, text: "cargo test", enter: true },
  cli: {
    path: "pane send",
    summary: "Type text into a pane as a paste, then press Enter if asked; --wait-output PATTERN then waits for the output that follows (the way to run a command and wait for what it prints, when ws run's shell integration is not there)",
    args: ["pane", "text"],
    flags: ["enter", "wait_output", "timeout"],
    defaults: { pane: "$WS_PANE_ID", text: "", timeout: 0 },
    oneOf: ["text", "enter"],
    view: "wait",
  },
  async handle({ pane, text, enter, wait_output, timeout }, ctx) {
    const { session, version } = ctx;
    const p = session.pane(pane);
    // A kept pane whose program has exited takes no input: say so (v6; older lines were always ok).
    if (p.exited && (version ?? 0) >= 6) throw new WsError(`pane ${pane}'s program has exited; the text was not sent`, "pane_exited", { param: "pane", command: `ws pane respawn ${pane}` });
    // v1–v5 lines are answered as they always were: wait_output is v6's.
    if (wait_output !== undefined && (version ?? 0) >= 6) {
      const r = await waitFor({ condition: "output", pane, pattern: wait_output, ignore_case: false, new: true, source: "recent", timeout }, ctx, { text, enter });
      // An output wait's fields, under the plain ok that pane_send answers.
      return { type: "ok", condition: r.condition, elapsed_ms: r.elapsed_ms, pane: r.pane, match: r.match, groups: r.groups, line: r.line };
    }
    if (text) p.paste(text);
    if (enter) p.write("\r");
    return ok();
  },
});
