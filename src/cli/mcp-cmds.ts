// ws mcp (the MCP server, src/mcp/server.ts) and ws mcp install|uninstall (src/mcp/install.ts).
import { WS_VERSION } from "../build-info";
import type { GrantLevel } from "../protocol/grants";
import { CliError, globals, print, printResult, sock } from "./common";
import { EXIT_USAGE } from "./exit-status";
import type { HandlerInput } from "./handlers";

export async function mcp({ fields }: HandlerInput): Promise<void> {
  if (globals.hosts) throw new CliError("ws mcp serves this machine's ws only (run it on HOST instead of with -H)", EXIT_USAGE, "usage");
  // One of GRANT_LEVELS: the table's `accepted` (src/cli-table/parse.ts) refused any other.
  const grants = (fields.grants ?? "control") as GrantLevel;
  const { serveMcp } = await import("../mcp/server");
  await serveMcp({ socket: sock(), ceiling: grants, version: WS_VERSION });
}

export async function mcpInstall({ fields }: HandlerInput): Promise<void> {
  const { runMcpInstall } = await import("../mcp/install");
  const { selfCommand } = await import("../features/agents/hooks-install");
  const { SettingsError } = await import("../features/agents/settings-file");
  const action = fields.action as "install" | "uninstall";
  const target = fields.target as "claude" | "codex" | "gemini";
  try {
    const said = runMcpInstall({ action, target, dryRun: !!fields.dry_run, ...(fields.file ? { file: String(fields.file) } : {}), ws: selfCommand() });
    if (globals.json) printResult("mcp", { action, target, dry_run: !!fields.dry_run, said });
    else print(said);
  } catch (e) {
    if (e instanceof SettingsError) throw new CliError(`${target}: ${e.message}`);
    throw e;
  }
}
