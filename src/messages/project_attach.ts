import { defineMessage } from "./types";

export default defineMessage({
  type: "project_attach",
  since: 1,
  grant: "control",
  request: false,
  summary: "Link the tab holding pane to a project. An unknown slug is an error: nothing is linked.",
  fields: {
    pane: { type: "integer", required: true, description: "A pane in the tab to link" },
    slug: { type: "string", name: true, required: true, description: "The project's slug" },
  },
  example: { v: 1, type: "project_attach", pane: 3, slug: "button-a11y" },
  cli: { path: "project attach", args: ["slug"], defaults: { pane: "$WS_PANE_ID" }, flags: ["pane"], run: "projectAttach" },
  handle({ pane, slug }, { session, services }) {
    services.get("projects")?.check(slug, "slug");
    session.linkProject(pane, slug);
  },
});
