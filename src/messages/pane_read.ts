import { WsError } from "../protocol/errors";
import { SOURCES } from "../model/text-sources";
import { defineMessage } from "./types";

export default defineMessage({
  type: "pane_read",
  since: 6,
  grant: "self",
  request: true,
  reply: "pane_text",
  summary: "Read a pane from its emulator: the screen, the screen with its scrollback, or that with soft-wrapped rows joined back into their lines. Trailing blank lines are left out.",
  fields: {
    pane: { type: "integer", required: true, description: "The pane id" },
    source: {
      type: "string",
      default: "visible",
      accepted: SOURCES,
      description: "visible: the screen as it is now; recent: the scrollback and the screen; recent-unwrapped: recent, with rows the terminal soft-wrapped joined back into one line each",
    },
    lines: { type: "integer", min: 0, description: "Only the last N lines of the source" },
    start: { type: "integer", min: 1, description: "First line of a 1-based inclusive range over the source's lines (overrides lines)" },
    end: { type: "integer", min: 1, description: "Last line of the range (default: the last line)" },
    styled: { type: "boolean", default: false, description: "Keep colours and attributes as ANSI SGR sequences; each styled line ends with a reset" },
  },
  replyFields: {
    pane: { type: "integer", description: "The pane" },
    source: { type: "string", description: "The source read" },
    text: { type: "string", description: "The lines, joined with \\n" },
    total_lines: { type: "integer", description: "How many lines the whole source has" },
    first_line: { type: "integer", description: "The 1-based number of the first line returned (0 when none)" },
    line_count: { type: "integer", description: "How many lines were returned" },
  },
  errors: ["pane_not_found"],
  example: { v: 6, id: 1, type: "pane_read", pane: 1, source: "recent", lines: 50 },
  cli: {
    path: "pane read",
    args: ["pane"],
    defaults: { pane: "$WS_PANE_ID" },
    switches: { scrollback: { field: "source", value: "recent", description: "Same as --source recent" } },
    view: "text",
  },
  async handle(p, { session }) {
    if (p.start !== undefined && p.end !== undefined && p.end < p.start)
      throw new WsError(`end (${p.end}) is before start (${p.start})`, "invalid_params", { param: "end" });
    const pane = session.pane(p.pane);
    await pane.flushed();
    const r = pane.emulator.readPane(p);
    return { type: "pane_text", pane: p.pane, source: p.source, text: r.text, total_lines: r.total, first_line: r.first, line_count: r.count };
  },
});
