import type { catalogue } from "./catalogue";
import { WsError, closest } from "../protocol/errors";
import { defineMessage, replyTyped } from "./types";

type Catalogue = ReturnType<typeof catalogue>;

export default defineMessage({
  type: "describe",
  since: 6,
  grant: "report",
  scope: "any",
  request: true,
  reply: "catalogue",
  summary: "The catalogue: every message with its version, fields (type, default, accepted values), reply shape, error codes and an example; the error codes; the event types. Generated from the registry the server validates against.",
  fields: {
    message: { type: "string", description: "Describe only this message type" },
  },
  replyFields: {
    protocol: replyTyped<Catalogue["protocol"]>()({ type: "object", description: "`version`, `min_version`, `legacy_reply_version`" }),
    envelope: replyTyped<Catalogue["envelope"]>()({ type: "array", description: "The envelope fields every line may carry" }),
    grants: replyTyped<Catalogue["grants"]>()({ type: "array", description: "Every grant (report, self, workspace, control, person) with what it allows; each message names the one it needs" }),
    errors: replyTyped<Catalogue["errors"]>()({ type: "array", description: "Every error code with its meaning" }),
    envelope_errors: replyTyped<Catalogue["envelope_errors"]>()({ type: "array", description: "The codes any message can get from the envelope, validation and the server's limits" }),
    events: replyTyped<Catalogue["events"]>()({ type: "array", description: "The event types `subscribe` can deliver" }),
    messages: replyTyped<Catalogue["messages"]>()({ type: "array", description: "One entry per message (only the one asked for, with `message`)" }),
  },
  errors: ["unknown_type"],
  example: { v: 6, id: 1, type: "describe", message: "pane_read" },
  cli: { path: "api describe", summary: "Describe every message, or one (without a server: this build's catalogue)", args: ["message?"], run: "describe" },
  async handle({ message }) {
    const { catalogue } = await import("./catalogue");
    const cat = catalogue();
    if (message !== undefined) {
      const one = cat.messages.filter((m) => m.type === message);
      if (!one.length) {
        const names = cat.messages.map((m) => m.type);
        const near = closest(message, names);
        throw new WsError(`unknown type "${message}"`, "unknown_type", { param: "message", ...(near !== undefined ? { did_you_mean: near } : {}), available: names });
      }
      return { type: "catalogue", ...cat, messages: one };
    }
    return { type: "catalogue", ...cat };
  },
});
