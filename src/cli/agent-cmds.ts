// Agent commands beyond single messages: ws hooks install|uninstall, and ws report when it comes
// through the CLI (src/main.ts runs `ws report` on a fast path before the CLI loads).
import { CliError, print } from "./common";
import type { HandlerInput } from "./handlers";

export async function hooks({ fields }: HandlerInput): Promise<void> {
  const action = fields.action as "install" | "uninstall";
  const { runHooks, TARGETS, HooksError } = await import("../features/agents/hooks-install");
  const targets = fields.target ? [String(fields.target)] : action === "uninstall" ? TARGETS : [];
  if (!targets.length) throw new CliError(`which agent? ws hooks ${action} ${TARGETS.join("|")}`);
  const file = fields.file as string | undefined;
  for (const t of targets) {
    if (!(TARGETS as string[]).includes(t)) throw new CliError(`unknown agent "${t}" (have: ${TARGETS.join(", ")})`);
    if (file && targets.length > 1) throw new CliError("--file needs one agent");
    try {
      print(runHooks({ action, target: t as "claude" | "codex", dryRun: !!fields.dry_run, file }));
    } catch (e) {
      if (e instanceof HooksError) throw new CliError(`${t}: ${e.message}`);
      throw e;
    }
  }
}

export async function report({ words }: HandlerInput): Promise<void> {
  await (await import("../features/agents/report")).main(words);
}
