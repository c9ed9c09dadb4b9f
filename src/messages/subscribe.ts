import { WsError } from "../protocol/errors";
import type { Connection } from "../protocol/connection";
import { EVENT_TYPES } from "../features/events";
import { defineMessage } from "./types";

const SUBSCRIBABLE = EVENT_TYPES.filter((t) => t !== "gap");

export default defineMessage({
  type: "subscribe",
  since: 6,
  grant: "self",
  scope: "all",
  request: true,
  stream: true,
  longRunning: true,
  reply: "subscribed",
  summary:
    "Turn the connection into an event stream: an acknowledgement, then one line per event, {\"v\":6,\"type\":\"event\",\"event\":NAME,\"seq\",\"boot_id\",\"time\",…}. Resume after a disconnect with after_seq and boot_id: retained events are replayed; a gap event (reason evicted, boot_changed or overflow) says when some cannot be. A reader that falls behind catches up from the retained events, and gets a gap with the count dropped for those no longer retained. output events are opt-in (name them in types), at most one per pane per 100 ms, carry no seq and are never replayed.",
  fields: {
    types: { type: "string[]", accepted: SUBSCRIBABLE, description: "Only these event types (default: all but the opt-in output). gap events always come" },
    workspace: { type: "string", description: "Only events of this workspace (exact name)" },
    pane: { type: "integer", description: "Only events of this pane" },
    after_seq: { type: "integer", min: 0, description: "Resume: replay retained events after this seq (the last one you saw), then go live" },
    boot_id: { type: "string", description: "The boot_id after_seq belongs to; a different one gets a boot_changed gap and no replay" },
  },
  replyFields: {
    seq: { type: "integer", description: "The last event's seq when the stream went live (replayed events come after the acknowledgement)" },
    boot_id: { type: "string", description: "This server start" },
    oldest_seq: { type: "integer", description: "The oldest retained event" },
  },
  errors: ["invalid_params"],
  example: { v: 6, id: 1, type: "subscribe", types: ["pane_created", "pane_closed", "pane_exited"], after_seq: 41, boot_id: "…" },
  cli: { path: "events", summary: "Print the event stream, resumable with --after-seq and --boot-id", run: "events" },
  handle(p, { services, connection, afterReply }) {
    const control = services.control;
    const log = control.events;
    const conn = connection as Connection | undefined;
    if (!conn || !afterReply) throw new WsError("subscribe needs a socket connection", "unsupported");
    let gap: Record<string, unknown> | undefined;
    let cursor = log.seq;
    if (p.after_seq !== undefined) {
      if (p.boot_id !== undefined && p.boot_id !== control.bootId) {
        gap = { reason: "boot_changed", previous_boot_id: p.boot_id };
      } else {
        if (p.after_seq > log.seq)
          throw new WsError(`after_seq ${p.after_seq} is ahead of this server's last event (${log.seq})`, "invalid_params", { param: "after_seq" });
        cursor = p.after_seq;
        if (cursor < log.oldest - 1) {
          gap = { reason: "evicted", from_seq: cursor + 1, to_seq: log.oldest - 1, dropped: log.oldest - 1 - cursor };
          cursor = log.oldest - 1;
        }
      }
    }
    const filter = { types: p.types ? new Set(p.types) : undefined, workspace: p.workspace, pane: p.pane };
    const sub = log.subscribe(conn, filter, cursor);
    // The connection is a stream from now on: what the client sends is ignored; closing ends it.
    conn.reader = { data() {}, close: () => sub.close(), halfClose() {} };
    afterReply(() => sub.start(gap));
    return { type: "subscribed", seq: log.seq, boot_id: control.bootId, oldest_seq: log.oldest };
  },
});
