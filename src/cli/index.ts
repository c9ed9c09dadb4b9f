// The scripting CLI: one citty command tree; subcommands live in small modules by area.
import { defineCommand, runCommand, showUsage, type CommandDef } from "citty";
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
  await runWithoutStacks(main, rest);
}

/** The command a line of words names, and its parent, for `--help` at any depth. */
async function resolveSub(cmd: CommandDef<any>, words: string[]): Promise<[CommandDef<any>, CommandDef<any> | undefined]> {
  let cur = cmd;
  let parent: CommandDef<any> | undefined;
  for (const w of words) {
    if (w === "--") break;
    if (w.startsWith("-")) continue;
    const subs = (await (typeof cur.subCommands === "function" ? cur.subCommands() : cur.subCommands)) as Record<string, CommandDef<any>> | undefined;
    if (!subs?.[w]) break;
    parent = cur;
    cur = subs[w]!;
  }
  return [cur, parent];
}

/**
 * citty's runMain prints any error with its stack; a person typing `ws pane read 99` should see
 * one line with the server's message and get a non-zero exit status.
 */
async function runWithoutStacks(main: CommandDef<any>, rawArgs: string[]): Promise<void> {
  const words = rawArgs.slice(0, rawArgs.includes("--") ? rawArgs.indexOf("--") : undefined);
  if (words.includes("--help") || words.includes("-h")) {
    await showUsage(...(await resolveSub(main, words)));
    process.exit(0);
  }
  if (rawArgs.length === 1 && (rawArgs[0] === "--version" || rawArgs[0] === "-v")) {
    console.log(`${WS_VERSION} (${BUILD})`);
    return;
  }
  try {
    await runCommand(main, { rawArgs });
  } catch (e) {
    if (e instanceof CliError) {
      console.error(`ws: ${e.message}`);
      process.exit(e.exitCode);
    }
    // citty's own errors (unknown command, missing argument) come with the usage that explains them.
    if ((e as { code?: string }).code?.startsWith("E_")) {
      await showUsage(...(await resolveSub(main, words)));
      console.error(`ws: ${(e as Error).message}`);
      process.exit(2);
    }
    console.error(`ws: ${(e as Error)?.message ?? String(e)}`);
    if (process.env.WS_DEBUG) console.error(e);
    process.exit(1);
  }
}
