// attach_client_detach: end one attached terminal's stream (ws client detach ID, tmux's detach-client -t).
import { WsError } from "../protocol/errors";
import { defineMessage, ok } from "./types";

export default defineMessage({
  type: "attach_client_detach",
  since: 6,
  grant: "person",
  request: true,
  reply: "ok",
  summary: "Detach one attached terminal (tmux's detach-client -t): its client gets EXIT `detached` and gives the terminal back; the panes and the other clients stay.",
  fields: { client: { type: "integer", required: true, min: 0, description: "The client's id, as attach_clients lists it" } },
  errors: ["client_not_found"],
  example: { v: 6, id: 1, type: "attach_client_detach", client: 2 },
  cli: { path: "client detach", args: ["client"] },
  handle({ client }, { services }) {
    const ui = services.get("ui");
    const ids = ui?.clientList?.().map((c) => c.id) ?? [];
    if (!ui?.detachClientId?.(client, { reason: "detached", message: "detached by ws client detach (ws attach to come back)" }))
      throw new WsError(`no attached client ${client}${ids.length ? "" : " (no terminal is attached)"}`, "client_not_found", { param: "client", available: ids, command: "ws client list" });
    return ok();
  },
});
