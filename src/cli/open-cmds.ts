// ws open path[:line[:col]]: a relative path is made absolute against this directory (the server
// can't know it), then open_file shows it in the workstream's Neovim.
import { resolve } from "node:path";
import { send, show } from "./common";
import type { HandlerInput } from "./handlers";
import { formatLocation, parseLocation } from "../features/nvim/location";

export async function open({ command, fields }: HandlerInput): Promise<void> {
  const loc = parseLocation(String(fields.location));
  const reply = await send(command.message!, { ...fields, location: formatLocation({ ...loc, path: resolve(loc.path) }) });
  show(reply, `pane ${reply.pane}`);
}
