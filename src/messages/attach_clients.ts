// attach_clients: the terminals attached to the server (ws client list, tmux's list-clients).
import type { AttachedClientInfo } from "../features/services";
import { defineMessage, replyTyped } from "./types";

export default defineMessage({
  type: "attach_clients",
  since: 6,
  grant: "person",
  request: true,
  reply: "attach_clients",
  summary:
    "The terminals attached to the server, in the order they attached (tmux's list-clients). They share the session's focus and layout; each has its own prompt, overlays and copy mode; the session has the size of the latest active one (the last to type or attach, tmux's `window-size latest`), and another sees it fitted to its own terminal as tmux shows it.",
  fields: {},
  replyFields: {
    clients: replyTyped<AttachedClientInfo[]>()({
      type: "array",
      description:
        "One object per client: id (what attach_client_detach takes), cols and rows (its terminal's size), term (its $TERM, when it sent one), terminal (its XTVERSION answer, when it gave one), latest (true for the latest active client, whose size the session has), attached_ms (how long it has been attached) and idle_ms (since it last typed or attached)",
    }),
  },
  example: { v: 6, id: 1, type: "attach_clients" },
  cli: { path: "client list", view: "clients" },
  handle(_p, { services }) {
    return { type: "attach_clients", clients: services.get("ui")?.clientList?.() ?? [] };
  },
});
