// open_file (v6): open as a request, answered with the Neovim's pane or the error (a pane that has
// gone, a relative path, Neovim refusing).
import { defineMessage } from "./types";
import { openLocation } from "../features/nvim/open";
import { OPEN_FIELDS } from "./open";

export default defineMessage({
  type: "open_file",
  since: 6,
  grant: "self",
  request: true,
  reply: "pane",
  summary:
    "open as a request: show the file at path[:line[:col]] in the Neovim of pane's workstream (else pane's tab) and focus it, starting one in a split when there is none. Replies with the Neovim's pane.",
  fields: OPEN_FIELDS,
  errors: ["pane_not_found", "nvim_failed", "program_not_found", "limit_exceeded"],
  example: { v: 6, type: "open_file", pane: 7, location: "/code/app/models/user.rb:42:5" },
  cli: { path: "open", summary: "Show the file at path[:line[:col]] in the Neovim of the pane's workstream (else its tab), starting one in a split when there is none; prints that pane", args: ["location"], defaults: { pane: "$WS_PANE_ID" }, flags: ["pane"], view: "pane", run: "open" },
  handle({ pane, location }, { session }) {
    return openLocation(session, pane, location).then((id) => ({ type: "pane", pane: id }));
  },
});
