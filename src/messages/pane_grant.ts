// pane_grant: the person gives a pane grants, raising or lowering them (docs/security.md "Grants").
import { WsError } from "../protocol/errors";
import { GRANT_LEVELS, GRANT_MEANING } from "../protocol/grants";
import { paneById } from "../model/session-lookups";
import { defineMessage } from "./types";
import { GRANTS_REPLY } from "./pane_grants";

export default defineMessage({
  type: "pane_grant",
  since: 6,
  grant: "person",
  request: true,
  reply: "pane_grants",
  summary:
    "Give a pane grants (report, self, workspace or control), raising or lowering them. A person verb: refused on every pane's socket and from a process inside a pane. Once the person sets them, an agent running in the pane no longer lowers them.",
  fields: {
    pane: { type: "integer", required: true, description: "The pane" },
    level: { type: "string", required: true, accepted: GRANT_LEVELS, description: "Its grants from now on" },
  },
  replyFields: GRANTS_REPLY,
  errors: ["pane_not_found", "forbidden"],
  example: { v: 6, id: 1, type: "pane_grant", pane: 3, level: "workspace" },
  cli: { path: "pane grant", summary: "Give a pane grants (the person only: from outside ws)", args: ["pane", "level"], view: "grants" },
  handle({ pane, level }, { session, services }) {
    paneById(session, pane);
    const grants = services.get("grants");
    if (!grants) throw new WsError("this server has no grants", "unsupported");
    grants.set(pane, level);
    const v = grants.view(pane);
    return { type: "pane_grants", ...v, allows: GRANT_MEANING[v.level] };
  },
});
