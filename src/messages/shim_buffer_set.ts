// shim_buffer_set: the tmux shim's set-buffer, load-buffer (and capture-pane into a buffer), as one
// change in the daemon (features/shim-store.ts); a text over a line's size comes in pieces.
import { BUFFER_REPLY_FIELDS, bufferReply, shimStore } from "./shim-fields";
import { defineMessage, optionalFields } from "./types";

export default defineMessage({
  type: "shim_buffer_set",
  since: 6,
  // The shim in an agent's pane (self) keeps tmux's server-wide buffers and options as in tmux;
  // they name no pane (a paste still needs pane_send's grant for its target).
  grant: "self",
  scope: "any",
  request: true,
  reply: "shim_buffer",
  summary:
    "The tmux shim's set-buffer and load-buffer: set a paste buffer's text (or add to it), making it the newest; without a name a new automatic bufferN. A text too big for one line goes in pieces: each but the last with `more`, each after the first with the `upload` the first reply gave; the buffer changes once, at the last piece.",
  fields: {
    name: { type: "string", description: "The buffer (set-buffer -b). Default: a new automatic bufferN" },
    text: { type: "string", required: true, description: "The text, or this piece of it" },
    append: { type: "boolean", default: false, description: "Add the text to the buffer's (set-buffer -a)" },
    more: { type: "boolean", default: false, description: "More pieces follow: hold this one (the reply has only `upload`)" },
    upload: { type: "string", description: "The upload this piece continues (from the first piece's reply); `name` and `append` are the first piece's" },
  },
  // A held piece's reply has only `upload`; the last piece's, the buffer's fields.
  replyFields: { ...optionalFields(BUFFER_REPLY_FIELDS), upload: { type: "string", optional: true, description: "Only while pieces are held (`more`): the id the next piece sends" } },
  errors: ["limit_exceeded", "invalid_params"],
  example: { v: 6, id: 1, type: "shim_buffer_set", name: "slime", text: "make test\n" },
  handle(p, { services }) {
    const store = shimStore(services);
    const data = Buffer.from(p.text);
    if (p.more || p.upload !== undefined) {
      const r = store.piece({ upload: p.upload, name: p.name, append: p.append, data, more: p.more });
      return r.buffer ? bufferReply(r.buffer) : { type: "shim_buffer", upload: r.upload };
    }
    return bufferReply(store.set(p.name, data, p.append));
  },
});
