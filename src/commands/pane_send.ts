import { WsError } from "../protocol/errors";
import { defineMessage, ok } from "./types";

export default defineMessage({
  type: "pane_send",
  since: 2,
  grant: "self",
  request: true,
  reply: "ok",
  summary: "Type text into a pane as a paste, then press Enter if asked. To a program with bracketed paste on, the text goes between ESC[200~ and ESC[201~ with every control character but tab, CR and LF taken out (docs/security.md), so it can't end the paste early.",
  fields: {
    pane: { type: "integer", required: true, description: "The pane id" },
    text: { type: "string", required: true, description: "The text. May be empty" },
    enter: { type: "boolean", default: false, description: "Press Enter after the text" },
  },
  errors: ["pane_not_found", "pane_exited"],
  example: { v: 2, type: "pane_send", pane: 4, text: "cargo test", enter: true },
  cli: { path: "pane send", args: ["pane", "text"], defaults: { pane: "$WS_PANE_ID", text: "" }, oneOf: ["text", "enter"] },
  handle({ pane, text, enter }, { session, version }) {
    const p = session.pane(pane);
    // A kept pane whose program has exited takes no input: say so (v6; older lines were always ok).
    if (p.exited && (version ?? 0) >= 6) throw new WsError(`pane ${pane}'s program has exited; the text was not sent`, "pane_exited", { param: "pane", command: `ws pane respawn ${pane}` });
    if (text) p.paste(text);
    if (enter) p.write("\r");
    return ok();
  },
});
