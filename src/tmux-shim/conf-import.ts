// ~/.tmux.conf → keys.toml: what `ws config import-tmux` writes. Each line is parsed by the shim's
// one tmux parser; what ws has an equivalent for becomes keys.toml (the prefix, key bindings, the
// settings keys.toml takes with tmux's names, the status line's colours), and every other line is
// listed with why it was left out. A binding to a tmux command ws runs is kept as that tmux line
// (keys.toml takes them); the common ones get ws's own command names.
import { parseKeyName } from "../ui/keymap-names";
import { defaultKeymap } from "../ui/keymap";
import { ESCAPE_TIME_MAX, SCROLLBACK_MAX } from "../protocol/terminal-defaults";
import { parseCommands } from "./parse";
import { findCommand } from "./cmd/index";
import { getopt, has, type Parsed } from "./getopt";
import { checkTmuxLine } from "./check-line";
import { statusColour } from "../ui/status-format";

export interface Imported {
  /** keys.toml's text. */
  toml: string;
  /** "LINE: TEXT: why", for each line left out. */
  skipped: string[];
  /** How many settings and key bindings were written. */
  settings: number;
  keys: number;
}

/** tmux commands bound to keys that are one of ws's named commands: the words after the command
 * name (flags as tmux writes them) → the name. */
const NAMED: Record<string, Record<string, string>> = {
  "split-window": { "-h": "split-right", "": "split-below", "-v": "split-below" },
  "select-pane": { "-L": "focus-left", "-R": "focus-right", "-U": "focus-up", "-D": "focus-down", "-l": "last-pane", "-t :.+": "focus-next" },
  "resize-pane": { "-L": "resize-left", "-R": "resize-right", "-U": "resize-up", "-D": "resize-down", "-Z": "zoom" },
  "swap-pane": { "-U": "swap-pane-up", "-D": "swap-pane-down" },
  "kill-pane": { "": "close-pane" },
  "kill-window": { "": "close-tab" },
  "new-window": { "": "new-tab" },
  "next-window": { "": "next-tab" },
  "previous-window": { "": "prev-tab" },
  "last-window": { "": "last-tab" },
  "last-pane": { "": "last-pane" },
  "copy-mode": { "": "copy-mode", "-u": "copy-mode" },
  "detach-client": { "": "detach" },
  "command-prompt": { "": "command-prompt" },
  "choose-tree": { "": "choose-tree", "-Z": "choose-tree", "-s": "choose-tree", "-w": "choose-tree", "-Zs": "choose-tree", "-Zw": "choose-tree" },
  "choose-session": { "": "choose-tree" },
  "choose-window": { "": "choose-tree" },
  "display-panes": { "": "display-panes" },
  "break-pane": { "": "break-pane" },
  "next-layout": { "": "next-layout" },
  "paste-buffer": { "": "paste" },
  "send-prefix": { "": "send-prefix" },
  "refresh-client": { "": "refresh-client" },
  "list-keys": { "": "help" },
};

/** The same split opened where the pane is: ws's splits always open in the pane's directory. */
const HERE = /^-c\s+#\{pane_current_path\}$/;

/** A word as tmux's parser reads it back: bare when it can be, else quoted. */
function tmuxWord(w: string): string {
  if (w === ";") return ";";
  if (/^[A-Za-z0-9_@%+=:,./-]+$/.test(w)) return w;
  if (!w.includes("'")) return `'${w}'`;
  return `"${w.replace(/[\\"$]/g, (c) => `\\${c}`)}"`;
}

/** A tmux colour as keys.toml's status-style takes it (the one parser, status-format.ts), or undefined. */
export function tmuxColour(c: string): string | undefined {
  return statusColour(c) === undefined ? undefined : c.toLowerCase();
}

const onOff = (v: string | undefined) => (v === "on" || v === "1" || v === "yes" ? "on" : v === "off" || v === "0" || v === "no" ? "off" : undefined);

/** TOML's basic string: JSON's escapes are TOML's. */
const str = (s: string) => JSON.stringify(s);

export function importTmuxConf(text: string, file: string, env: Record<string, string | undefined> = process.env): Imported {
  const settings = new Map<string, string>();
  const tables = { keys: new Map<string, string>(), root: new Map<string, string>() };
  const skipped: string[] = [];
  const style: { fg?: string; bg?: string } = {};
  const defaults = defaultKeymap().prefixTable;
  const lines = text.split("\n");
  let depth = 0;
  for (let i = 0; i < lines.length; i++) {
    const at = i + 1;
    let line = lines[i]!;
    // A line ending in a backslash goes on on the next, as tmux reads it.
    while (/\\$/.test(line) && i + 1 < lines.length) line = line.slice(0, -1) + lines[++i]!;
    const trimmed = line.trim();
    if (!trimmed || trimmed.startsWith("#")) continue;
    const skip = (why: string) => skipped.push(`${file}:${at}: ${trimmed.length > 60 ? `${trimmed.slice(0, 57)}...` : trimmed}: ${why}`);
    // A { } block (if-shell's, a bind's) or %if: tmux's own logic, left out whole.
    if (depth > 0 || /\{\s*$/.test(trimmed)) {
      if (depth === 0) skip("a { } block: ws reads no tmux logic");
      depth += (trimmed.match(/\{\s*$/) ? 1 : 0) - (/^\}/.test(trimmed) ? 1 : 0);
      continue;
    }
    let commands: string[][];
    try {
      commands = parseCommands(line, env);
    } catch (e) {
      skip(`not read (${(e as Error).message})`);
      continue;
    }
    for (const words of commands) {
      let name: string;
      let template = "";
      try {
        const entry = findCommand(words[0]!);
        name = entry.name;
        template = entry.template ?? "";
      } catch {
        skip(`${words[0]}: not a tmux command ws knows`);
        continue;
      }
      let p: Parsed;
      try {
        p = getopt(name, template, words.slice(1));
      } catch (e) {
        skip((e as Error).message);
        continue;
      }
      if (name === "set-option" || name === "set-window-option") {
        const why = setting(p, settings, style);
        if (why) skip(why);
      } else if (name === "bind-key") {
        const why = binding(p, tables, env);
        if (why) skip(why);
      } else if (name === "unbind-key") {
        const table = p.flags.get("T")?.at(-1) ?? (has(p, "n") ? "root" : "prefix");
        const key = p.args[0] !== undefined ? parseKeyName(p.args[0]) : null;
        if (has(p, "a")) skip("unbind -a: ws's own keys stay (bind each to \"none\" in [keys] to drop it)");
        else if (table === "prefix" && key && defaults.has(key)) tables.keys.set(key, "none");
        // tmux's own prefix, let go of before another is set: ws never had it.
        else if (key !== "C-b") skip(`ws binds nothing to ${p.args[0] ?? "that"} there`);
      } else skip(`${name}: ws has no keys.toml setting for it`);
    }
  }
  if (style.fg || style.bg) settings.set("status-style", str([style.fg && `fg=${style.fg}`, style.bg && `bg=${style.bg}`].filter(Boolean).join(",")));
  const out = [`# From ${file} by ws config import-tmux: the parts ws has an equivalent for (docs/keys.md).`];
  for (const [k, v] of settings) out.push(`${k} = ${v}`);
  for (const [table, map] of [["keys", tables.keys], ["root", tables.root]] as const) {
    if (!map.size) continue;
    out.push("", `[${table}]${table === "keys" ? "   # after the prefix" : "   # without the prefix"}`);
    for (const [k, v] of map) out.push(`${str(k)} = ${str(v)}`);
  }
  return { toml: `${out.join("\n")}\n`, skipped, settings: settings.size, keys: tables.keys.size + tables.root.size };
}

/** A set-option line into `settings` (keys.toml's name → its TOML value); the reason when not. */
function setting(p: Parsed, settings: Map<string, string>, style: { fg?: string; bg?: string }): string | undefined {
  const [option, value] = p.args;
  if (option === undefined) return "no option named";
  if (has(p, "u") || has(p, "U")) return `${option}: unsetting leaves ws's default`;
  if (has(p, "a")) return `${option}: appending is not kept`;
  const number = (max: number, min = 0) => (value !== undefined && /^\d+$/.test(value) && Number(value) >= min ? Math.min(Number(value), max) : undefined);
  switch (option) {
    case "prefix": {
      const key = value !== undefined ? parseKeyName(value) : null;
      if (!key) return `prefix ${value}: not a key ws knows`;
      settings.set("prefix", str(key));
      return;
    }
    case "mouse":
    case "renumber-windows":
    case "status":
    case "set-clipboard":
    case "set-titles": {
      const v = option === "set-clipboard" && value === "external" ? "on" : onOff(value);
      if (!v) return `${option} ${value}: ws takes on or off`;
      if (option === "mouse") settings.set("mouse", String(v === "on"));
      else if (option === "set-clipboard") settings.set("clipboard", str(v));
      else if (option === "set-titles") settings.set("titles", String(v === "on"));
      else settings.set(option, str(v));
      return;
    }
    case "mode-keys":
      if (value !== "vi" && value !== "emacs") return `mode-keys ${value}: vi or emacs`;
      settings.set("mode-keys", str(value));
      return;
    case "history-limit": {
      const n = number(SCROLLBACK_MAX);
      if (n === undefined) return `history-limit ${value}: not a number of lines`;
      settings.set("history-limit", String(n));
      if (Number(value) > SCROLLBACK_MAX) return `history-limit ${value}: ws keeps at most ${SCROLLBACK_MAX} lines; wrote that`;
      return;
    }
    case "escape-time": {
      const n = number(ESCAPE_TIME_MAX);
      if (n === undefined) return `escape-time ${value}: not a number of milliseconds`;
      settings.set("escape-time", String(n));
      return;
    }
    case "base-index": {
      const n = number(Number.MAX_SAFE_INTEGER);
      if (n === undefined || n > 9) return `base-index ${value}: ws numbers tabs from 0 to 9`;
      settings.set("base-index", String(n));
      return;
    }
    case "status-bg":
    case "status-fg": {
      const c = value !== undefined ? tmuxColour(value) : undefined;
      if (!c) return `${option} ${value}: not a colour ws knows`;
      style[option === "status-bg" ? "bg" : "fg"] = c;
      return;
    }
    case "status-style": {
      const left: string[] = [];
      for (const part of (value ?? "").split(/[,\s]+/).filter(Boolean)) {
        const m = /^(fg|bg)=(.+)$/.exec(part);
        const c = m ? tmuxColour(m[2]!) : undefined;
        if (m && c) style[m[1] as "fg" | "bg"] = c;
        else left.push(part);
      }
      return left.length ? `status-style: ${left.join(",")} left out (ws takes fg= and bg=)` : undefined;
    }
    default:
      return `${option}: ws has no such setting`;
  }
}

/** A bind-key line into [keys] or [root]; the reason when not. */
function binding(p: Parsed, tables: { keys: Map<string, string>; root: Map<string, string> }, env: Record<string, string | undefined>): string | undefined {
  const table = p.flags.get("T")?.at(-1) ?? (has(p, "n") ? "root" : "prefix");
  const [key, ...command] = p.args;
  if (table !== "prefix" && table !== "root") return `the ${table} table: ws's copy mode has vi's and emacs's keys built in (mode-keys picks)`;
  const name = key !== undefined ? parseKeyName(key) : null;
  if (!name) return `${key}: not a key ws knows`;
  if (!command.length) return "binds no command";
  const target = table === "root" ? tables.root : tables.keys;
  // The first command decides; `source-file ~/.tmux.conf \; display …` is ws's reload.
  const first = command.indexOf(";") < 0 ? command : command.slice(0, command.indexOf(";"));
  let entryName: string;
  try {
    entryName = findCommand(first[0]!).name;
  } catch {
    return `${first[0]}: not a tmux command ws knows`;
  }
  if (entryName === "source-file") {
    target.set(name, "reload-config");
    return;
  }
  if (first.length === command.length) {
    const rest = first.slice(1).join(" ").replace(/\s*-c\s+#\{pane_current_path\}/, "").trim();
    const named = NAMED[entryName]?.[rest] ?? (entryName === "split-window" && HERE.test(first.slice(1).join(" ")) ? "split-below" : undefined);
    if (named) {
      target.set(name, named);
      return;
    }
  }
  const line = command.map(tmuxWord).join(" ");
  const problem = checkTmuxLine(line, env);
  if (problem) return `${entryName}: ${problem}`;
  target.set(name, line);
  return;
}
