// pane_send_keys: keys by tmux's names, encoded for the program's current modes (application
// cursor keys, keypad, kitty keyboard flags) by the encoder the attach UI uses too (src/model/key-encoder.ts), and written as keys,
// never as a paste.
import { WsError } from "../protocol/errors";
import { keysToBytes } from "../model/key-encoder";
import { KEY_MODIFIERS, KEY_NAMES } from "../protocol/key-names";
import { defineMessage, ok } from "./types";

/** Keys one request may send. */
export const MAX_KEYS = 10_000;

export default defineMessage({
  type: "pane_send_keys",
  since: 6,
  grant: "self",
  request: true,
  reply: "ok",
  summary:
    "Press keys in a pane by tmux's key names (Escape, C-c, Up, …), encoded as the pane's program expects them in its current modes (application cursor keys, keypad, the kitty keyboard protocol's flags 1 and 8 when it pushed them), as tmux send-keys does. A string that is not a key name is typed as text. Nothing is sent as a paste.",
  fields: {
    pane: { type: "integer", required: true, description: "The pane id" },
    keys: {
      type: "string[]",
      required: true,
      description: `The keys, in order (at most ${MAX_KEYS}). Names, ignoring case: ${KEY_NAMES.join(" ")}; any one character; each with modifier prefixes ${Object.keys(KEY_MODIFIERS).join(" ")} (C-M-x, ^x for C-x, S-Tab). Anything else is typed as it is`,
    },
    literal: { type: "boolean", default: false, description: "Type every string as text, names included (tmux send-keys -l)" },
  },
  errors: ["pane_not_found", "pane_exited"],
  example: { v: 6, id: 1, type: "pane_send_keys", pane: 3, keys: ["Escape", ":wq", "Enter"] },
  cli: {
    path: "pane keys",
    summary: "Press keys in a pane by name (Escape, C-c, Up, Enter…); other words are typed as text",
    args: ["pane", "keys..."],
    switches: { l: { field: "literal", value: true, description: "Type every word as text, names included" } },
    defaults: { pane: "$WS_PANE_ID" },
  },
  handle({ pane, keys, literal }, { session }) {
    if (keys.length > MAX_KEYS) throw new WsError(`${keys.length} keys in one request; at most ${MAX_KEYS}`, "invalid_params", { param: "keys" });
    const p = session.pane(pane);
    if (p.exited) throw new WsError(`pane ${pane}'s program has exited`, "pane_exited", { param: "pane" });
    const bytes = keysToBytes(keys, p.emulator.modes, literal);
    if (bytes) p.write(bytes);
    return ok();
  },
});
