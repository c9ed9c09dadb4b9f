import { defineMessage } from "./types";

export default defineMessage({
  type: "shutdown_keep",
  since: 2,
  grant: "person",
  request: false,
  summary: "Quit like shutdown, but save the session first so the next server restores it.",
  fields: {
    restart: { type: "boolean", description: "ws restart: a server starts again at once, so the attached ws client re-attaches to it by itself (its EXIT notice says restart: true)" },
  },
  example: { v: 2, type: "shutdown_keep" },
  handle(p: { restart?: boolean }, ctx) {
    if (p.restart) ctx.services.get("ui")?.detachClient({ reason: "quit", restart: true, message: "the ws server is restarting; attaching again when it is back" });
    ctx.shutdown(true);
  },
});
