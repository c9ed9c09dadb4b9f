// shim_buffer_rename: the tmux shim's set-buffer -n.
import { BUFFER_REPLY_FIELDS, bufferReply, shimStore } from "./shim-fields";
import { defineMessage } from "./types";

export default defineMessage({
  type: "shim_buffer_rename",
  since: 6,
  // The shim in an agent's pane (self) keeps tmux's server-wide buffers and options as in tmux;
  // they name no pane (a paste still needs pane_send's grant for its target).
  grant: "self",
  scope: "any",
  request: true,
  reply: "shim_buffer",
  summary: "Rename a tmux shim paste buffer (set-buffer -n): the named one or the newest takes the name `to`, replacing a buffer of that name, and becomes the newest.",
  fields: {
    name: { type: "string", description: "The buffer (-b). Default: the newest" },
    to: { type: "string", required: true, description: "Its new name" },
  },
  replyFields: BUFFER_REPLY_FIELDS,
  errors: ["buffer_not_found", "limit_exceeded", "invalid_params"],
  example: { v: 6, id: 1, type: "shim_buffer_rename", name: "buffer0", to: "kept" },
  handle(p, { services }) {
    const store = shimStore(services);
    return bufferReply(store.rename(store.find(p.name), p.to));
  },
});
