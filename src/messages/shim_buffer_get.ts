// shim_buffer_get: a paste buffer's text for the tmux shim's show-buffer and paste-buffer, in
// pieces of at most SHIM_READ_PIECE bytes, each read from the same version of the buffer.
import { BUFFER_REPLY_FIELDS, shimStore } from "./shim-fields";
import { defineMessage } from "./types";

/** The most text one reply carries, in bytes (UTF-8; its JSON stays well inside a reply line). */
export const SHIM_READ_PIECE = 4 * 1024 * 1024;

/** Where a piece from `start` ends: at most SHIM_READ_PIECE bytes on, never inside a character. */
function pieceEnd(data: Uint8Array, start: number): number {
  let end = Math.min(data.length, start + SHIM_READ_PIECE);
  while (end < data.length && end > start && (data[end]! & 0xc0) === 0x80) end--;
  return end;
}

export default defineMessage({
  type: "shim_buffer_get",
  since: 6,
  // The shim in an agent's pane (self) keeps tmux's server-wide buffers and options as in tmux;
  // they name no pane (a paste still needs pane_send's grant for its target).
  grant: "self",
  scope: "any",
  request: true,
  reply: "shim_buffer_text",
  summary:
    "A tmux shim paste buffer's text (show-buffer, paste-buffer): the named one or the newest, from byte `offset`, at most 4 MiB a reply; `next` is the offset of the rest (null: that was the end). Send the reply's `id` with the next piece's request, so every piece comes from the same version.",
  fields: {
    name: { type: "string", description: "The buffer (-b). Default: the newest" },
    id: { type: "integer", min: 1, description: "Only this version of the buffer (the first piece's `id`): buffer_not_found if it changed since" },
    offset: { type: "integer", default: 0, min: 0, description: "The byte to start at (a character's first byte)" },
  },
  replyFields: {
    ...BUFFER_REPLY_FIELDS,
    text: { type: "string", description: "The text from `offset`" },
    next: { type: "integer|null", description: "Where the rest starts; null: no more" },
  },
  errors: ["buffer_not_found", "invalid_params"],
  example: { v: 6, id: 1, type: "shim_buffer_get", name: "slime" },
  handle(p, { services }) {
    const b = shimStore(services).find(p.name, p.id);
    const start = Math.min(p.offset, b.data.length);
    const end = pieceEnd(b.data, start);
    return {
      type: "shim_buffer_text",
      name: b.name,
      id: b.id,
      bytes: b.data.length,
      automatic: b.automatic,
      text: Buffer.from(b.data.subarray(start, end)).toString("utf8"),
      next: end < b.data.length ? end : null,
    };
  },
});
