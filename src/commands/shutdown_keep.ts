import { defineMessage } from "./types";

export default defineMessage({
  type: "shutdown_keep",
  since: 2,
  request: false,
  summary: "Quit like shutdown, but save the session first so the next server restores it.",
  fields: {},
  example: { v: 2, type: "shutdown_keep" },
  handle(_p, ctx) {
    ctx.shutdown(true);
  },
});
