// notify: a message for the person at the attached terminal (its status line, and a desktop
// notification through the outer terminal) and for event subscribers.
import { WsError } from "../protocol/errors";
import { notificationText } from "../protocol/notification";
import { defineMessage } from "./types";

/** Longest title and body, in characters: a status line and a desktop notification show little more. */
export const MAX_TITLE = 256;
export const MAX_BODY = 4096;

export default defineMessage({
  type: "notify",
  since: 6,
  grant: "self",
  request: true,
  reply: "notified",
  summary:
    "Tell the person: the attached client's status line shows the notification for a few seconds, its terminal gets it as OSC 9 and OSC 777 (a desktop notification where the terminal supports one), and subscribers get a notification event. Control characters in the text become spaces.",
  fields: {
    title: { type: "string", required: true, description: `The notification's title (1 to ${MAX_TITLE} characters)` },
    body: { type: "string", description: `More text (at most ${MAX_BODY} characters)` },
    pane: { type: "integer", description: "The pane it is about (shown with it, and in the event)" },
  },
  replyFields: { attached: { type: "boolean", description: "Whether a client was attached to see it" } },
  errors: ["pane_not_found"],
  example: { v: 6, id: 1, type: "notify", title: "tests passed", body: "412 tests in 38 s", pane: 3 },
  cli: { path: "notify", args: ["title"], flags: ["body", "pane"], view: "notified" },
  handle(p, { session, services }) {
    if (p.title.length < 1 || p.title.length > MAX_TITLE) throw new WsError(`title must be 1 to ${MAX_TITLE} characters, got ${p.title.length}`, "invalid_params", { param: "title" });
    if (p.body !== undefined && p.body.length > MAX_BODY) throw new WsError(`body must be at most ${MAX_BODY} characters, got ${p.body.length}`, "invalid_params", { param: "body" });
    if (p.pane !== undefined) session.pane(p.pane);
    const title = notificationText(p.title);
    const body = p.body !== undefined ? notificationText(p.body) : undefined;
    session.bus.emit({ type: "notification", title, ...(body !== undefined ? { body } : {}), ...(p.pane !== undefined ? { pane: p.pane } : {}) });
    return { type: "notified", attached: !!services.get("ui")?.client };
  },
});
