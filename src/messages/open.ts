// open (v1): show a file in the Neovim of the workstream that pane belongs to. Answered `ok` before
// it acts; open_file (v6) is the request form that answers with the Neovim's pane or the error.
import { defineMessage } from "./types";
import { openLocation } from "../features/nvim/open";

export const OPEN_FIELDS = {
  pane: { type: "integer", required: true, description: "The pane that asked" },
  location: { type: "string", required: true, description: "path[:line[:col]], with an absolute path" },
} as const;

export default defineMessage({
  type: "open",
  since: 1,
  grant: "self",
  request: false,
  summary:
    "Open a file in the Neovim of the workstream that pane belongs to (outside a workstream, of pane's tab), at the line and column, and focus it. A tab without a Neovim ws started gets one in a split.",
  fields: OPEN_FIELDS,
  example: { v: 1, type: "open", pane: 7, location: "/code/app/models/user.rb:42" },
  async handle({ pane, location }, { session }) {
    await openLocation(session, pane, location);
  },
});
