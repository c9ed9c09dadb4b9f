// pane_grants: what a pane may do over the socket (docs/security.md "Grants").
import { WsError } from "../protocol/errors";
import { GRANT_MEANING } from "../protocol/grants";
import { paneById } from "../model/session-lookups";
import { defineMessage } from "./types";

export const GRANTS_REPLY = {
  pane: { type: "integer", description: "The pane" },
  level: { type: "string", description: "What its socket answers with now: report, self, workspace or control" },
  granted: { type: "string", description: "What it was given; `level` is lower while an agent runs in it, unless the person raised it" },
  agent: { type: "boolean", description: "An agent runs in it (its hooks report, or its foreground program is a known agent)" },
  by_person: { type: "boolean", description: "The person set its grants (ws pane grant): an agent in it no longer lowers them" },
  creator: { type: "integer", optional: true, description: "The pane whose socket started it, when one did: it is in that pane's `self` scope" },
  allows: { type: "string", description: "What `level` allows, in words" },
} as const;

export default defineMessage({
  type: "pane_grants",
  since: 6,
  grant: "report",
  scope: "any",
  request: true,
  reply: "pane_grants",
  summary: "What a pane may do over the socket: its grant level now, what it was given, and whether an agent running in it lowers it. From a pane (the panes' socket), without `pane`: that pane.",
  fields: {
    pane: { type: "integer", description: "The pane (default: the caller's own pane)" },
  },
  replyFields: GRANTS_REPLY,
  errors: ["pane_not_found", "invalid_params"],
  example: { v: 6, id: 1, type: "pane_grants", pane: 3 },
  cli: { path: "pane grants", summary: "Say what a pane may do over the socket (its grants)", args: ["pane?"], defaults: { pane: "$WS_PANE_ID" }, view: "grants" },
  handle({ pane }, { session, services, callerPane }) {
    const id = pane ?? callerPane;
    if (id === undefined) throw new WsError("name the pane (pane_grants on the main socket has no pane of its own)", "invalid_params", { param: "pane" });
    paneById(session, id);
    const grants = services.get("grants");
    if (!grants) throw new WsError("this server has no grants", "unsupported");
    const v = grants.view(id);
    return { type: "pane_grants", ...v, allows: GRANT_MEANING[v.level] };
  },
});
