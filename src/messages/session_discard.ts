import { WsError } from "../protocol/errors";
import { defineMessage } from "./types";

export default defineMessage({
  type: "session_discard",
  since: 6,
  grant: "person",
  request: true,
  reply: "session_discarded",
  summary: "Delete the saved session, so the next server starts clean (ws session discard). Background saves resume with the next change.",
  fields: {},
  replyFields: {
    path: { type: "string", description: "The save file" },
    removed: { type: "boolean", description: "Whether there was one to remove" },
  },
  errors: ["unsupported"],
  example: { v: 6, type: "session_discard" },
  async handle(_p, { services }) {
    const svc = services.get("persistence");
    if (!svc) throw new WsError("this server does not save sessions", "unsupported");
    return { type: "session_discarded", path: svc.opts.path, removed: await svc.discard() };
  },
});
