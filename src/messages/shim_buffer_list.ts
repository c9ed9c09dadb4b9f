// shim_buffer_list: the tmux shim's list-buffers (and its choice of a buffer by name).
import { shimStore } from "./shim-fields";
import { defineMessage, replyTyped } from "./types";

export default defineMessage({
  type: "shim_buffer_list",
  since: 6,
  // The shim in an agent's pane (self) keeps tmux's server-wide buffers and options as in tmux;
  // they name no pane (a paste still needs pane_send's grant for its target).
  grant: "self",
  scope: "any",
  request: true,
  reply: "shim_buffers",
  summary: "The tmux shim's paste buffers, newest first: each one's name, version, size and the start of its text (list-buffers).",
  fields: {},
  replyFields: { buffers: replyTyped<{ name: string; id: number; bytes: number; automatic: boolean; sample: string }[]>()({ type: "array", description: "One object per buffer: name, id, bytes, automatic, sample (its first 50 characters)" }) },
  example: { v: 6, id: 1, type: "shim_buffer_list" },
  handle(_p, { services }) {
    const store = shimStore(services);
    return { type: "shim_buffers", buffers: store.buffers().map((b) => ({ name: b.name, id: b.id, bytes: b.data.length, automatic: b.automatic, sample: store.sample(b) })) };
  },
});
