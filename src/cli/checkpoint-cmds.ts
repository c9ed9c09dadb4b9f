// Commands aimed at a workstream that send one message: ws checkpoint save/list/diff/restore and ws
// fan status/compare. The message as the registry says, aimed at the workstream the one rule finds
// (features/workstreams/which.ts: the name given, $WS_WORKSTREAM, this directory, $WS_PANE_ID).
import { CliError, send, show } from "./common";
import { EXIT_USAGE } from "./exit-status";
import type { HandlerInput } from "./handlers";
import { viewText } from "./views";
import { whichFields, whichWorkstream } from "../features/workstreams/which";

export async function checkpoint({ command, fields }: HandlerInput): Promise<void> {
  const takesPane = command.message !== undefined && command.path.startsWith("checkpoint");
  const which = whichWorkstream(fields.name as string | undefined, { usePane: takesPane });
  if (!which) throw new CliError(`which workstream? ws ${command.path} ${command.path.startsWith("fan") ? "NAME" : "--name NAME"} (or run it inside one: $WS_WORKSTREAM, or a directory in its worktree)`, EXIT_USAGE, "usage");
  const { name: _, pane: __, ...rest } = fields;
  const reply = await send(command.message!, { ...rest, ...whichFields(which) }, command.send);
  show(reply, command.view ? viewText(command.view, reply, fields) : undefined);
}
