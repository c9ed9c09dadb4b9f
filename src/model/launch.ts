// Starting a pane's program: the environment it inherits, what runs, where, and the checks that
// refuse a program that could not start before anything changes.
import { homedir } from "node:os";
import { existsSync, statSync } from "node:fs";
import { WsError } from "../protocol/errors";
import { PANE_TERM } from "../protocol/terminal-defaults";
import type { GrantLevel } from "../protocol/grants";
import { envProblem } from "./env-vars";
import { fileLimit, ONE_REAPER_ENV, resourceExhausted } from "./fd-limit";
import type { BoxRequest } from "./box";

export interface NewPaneOptions {
  argv?: string[];
  cwd?: string;
  /** Extra environment for this pane (a request's `env`, WS_WORKSTREAM); ws's own variables win. */
  env?: Record<string, string>;
  /** The pane stays after its program exits. */
  keep?: boolean;
  /** The grants it starts with (a template's agent pane: self); default: the person's. */
  grants?: GrantLevel;
  preface?: string;
  /** Refuse a `cwd` that is not a directory (a request's) rather than start in $HOME (the UI's
   * focused pane's directory may have gone; a saved one may be from another machine). */
  strictCwd?: boolean;
  /** Run the program in a box (src/model/box.ts); false: not boxed whatever keys.toml's `box`
   * says; undefined: as keys.toml's `box` says. */
  box?: BoxRequest | false;
  /** A template's resume command for its agent, or false (saved with the pane; persistence reads it). */
  resume?: string[] | false;
}

/** Environment variables that belong to the server process or a parent ws, never to a pane. */
const NOT_INHERITED = [...Object.keys(ONE_REAPER_ENV), "BUN_BE_BUN", "WS_TEST_FAULTS", "WS_HOP_TRACE", "WS_SOCKET", "WS_PANE_KEY", "WS_PANE_ID", "WS_WORKSPACE", "WS_WORKSTREAM", "TMUX", "TMUX_PANE"];

export function paneBaseEnv(env: Record<string, string | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) if (v !== undefined && !NOT_INHERITED.includes(k)) out[k] = v;
  out.TERM = PANE_TERM;
  out.COLORTERM = "truecolor";
  out.TERM_PROGRAM = "ws";
  return out;
}

/** What runs: the command asked for, else the user's shell. */
export function programOf(o: NewPaneOptions, baseEnv: Record<string, string>): string[] {
  return o.argv?.length ? o.argv : [baseEnv.SHELL || "/bin/sh"];
}

/** Refuse, before anything changes, a pane that could not start: a NUL where the system takes
 * none, a `cwd` that is not a directory (with `strictCwd`), a program not on the pane's PATH.
 * `at` prefixes the field names in errors (a layout tree's leaf). */
export function checkLaunch(o: NewPaneOptions, baseEnv: Record<string, string>, at?: string): void {
  const field = (f: string) => (at ? `${at}.${f}` : f);
  const argv = programOf(o, baseEnv);
  if (argv.some((a) => a.includes("\0"))) throw new WsError(`\`${field("command")}\` holds a NUL character`, "invalid_params", { param: field("command") });
  const badEnv = o.env !== undefined ? envProblem(o.env, field("env")) : undefined;
  if (badEnv) throw new WsError(badEnv, "invalid_params", { param: field("env") });
  if (o.cwd?.includes("\0")) throw new WsError(`\`${field("cwd")}\` holds a NUL character`, "invalid_params", { param: field("cwd") });
  if (o.strictCwd && o.cwd !== undefined && !isDirectory(o.cwd))
    throw new WsError(`can't start in ${JSON.stringify(o.cwd)}: ${existsSync(o.cwd) ? "not a directory" : "no such directory"}`, "cwd_not_found", { param: field("cwd") });
  const program = argv[0]!;
  const PATH = o.env?.PATH ?? baseEnv.PATH ?? process.env.PATH ?? "";
  if (!which(program, PATH, usableDir(o.cwd)))
    throw new WsError(`can't run ${JSON.stringify(program)}: ${program.includes("/") ? "no executable file there" : "not found on PATH"}`, "program_not_found", { param: field("command") });
}

/** Bun.which, except that a name it can't look up (it throws for one over PATH_MAX) is not found. */
function which(program: string, PATH: string, cwd: string): string | null {
  try {
    return Bun.which(program, { PATH, cwd });
  } catch {
    return null;
  }
}

function isDirectory(dir: string): boolean {
  try {
    return statSync(dir).isDirectory();
  } catch {
    return false;
  }
}

/** A spawn that failed after the checks (a race, or a limit of the system), as the error to answer. */
export function startError(program: string, e: unknown): WsError {
  if (e instanceof WsError) return e;
  const err = e as NodeJS.ErrnoException | undefined;
  const why = err?.message ?? String(e);
  if (err?.code === "EMFILE" || err?.code === "ENFILE" || err?.code === "EAGAIN") return resourceExhausted(fileLimit(), `the system refused: ${why}`);
  if (err?.code === "ERR_INVALID_ARG_VALUE") return new WsError(`can't start ${JSON.stringify(program)}: ${why}`, "invalid_params");
  if (err?.code === "ENOENT" || err?.code === "EACCES" || err?.code === "ENOEXEC") return new WsError(`can't run ${JSON.stringify(program)}: ${why}`, "program_not_found", { param: "command" });
  return new WsError(`can't start ${JSON.stringify(program)}: ${why}`, "spawn_failed", { param: "command" });
}

/** A cwd the program can start in: the one asked for when it is a directory, else $HOME. */
export function usableDir(dir: string | undefined): string {
  if (dir && isDirectory(dir)) return dir;
  return existsSync(homedir()) ? homedir() : "/";
}
