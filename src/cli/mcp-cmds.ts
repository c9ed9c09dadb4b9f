// ws mcp (the MCP server, src/mcp/server.ts) and ws mcp install|uninstall (src/mcp/install.ts).
import { WS_VERSION } from "../build-info";
import { GRANT_LEVELS, isGrantLevel } from "../protocol/grants";
import { CliError, globals, print, printResult, sock } from "./common";
import { EXIT_USAGE } from "./exit-status";
import type { HandlerInput } from "./handlers";

export async function mcp({ fields }: HandlerInput): Promise<void> {
  if (globals.hosts) throw new CliError("ws mcp serves this machine's ws only (run it on HOST instead of with -H)", EXIT_USAGE, "usage");
  const grants = fields.grants ?? "control";
  if (!isGrantLevel(grants)) throw new CliError(`--grants must be one of ${GRANT_LEVELS.join(", ")}`, EXIT_USAGE, "usage");
  const { serveMcp } = await import("../mcp/server");
  await serveMcp({ socket: sock(), ceiling: grants, version: WS_VERSION });
}

export async function mcpInstall({ fields }: HandlerInput): Promise<void> {
  const { runMcpInstall, MCP_TARGETS } = await import("../mcp/install");
  const { selfCommand } = await import("../features/agents/hooks-install");
  const { SettingsError } = await import("../features/agents/settings-file");
  const action = fields.action as "install" | "uninstall";
  const target = fields.target as "claude" | "codex" | "gemini";
  if (!(MCP_TARGETS as readonly unknown[]).includes(target))
    throw new CliError(`unknown agent ${JSON.stringify(String(target ?? ""))} (have: ${MCP_TARGETS.join(", ")})`, EXIT_USAGE, "usage");
  try {
    const said = runMcpInstall({ action, target, dryRun: !!fields.dry_run, ...(fields.file ? { file: String(fields.file) } : {}), ws: selfCommand() });
    if (globals.json) printResult("mcp", { action, target, dry_run: !!fields.dry_run, said });
    else print(said);
  } catch (e) {
    if (e instanceof SettingsError) throw new CliError(`${target}: ${e.message}`);
    throw e;
  }
}
