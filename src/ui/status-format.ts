// The status line's left and right parts, as keys.toml's `[status]` writes them (tmux's
// status-left/status-right, in a smaller language): text with `{name}` fields filled in per frame.

import { hostname } from "node:os";
import { controlChars } from "../safe-text";
import { pal, rgb } from "./grid";

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

const NAMED = ["black", "red", "green", "yellow", "blue", "magenta", "cyan", "white"];

/** A colour as tmux writes it (red, brightred, colour136, #ffaf00, default) for a grid cell;
 * null for "default" (the terminal's own), undefined when it isn't one. */
export function statusColour(name: string): number | null | undefined {
  const v = name.toLowerCase();
  if (v === "default" || v === "terminal") return null;
  if (NAMED.includes(v)) return pal(NAMED.indexOf(v));
  if (v.startsWith("bright") && NAMED.includes(v.slice(6))) return pal(8 + NAMED.indexOf(v.slice(6)));
  const n = /^colou?r(\d{1,3})$/.exec(v);
  if (n && Number(n[1]) <= 255) return pal(Number(n[1]));
  if (/^#[0-9a-f]{6}$/.test(v)) return rgb(Number.parseInt(v.slice(1), 16));
  return undefined;
}

/** keys.toml's status-style (tmux's): "fg=COLOUR,bg=COLOUR", for the tab bar and the status line. */
export function parseStatusStyle(text: string): { style: { fg?: number; bg?: number } } | { problem: string } {
  const style: { fg?: number; bg?: number } = {};
  for (const part of text.split(/[,\s]+/).filter(Boolean)) {
    const m = /^(fg|bg)=(.+)$/.exec(part);
    const c = m ? statusColour(m[2]!) : undefined;
    if (!m || c === undefined) return { problem: `${JSON.stringify(part)} is not fg=COLOUR or bg=COLOUR (a colour: red, brightred, colour0-255, #rrggbb, default)` };
    if (c !== null) style[m[1] as "fg" | "bg"] = c;
  }
  return { style };
}
