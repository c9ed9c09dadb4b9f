// ws run: the command's output on stdout and its exit status as ws's own, as if it ran here; ws
// popup --wait likewise.
import { printError, send, show } from "./common";
import { popupStatus } from "../tmux-shim/popup-status";
import type { HandlerInput } from "./handlers";

export async function run({ fields }: HandlerInput): Promise<void> {
  const reply = await send("run", fields);
  const output = String(reply.output ?? "");
  // print adds the newline the output's last line already has.
  show(reply, output.endsWith("\n") ? output.slice(0, -1) : output);
  if (reply.truncated) printError("ws: the output's start is missing (it scrolled out of the pane's history)");
  const code = reply.exit_code;
  process.exitCode = typeof code === "number" ? code : 1;
}

/** ws popup: prints the popup's pane; with --wait, returns when it closes and exits with its
 * program's status, as the shim's display-popup does. */
export async function popup({ fields }: HandlerInput): Promise<void> {
  const reply = await send("popup", fields);
  show(reply, String(reply.pane));
  if (fields.wait === true) process.exitCode = popupStatus(reply.exit_code, reply.signal);
}
