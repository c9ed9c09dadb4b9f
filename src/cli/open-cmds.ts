// ws open path[:line[:col]]: a relative path is made absolute against this directory (the server
// can't know it), then open_file shows it in the workstream's Neovim.
import { resolve } from "node:path";
import { CliError, send, show } from "./common";
import { EXIT_USAGE } from "./exit-status";
import type { HandlerInput } from "./handlers";
import { whichWorkstream } from "../features/workstreams/which";
import { formatLocation, parseLocation } from "../features/nvim/location";

export async function open({ command, fields }: HandlerInput): Promise<void> {
  const loc = parseLocation(String(fields.location));
  // The workstream by the one rule (which.ts); its tab's Neovim, else the pane's tab's.
  const which = whichWorkstream(fields.name as string | undefined, { usePane: false });
  const name = which && "name" in which ? { name: which.name } : {};
  const here = process.env.WS_PANE_ID;
  const pane = fields.pane === undefined && here && /^\d+$/.test(here) ? { pane: Number(here) } : {};
  if (fields.pane === undefined && !("pane" in pane) && !("name" in name)) throw new CliError("which pane? give --pane N (or run this inside a ws pane or a workstream's worktree)", EXIT_USAGE, "usage");
  const reply = await send(command.message!, { ...fields, ...pane, ...name, location: formatLocation({ ...loc, path: resolve(loc.path) }) });
  show(reply, `pane ${reply.pane}`);
}
