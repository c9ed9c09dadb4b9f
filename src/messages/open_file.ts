// open_file (v6): open as a request, answered with the Neovim's pane or the error (a pane that has
// gone, a relative path, Neovim refusing).
import { defineMessage } from "./types";
import { openLocation } from "../features/nvim/open";
import { OPEN_FIELDS } from "./open";
import { WsError } from "../protocol/errors";
import { workstreamsOf } from "../features/workstreams/table";

export default defineMessage({
  type: "open_file",
  since: 6,
  grant: "self",
  request: true,
  reply: "pane",
  replyFields: { pane: { type: "integer", description: "The pane that shows the file" } },
  summary:
    "open as a request: show the file at path[:line[:col]] in the Neovim of pane's workstream (else pane's tab) and focus it, starting one in a split when there is none. Replies with the Neovim's pane.",
  fields: {
    pane: { ...OPEN_FIELDS.pane, required: false, description: "The pane that asked (give it or name)" },
    location: OPEN_FIELDS.location,
    name: { type: "string", name: true, description: "The workstream whose Neovim shows it (ws open: $WS_WORKSTREAM, else the worktree this runs in); pane is used when it is in that workstream's tab" },
  },
  errors: ["pane_not_found", "not_a_workstream", "invalid_params", "forbidden", "nvim_failed", "program_not_found", "limit_exceeded"],
  example: { v: 6, type: "open_file", pane: 7, location: "/code/app/models/user.rb:42:5" },
  cli: { path: "open", summary: "Show the file at path[:line[:col]] in the Neovim of the workstream this runs in (else the pane's tab), starting one in a split when there is none; prints that pane", args: ["location"], flags: ["pane", "name"], view: "pane", run: "open" },
  handle({ pane, location, name }, { session, services, callerPane }) {
    let caller = pane;
    if (name !== undefined) {
      const svc = services.get("workstreams");
      if (!svc) throw new WsError("workstreams are not supported by this ws build", "unsupported");
      const w = svc.resolve({ name });
      // From a pane (the panes' socket), name reaches only the caller's own workstream (the pane field's
      // scope is checked by its grant; a name is not).
      if (callerPane !== undefined && workstreamsOf(session).ofPane(callerPane) !== w && session.panes.get(callerPane)?.env.WS_WORKSTREAM !== w.name)
        throw new WsError(`refused: pane ${callerPane} may open files only in its own workstream's Neovim, not "${name}"`, "forbidden", { param: "name" });
      const at = workstreamsOf(session).tabOf(w);
      if (!at) throw new WsError(`workstream "${name}" has no open tab: ws workstream list shows it; ws done ${name} finishes it`, "not_a_workstream", { param: "name" });
      const inside = pane !== undefined && workstreamsOf(session).ofPane(pane) === w;
      caller = inside ? pane : at.tab.focused;
    }
    if (caller === undefined) throw new WsError("give pane or name", "invalid_params", { param: "pane" });
    return openLocation(session, caller, location).then((id) => ({ type: "pane", pane: id }));
  },
});
