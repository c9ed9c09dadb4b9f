// The status line's left and right parts, as keys.toml's `[status]` writes them (tmux's
// status-left/status-right, in a smaller language): text with `{name}` fields filled in per frame.

import { hostname } from "node:os";
import { controlChars } from "../safe-text";

/** The fields a format may name, each with what it shows (for docs and mistakes). */
export const STATUS_FIELDS: Record<string, string> = {
  workspace: "the current workspace's name",
  tab: "the current tab's name",
  tab_index: "the current tab's number and how many there are (2/3)",
  pane: "the focused pane's id",
  agents: "the agents that need you (the dashboard's summary)",
  time: "the time, HH:MM",
  host: "this machine's name",
  prefix: "the prefix key (C-Space)",
  sync: "SYNC while the tab's panes are synchronized",
};

export interface StatusFormat {
  left?: string;
  right?: string;
}

/** The default parts: what ws always showed, with the help hint naming the real prefix. */
export const DEFAULT_LEFT = "[{workspace}] tab {tab_index}  pane {pane}";
export const DEFAULT_RIGHT = "{prefix} ? help";

/** A format's mistakes: an unknown `{field}`, or an unclosed brace. */
export function checkFormat(text: string): string | undefined {
  for (const m of text.matchAll(/\{([^}]*)\}?/g)) {
    if (!m[0].endsWith("}")) return `unclosed "{" in ${JSON.stringify(text)}`;
    if (!(m[1]! in STATUS_FIELDS)) return `unknown field {${m[1]}} (have ${Object.keys(STATUS_FIELDS).map((f) => `{${f}}`).join(", ")})`;
  }
  return undefined;
}

/** Fill a checked format from `values`; a field with no value shows nothing. Control characters
 * in a value (a tab named by a program) never reach the terminal. */
export function renderFormat(text: string, values: Record<string, string | undefined>): string {
  return text.replace(/\{([a-z_]+)\}/g, (_, f: string) => (values[f] ?? "").replace(controlChars(), ""));
}

export const usesTime = (f: StatusFormat) => !!(f.left?.includes("{time}") || f.right?.includes("{time}"));

let host: string | undefined;
export function hostName(): string {
  return (host ??= hostname().split(".")[0] ?? "");
}

export function clock(now = new Date()): string {
  return `${String(now.getHours()).padStart(2, "0")}:${String(now.getMinutes()).padStart(2, "0")}`;
}
