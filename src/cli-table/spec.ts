// The shape of the CLI's command table: every command, from a registry message or the CLI's own,
// with its arguments and flags. Built at build time (table.ts, through src/cli/message-table.ts's
// macro), so a CLI call parses, helps and refuses without loading the registry or any command's code.
import type { RunName, ViewName } from "../messages/cli-names";

/** "object": JSON read from the file the argument names (`-`: stdin). "map": an object of strings,
 * given as a repeatable `--flag NAME=VALUE`. */
export type ParamType = "string" | "integer" | "boolean" | "string[]" | "integer[]" | "object" | "map";

/** One positional argument or flag, and the field (or handler option) it sets. */
export interface Param {
  field: string;
  /** The flag's name without dashes ("below"); absent for a positional argument. */
  flag?: string;
  type: ParamType;
  description: string;
  /** Must be given (no CLI default stands in for it). */
  required?: boolean;
  /** The CLI's default: "$WS_PANE_ID", "$PWD" or a value. */
  default?: unknown;
  /** A switch: the flag sets `field` to this constant. */
  value?: unknown;
  /** The values it accepts, for help (the server checks them). */
  accepted?: readonly string[];
  /** A last positional string[] that takes every remaining word, one element each (`KEYS...`). */
  many?: boolean;
  /** The CLI's own flag: never sent to the server (`--status-ok`). */
  local?: boolean;
  /** A string[] flag given once per value, gathered in order (no splitting at commas). */
  repeat?: boolean;
  /** A value ending in % sets this field instead, as a number (`--size 40%`: percent=40). */
  percentField?: string;
}

export interface Command {
  /** The command words, e.g. "pane send". */
  path: string;
  summary: string;
  /** The message it sends, when it is one. */
  message?: string;
  /** That message's version and kind, so a call needs no message table. */
  send?: MessageInfo;
  params: Param[];
  /** The field that takes the words after `--`. */
  rest?: { field: string; description: string };
  /** Fields the command sets itself. */
  fixed?: Record<string, unknown>;
  /** At least one of these fields must be given on the command line. */
  oneOf?: string[];
  /** How to print the reply for people (views.ts). */
  view?: ViewName;
  /** The handler that runs it (handlers.ts), when it does more than send and print. */
  run?: RunName;
  /** The handler parses its own words; the table serves help (ws report: a hook never fails on its arguments). */
  ownArgs?: boolean;
  /** What the exit status says (src/messages/types.ts MessageCli.status). */
  status?: "exit_code" | "found" | "warnings";
}

/** What the message table holds of each message, for `send` and `ws call`. */
export interface MessageInfo {
  since: number;
  longRunning: boolean;
  stream: boolean;
}

/** The default standing for "the pane this runs in" and for "the caller's directory". */
export const PANE_DEFAULT = "$WS_PANE_ID";
export const CWD_DEFAULT = "$PWD";
