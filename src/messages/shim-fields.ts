// What the tmux shim's buffer messages share: their reply's shape.
import type { ShimBuffer, ShimStore } from "../features/shim-store";
import type { Services } from "../features/services";
import { WsError } from "../protocol/errors";
import type { ReplyFields } from "./types";

/** The daemon's shim store (every daemon has one; a build without it answers unsupported). */
export function shimStore(services: Services): ShimStore {
  const store = services.get("shim");
  if (!store) throw new WsError("this server keeps no tmux shim buffers or options", "unsupported");
  return store;
}

export const BUFFER_REPLY_FIELDS = {
  name: { type: "string", description: "The buffer's name" },
  id: { type: "integer", description: "This version of it (it changes with every change of the buffer)" },
  bytes: { type: "integer", description: "Its text's size in bytes (UTF-8)" },
  automatic: { type: "boolean", description: "Whether ws named it (bufferN) rather than the caller" },
} as const satisfies ReplyFields;

export const bufferReply = <T extends string = "shim_buffer">(b: ShimBuffer, type = "shim_buffer" as T) => ({ type, name: b.name, id: b.id, bytes: b.data.length, automatic: b.automatic });
