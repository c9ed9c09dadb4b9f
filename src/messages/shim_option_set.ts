// shim_option_set: the tmux shim's set-option / set-window-option, as one change in the daemon.
import { SHIM_OPTION_VALUE_MAX } from "../features/shim-store";
import { WsError } from "../protocol/errors";
import { shimStore } from "./shim-fields";
import { defineMessage } from "./types";

/** Options that choose what the panes later shim calls start run (any pane's): below control a
 * pane could make another pane's tmux tool run its program. */
const STARTS_PROGRAMS = new Set(["default-shell", "default-command", "remain-on-exit"]);

export default defineMessage({
  type: "shim_option_set",
  since: 6,
  // The shim in an agent's pane (self) keeps tmux's server-wide buffers and options as in tmux;
  // they name no pane (a paste still needs pane_send's grant for its target).
  grant: "self",
  scope: "any",
  request: true,
  reply: "shim_option",
  summary:
    "Set a tmux option the shim keeps (set-option -g, user @options) in one step: `set`, `append` (-a), `if_unset` (-o), `toggle` (an on/off option given no value; `value` is its default) or `unset` (-u). `default-shell`, `default-command` and `remain-on-exit` (which change what later shim calls start in any pane) need control grants.",
  fields: {
    name: { type: "string", required: true, description: "The option" },
    value: { type: "string", default: "", description: `The value (at most ${SHIM_OPTION_VALUE_MAX} characters); for toggle, the option's default` },
    mode: { type: "string", default: "set", accepted: ["set", "append", "if_unset", "toggle", "unset"], description: "How the value is set" },
  },
  replyFields: {
    name: { type: "string", description: "The option" },
    value: { type: "string|null", description: "Its value now (null: unset)" },
    changed: { type: "boolean", description: "Whether this changed it" },
  },
  errors: ["limit_exceeded", "invalid_params", "forbidden"],
  example: { v: 6, id: 1, type: "shim_option_set", name: "@status", value: "ready" },
  handle(p, { services, callerPane, connection }) {
    if (STARTS_PROGRAMS.has(p.name) && callerPane !== undefined && services.get("grants")?.connectionLevel(connection, callerPane) !== "control")
      throw new WsError(`${p.name} changes what every pane's tmux calls start: only a pane with control grants (or the person) sets it`, "forbidden", { param: "name", command: "ws pane grants" });
    const r = shimStore(services).setOption(p.name, p.mode as "set", p.value);
    return { type: "shim_option", name: p.name, value: r.value ?? null, changed: r.changed };
  },
});
