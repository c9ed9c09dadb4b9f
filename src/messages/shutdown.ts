import { defineMessage } from "./types";

export default defineMessage({
  type: "shutdown",
  since: 1,
  grant: "person",
  request: false,
  summary: "Quit the server and close every pane.",
  fields: {},
  example: { v: 1, type: "shutdown" },
  handle(_p, ctx) {
    ctx.shutdown(false);
  },
});
