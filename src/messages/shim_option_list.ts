// shim_option_list: the options the tmux shim keeps, for show-options and the shim's own reads.
import { shimStore } from "./shim-fields";
import { defineMessage, replyTyped } from "./types";

export default defineMessage({
  type: "shim_option_list",
  since: 6,
  // The shim in an agent's pane (self) keeps tmux's server-wide buffers and options as in tmux;
  // they name no pane (a paste still needs pane_send's grant for its target).
  grant: "self",
  scope: "any",
  request: true,
  reply: "shim_options",
  summary: "The tmux options the shim keeps (set with shim_option_set), by name; tmux's defaults are the shim's own.",
  fields: {},
  replyFields: { options: replyTyped<Record<string, string>>()({ type: "object", description: "Each option set, name → value" }) },
  example: { v: 6, id: 1, type: "shim_option_list" },
  handle(_p, { services }) {
    return { type: "shim_options", options: shimStore(services).options() };
  },
});
