import { defineMessage, ok } from "./types";

export default defineMessage({
  type: "pane_rename",
  since: 6,
  grant: "self",
  request: true,
  reply: "ok",
  summary: "Name a pane: the name is its label whatever its program does or titles itself; empty clears it. Emits pane_renamed with `name`.",
  fields: {
    pane: { type: "integer", required: true, description: "The pane" },
    name: { type: "string", required: true, description: "Its name, or empty to go back to the automatic label" },
  },
  errors: ["pane_not_found"],
  example: { v: 6, id: 1, type: "pane_rename", pane: 3, name: "server" },
  cli: { path: "pane rename", args: ["pane", "name"], defaults: { pane: "$WS_PANE_ID" } },
  handle(p, { session }) {
    session.renamePane(p.pane, p.name);
    return ok();
  },
});
