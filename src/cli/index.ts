// The scripting CLI: one citty command tree; subcommands live in small modules by area.
import { defineCommand, runMain, type CommandDef } from "citty";
import { WS_VERSION, BUILD } from "../build-info";
import { CliError, setGlobals, takeGlobals } from "./common";
import { doctor, killServer, server, start } from "./server-cmds";
import { pane, split, tab, workspace } from "./model-cmds";
import { agent, dashboard, hooksCmd, report } from "./agent-cmds";
import { attach, keys, defaultAttach } from "./attach-cmds";
import { restart, session } from "./session-cmds";
import { api, call, events, waitCmd } from "./api-cmds";

/** Further subcommands other areas add (attach, keys, report, hooks, …). */
export const extraCommands: Record<string, CommandDef<any>> = {};

export async function runCli(argv: string[]): Promise<void> {
  const { globals, rest } = takeGlobals(argv);
  setGlobals(globals);
  if (rest.length === 0) {
    // Bare `ws` (or `ws --local`, `ws -L NAME`): attach, starting the server if none runs.
    try {
      return await defaultAttach();
    } catch (e) {
      console.error(`ws: ${(e as Error).message}`);
      process.exit(e instanceof CliError ? e.exitCode : 1);
    }
  }
  const main = defineCommand({
    meta: { name: "ws", version: `${WS_VERSION} (${BUILD})`, description: "A terminal multiplexer for running many coding agents side by side. Global flags: -L NAME (named server), --local, --json" },
    subCommands: { start, server, "kill-server": killServer, doctor, workspace, tab, split, pane, agent, hooks: hooksCmd, dashboard, report, attach, keys, session, restart, api, call, wait: waitCmd, events, ...extraCommands },
  });
  try {
    await runMain(main, { rawArgs: rest });
  } catch (e) {
    console.error(`ws: ${(e as Error).message}`);
    process.exit(e instanceof CliError ? e.exitCode : 1);
  }
}
