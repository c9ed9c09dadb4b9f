import { defineMessage } from "./types";

export default defineMessage({
  type: "project_renamed",
  since: 2,
  grant: "control",
  request: false,
  summary: "A project's slug changed: tabs linked to `from` now link to `to`.",
  fields: {
    from: { type: "string", name: true, required: true, description: "The old slug" },
    to: { type: "string", name: true, required: true, description: "The new slug" },
  },
  example: { v: 2, type: "project_renamed", from: "a11y", to: "buttons" },
  handle({ from, to }, { session }) {
    session.renameProject(from, to);
  },
});
