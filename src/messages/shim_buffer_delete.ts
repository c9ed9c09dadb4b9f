// shim_buffer_delete: the tmux shim's delete-buffer, and paste-buffer -d.
import { BUFFER_REPLY_FIELDS, bufferReply, shimStore } from "./shim-fields";
import { defineMessage } from "./types";

export default defineMessage({
  type: "shim_buffer_delete",
  since: 6,
  // The shim in an agent's pane (self) keeps tmux's server-wide buffers and options as in tmux;
  // they name no pane (a paste still needs pane_send's grant for its target).
  grant: "self",
  scope: "any",
  request: true,
  reply: "shim_buffer",
  summary: "Delete a tmux shim paste buffer (delete-buffer; paste-buffer -d): the named one or the newest; with `id`, only that version (a buffer set again meanwhile stays).",
  fields: {
    name: { type: "string", description: "The buffer (-b). Default: the newest" },
    id: { type: "integer", min: 1, description: "Only this version of it" },
  },
  replyFields: BUFFER_REPLY_FIELDS,
  errors: ["buffer_not_found"],
  example: { v: 6, id: 1, type: "shim_buffer_delete", name: "slime" },
  handle(p, { services }) {
    const store = shimStore(services);
    const b = store.find(p.name, p.id);
    store.delete(b);
    return bufferReply(b);
  },
});
