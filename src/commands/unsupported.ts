// Messages of the spec whose features (Neovim, project handoff) this build does not have yet.
// They are registered so they validate and are described; they are accepted and logged.
import { defineMessage } from "./types";

export const open = defineMessage({
  type: "open",
  since: 1,
  request: false,
  summary: "Open a file in the workstream's Neovim (not supported by this build: logged and ignored).",
  fields: {
    pane: { type: "integer", required: true, description: "The pane that asked" },
    location: { type: "string", required: true, description: "path[:line[:col]], with an absolute path" },
  },
  example: { v: 1, type: "open", pane: 7, location: "/code/app/models/user.rb:42" },
  handle(p) {
    console.error(`open ${JSON.stringify(p)}: the Neovim integration is not supported by this build`);
  },
});

export const handoff = defineMessage({
  type: "handoff",
  since: 1,
  request: false,
  summary: "Ask a project's running agents for their handoff entries (not supported by this build).",
  fields: { slug: { type: "string", required: true, description: "The project's slug" } },
  example: { v: 1, type: "handoff", slug: "button-a11y" },
  handle(p) {
    console.error(`handoff ${JSON.stringify(p)}: project handoff is not supported by this build`);
  },
});
