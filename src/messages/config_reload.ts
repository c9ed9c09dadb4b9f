// config_reload: read keys.toml again in the running server (keys, prefix, confirm, clipboard,
// titles, the status line), without a restart and without losing the attached client.
import { WsError } from "../protocol/errors";
import { defineMessage } from "./types";

export default defineMessage({
  type: "config_reload",
  since: 6,
  grant: "person",
  request: true,
  reply: "config_reloaded",
  summary:
    "Read keys.toml again: the new keys, prefix and status line take effect at once for the attached client; and agents.toml (the agents ws tells by their screen). Workstream templates need no reload: they are read each time one is used. A mistake in the file keeps the defaults for that line, as at start.",
  fields: {},
  replyFields: { warnings: { type: "string[]", description: "Problems found in keys.toml and agents.toml, each naming its line (empty when none)" } },
  errors: ["unsupported"],
  example: { v: 6, id: 1, type: "config_reload" },
  cli: { path: "config reload", view: "configReloaded", status: "warnings" },
  handle(_p, { services }) {
    const reload = services.get("ui")?.reloadConfig;
    if (!reload) throw new WsError("this server has no interface to configure", "unsupported");
    // agents.toml too: the agents ws tells by their screen.
    const agents = services.get("agents")?.screens?.reload() ?? [];
    return { type: "config_reloaded", warnings: [...reload(), ...agents] };
  },
});
