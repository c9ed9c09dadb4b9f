import { defineMessage } from "./types";

export default defineMessage<{ pane: number; source: string; lines?: number }>({
  type: "pane_read",
  since: 5,
  request: true,
  reply: "pane_text",
  summary: "Read what a pane shows, from its emulator: the screen, or the screen with its scrollback.",
  fields: {
    pane: { type: "integer", required: true, description: "The pane id" },
    source: { type: "string", default: "visible", accepted: ["visible", "recent"], description: "visible: the screen; recent: scrollback and screen" },
    lines: { type: "integer", description: "Only the last N lines" },
  },
  example: { v: 5, type: "pane_read", pane: 1, source: "visible" },
  async handle({ pane, source, lines }, { session }) {
    const p = session.pane(pane);
    await p.flushed();
    const text = p.readText({ scrollback: source === "recent", lines });
    return { type: "pane_text", pane, text: text.join("\n") };
  },
});
