import { WsError } from "../protocol/errors";
import { defineMessage } from "./types";
import { ATTACH_FIELDS } from "../protocol/attach-fields";

export default defineMessage({
  type: "attach",
  since: 1,
  grant: "person",
  request: false,
  summary: "A terminal client attaching. After this line the connection carries the attach stream.",
  fields: ATTACH_FIELDS,
  example: { v: 1, type: "attach", cols: 120, rows: 40 },
  handle(p, ctx) {
    const attach = ctx.services.get("attach");
    if (!attach) throw new WsError("this server has no attach support", "unsupported");
    // Sharing is v6's: at v1–v5 an attach replaces the client, as the spec has it.
    attach({ ...p, share: (ctx.version ?? 1) >= 6 && p.share === true }, ctx.connection);
  },
});
