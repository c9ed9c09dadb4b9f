// ws config import-tmux [FILE]: keys.toml from a tmux.conf (src/tmux-shim/conf-import.ts), written
// where ws reads it (never over one that is there without asking or --force), or printed.
import { existsSync, mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { keysTomlPath } from "../keys-toml";
import { FileReadError, readTextFile } from "../safe-file";
import { writeAtomicSync } from "../write-atomic";
import { CliError, print, printError } from "./common";
import type { HandlerInput } from "./handlers";

/** The most of a tmux.conf read (a real one is a few KiB). */
const TMUX_CONF_MAX = 1024 * 1024;

/** Where tmux reads its configuration: ~/.tmux.conf, else $XDG_CONFIG_HOME/tmux/tmux.conf. */
export function tmuxConfPath(env: Record<string, string | undefined> = process.env): string | undefined {
  const home = env.HOME;
  const candidates = [home && join(home, ".tmux.conf"), join(env.XDG_CONFIG_HOME || (home ? join(home, ".config") : ""), "tmux", "tmux.conf")];
  return candidates.find((p): p is string => !!p && existsSync(p));
}

/** y/n on the terminal; false without one. */
async function askYes(question: string): Promise<boolean> {
  if (!process.stdin.isTTY) return false;
  process.stderr.write(`${question} [y/N] `);
  for await (const line of console) return /^y(es)?$/i.test(line.trim());
  return false;
}

export async function importTmux({ fields }: HandlerInput): Promise<void> {
  const file = (fields.file as string | undefined) || tmuxConfPath();
  if (!file) throw new CliError(`no tmux configuration found (~/.tmux.conf or $XDG_CONFIG_HOME/tmux/tmux.conf); name one: ws config import-tmux FILE`, 1, "not_found");
  let text: string;
  try {
    text = readTextFile(file, TMUX_CONF_MAX);
  } catch (e) {
    throw new CliError(e instanceof FileReadError ? `can't read ${file}: ${e.message}` : String(e), 1, "not_found");
  }
  const { importTmuxConf } = await import("../tmux-shim/conf-import");
  const result = importTmuxConf(text, file);
  const report = () => {
    printError(`ws: ${result.settings} settings and ${result.keys} key bindings from ${file}`);
    if (result.skipped.length) printError(`ws: left out (no ws equivalent):\n${result.skipped.map((s) => `  ${s}`).join("\n")}`);
  };
  if (fields.print === true) {
    print(result.toml.trimEnd());
    return report();
  }
  const target = keysTomlPath();
  if (existsSync(target) && fields.force !== true && !(await askYes(`ws: ${target} exists; replace it?`)))
    throw new CliError(`${target} exists and was left as it is: --force replaces it, --print prints what would be written`, 1, "exists");
  mkdirSync(dirname(target), { recursive: true, mode: 0o700 });
  writeAtomicSync(target, result.toml);
  report();
  printError(`ws: wrote ${target}; a running server reads it with ws config reload (or prefix r)`);
}
