// Agent commands beyond single messages: ws hooks install|uninstall, ws agent send (its pane
// default), and ws report when it comes through the CLI (src/main.ts runs `ws report` on a fast
// path before the CLI loads).
import { CliError, globals, print, printResult, send, show } from "./common";
import { EXIT_USAGE } from "./exit-status";
import { viewText } from "./views";
import type { HandlerInput } from "./handlers";

export async function hooks({ fields }: HandlerInput): Promise<void> {
  const action = fields.action as "install" | "uninstall";
  const { runHooks, TARGETS, HooksError } = await import("../features/agents/hooks-install");
  const targets = fields.target ? [String(fields.target)] : action === "uninstall" ? TARGETS : [];
  if (!targets.length) throw new CliError(`which agent? ws hooks ${action} ${TARGETS.join("|")}`, EXIT_USAGE, "usage");
  const file = fields.file as string | undefined;
  for (const t of targets) {
    if (file && targets.length > 1) throw new CliError("--file needs one agent", EXIT_USAGE, "usage");
    try {
      const said = runHooks({ action, target: t as "claude" | "codex", dryRun: !!fields.dry_run, file });
      if (globals.json) printResult("hooks", { action, target: t, dry_run: !!fields.dry_run, said });
      else print(said);
    } catch (e) {
      if (e instanceof HooksError) throw new CliError(`${t}: ${e.message}`);
      throw e;
    }
  }
}

export async function report({ words }: HandlerInput): Promise<void> {
  await (await import("./report")).main(words);
}

/** ws agent send: `--to` names the agent itself, from anywhere; without it the text goes to the
 * agent in the tab of `--pane`, the asking pane, which inside a pane defaults to it (hooks). */
export async function agentSend({ command, fields }: HandlerInput): Promise<void> {
  const f = { ...fields };
  if (f.to === undefined && f.pane === undefined) {
    // With -H this pane is not the remote server's.
    const id = globals.hosts ? undefined : process.env.WS_PANE_ID;
    if (!id || !/^\d+$/.test(id)) throw new CliError("which agent? --to PANE|@TAB|TAB-NAME|WORKSTREAM names it (inside a pane, without --to: the agent in its tab)", EXIT_USAGE, "usage");
    f.pane = Number(id);
  }
  const reply = await send(command.message!, f, command.send);
  show(reply, viewText(command.view ?? "agentSent", reply, f));
}
