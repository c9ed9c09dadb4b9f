// ws checkpoint save/list/diff/restore: the message as the registry says, aimed at the workstream
// named, else the one this runs in ($WS_WORKSTREAM, else the tab of $WS_PANE_ID).
import { CliError, send, show } from "./common";
import type { HandlerInput } from "./handlers";
import { VIEWS } from "./views";

export async function checkpoint({ command, fields }: HandlerInput): Promise<void> {
  const paneEnv = process.env.WS_PANE_ID;
  const name = (fields.name as string | undefined) ?? (process.env.WS_WORKSTREAM || undefined);
  const pane = name === undefined && paneEnv && /^\d+$/.test(paneEnv) ? Number(paneEnv) : undefined;
  if (name === undefined && pane === undefined) throw new CliError(`which workstream? ws ${command.path} --name NAME (or run it inside one)`);
  const { name: _, pane: __, ...rest } = fields;
  const reply = await send(command.message!, { ...rest, ...(name !== undefined ? { name } : { pane }) }, command.send);
  show(reply, command.view ? VIEWS[command.view]!(reply, fields) : undefined);
}
