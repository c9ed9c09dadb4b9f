// The scripting CLI: one citty command tree; subcommands live in small modules by area.
import { defineCommand, runCommand, showUsage, type CommandDef } from "citty";
import { WS_VERSION, BUILD } from "../build-info";
import { CliError, printError, setGlobals, takeGlobals } from "./common";

type Lazy = () => Promise<CommandDef<any>>;
/** A subcommand loaded only when it is the one being run: each CLI call pays for one area. */
function lazy<M>(load: () => Promise<M>, name: keyof M): Lazy {
  return () => load().then((m) => m[name] as CommandDef<any>);
}
const serverCmds = () => import("./server-cmds");
const modelCmds = () => import("./model-cmds");
const agentCmds = () => import("./agent-cmds");
const attachCmds = () => import("./attach-cmds");
const sessionCmds = () => import("./session-cmds");
const apiCmds = () => import("./api-cmds");

const SUBCOMMANDS: Record<string, Lazy> = {
  start: lazy(serverCmds, "start"),
  server: lazy(serverCmds, "server"),
  "kill-server": lazy(serverCmds, "killServer"),
  doctor: lazy(serverCmds, "doctor"),
  workspace: lazy(modelCmds, "workspace"),
  tab: lazy(modelCmds, "tab"),
  split: lazy(modelCmds, "split"),
  pane: lazy(modelCmds, "pane"),
  agent: lazy(agentCmds, "agent"),
  hooks: lazy(agentCmds, "hooksCmd"),
  dashboard: lazy(agentCmds, "dashboard"),
  report: lazy(agentCmds, "report"),
  attach: lazy(attachCmds, "attach"),
  keys: lazy(attachCmds, "keys"),
  session: lazy(sessionCmds, "session"),
  restart: lazy(sessionCmds, "restart"),
  api: lazy(apiCmds, "api"),
  call: lazy(apiCmds, "call"),
  wait: lazy(apiCmds, "waitCmd"),
  events: lazy(apiCmds, "events"),
};

/** Further subcommands other areas add (attach, keys, report, hooks, …). */
export const extraCommands: Record<string, CommandDef<any>> = {};

export async function runCli(argv: string[]): Promise<void> {
  const { globals, rest } = takeGlobals(argv);
  setGlobals(globals);
  if (rest.length === 0) {
    // Bare `ws` (or `ws --local`, `ws -L NAME`): attach, starting the server if none runs.
    try {
      return await (await attachCmds()).defaultAttach();
    } catch (e) {
      printError(`ws: ${(e as Error).message}`);
      process.exit(e instanceof CliError ? e.exitCode : 1);
    }
  }
  const main = defineCommand({
    meta: { name: "ws", version: `${WS_VERSION} (${BUILD})`, description: "A terminal multiplexer for running many coding agents side by side. Global flags: -L NAME (named server), --local, --json" },
    subCommands: { ...SUBCOMMANDS, ...extraCommands },
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
    const subs = (await (typeof cur.subCommands === "function" ? cur.subCommands() : cur.subCommands)) as Record<string, CommandDef<any> | Lazy> | undefined;
    const sub = subs?.[w];
    if (!sub) break;
    parent = cur;
    cur = typeof sub === "function" ? await sub() : sub;
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
      printError(`ws: ${e.message}`);
      process.exit(e.exitCode);
    }
    // citty's own errors (unknown command, missing argument) come with the usage that explains them.
    if ((e as { code?: string }).code?.startsWith("E_")) {
      await showUsage(...(await resolveSub(main, words)));
      printError(`ws: ${(e as Error).message}`);
      process.exit(2);
    }
    printError(`ws: ${(e as Error)?.message ?? String(e)}`);
    if (process.env.WS_DEBUG) console.error(e);
    process.exit(1);
  }
}
