import { WsError } from "../protocol/errors";
import { UI_ACTIONS, isUiAction } from "./ui-actions";
import { defineMessage, ok } from "./types";

export default defineMessage({
  type: "run_command",
  since: 5,
  grant: "person",
  request: true,
  reply: "ok",
  summary: "Run a keymap command by its keys.toml name, as if its key had been pressed.",
  fields: { name: { type: "string", required: true, description: "The command: `new-tab`, `split-right`, … (ws keys --list lists them)" } },
  example: { v: 5, type: "run_command", name: "new-tab" },
  cli: { path: "command", args: ["name"], summary: "Run an interface command by name, as its key would (ws keys --list names them; sync-panes, last-pane, …)" },
  handle({ name }, { services }) {
    if (!isUiAction(name))
      throw new WsError(`no command "${name}" (have: ${UI_ACTIONS.map((c) => c.name).join(", ")}); ws keys --list lists them`, "unknown_command", { param: "name" });
    const run = services.get("runUiAction");
    if (!run) throw new WsError("this server has no interface to run commands in", "unsupported");
    run(name);
    return ok();
  },
});
