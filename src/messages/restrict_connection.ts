// restrict_connection: a tool that speaks for an agent gives up authority on its connection for as
// long as it is open (docs/security.md "Grants"). It can only lower: never above what it had.
import { WsError } from "../protocol/errors";
import { GRANT_LEVELS } from "../protocol/grants";
import { defineMessage } from "./types";

export default defineMessage({
  type: "restrict_connection",
  since: 6,
  grant: "report",
  scope: "any",
  request: true,
  reply: "restricted",
  summary:
    "Lower what this connection may do, for as long as it is open: its grants become the lower of what it had and `level`, and it can never use a person verb. For tools that speak for an agent over a connection of the person's.",
  fields: {
    level: { type: "string", required: true, accepted: GRANT_LEVELS, description: "The most this connection may do from now on" },
  },
  replyFields: {
    level: { type: "string", description: "What the connection may do now (never more than before)" },
  },
  example: { v: 6, id: 1, type: "restrict_connection", level: "self" },
  handle({ level }, { services, connection, callerPane }) {
    const grants = services.get("grants");
    if (!grants) throw new WsError("this server has no grants", "unsupported");
    return { type: "restricted", level: grants.restrict(connection, level, callerPane) };
  },
});
