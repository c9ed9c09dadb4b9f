import { defineMessage } from "./types";

export default defineMessage<{ pane: number; slug: string }>({
  type: "project_attach",
  since: 1,
  request: false,
  summary: "Link the tab holding pane to a project.",
  fields: {
    pane: { type: "integer", required: true, description: "A pane in the tab to link" },
    slug: { type: "string", name: true, required: true, description: "The project's slug" },
  },
  example: { v: 1, type: "project_attach", pane: 3, slug: "button-a11y" },
  handle({ pane, slug }, { session }) {
    session.linkProject(pane, slug);
  },
});
