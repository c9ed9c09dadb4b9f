// Keymap: key names ↔ named commands, defaults a tmux user expects, and
// keys.toml overrides. COMMANDS is the one table of command names: the key
// dispatcher, `ws keys --list` and `run_command` all read it.

import { tomlProblem } from "../toml-problem";
import { FileReadError } from "../safe-file";
import { keysTomlPath, parseKeysToml, readKeysToml } from "../keys-toml";
import { type KeyEvent, parseMods, SHIFT, CONTROL, ALT, SUPER } from "../protocol/events";

// The command table lives in its own small module so the protocol registry (run_command) can
// use it without loading the keys.toml parser on every CLI call.
import { COMMANDS, isCommand, type CommandInfo } from "../commands/commands-table";
import { checkFormat, type StatusFormat } from "./status-format";
export { COMMANDS, isCommand, type CommandInfo };


export interface Keymap {
  /** Canonical key name of the prefix. */
  prefix: string;
  /** Keys after the prefix → command. */
  prefixTable: Map<string, string>;
  /** Keys without the prefix → command (empty by default). */
  root: Map<string, string>;
  /** Commands whose keys ask y/n first: by default every command marked `confirms`. */
  confirm: Set<string>;
  /** keys.toml `clipboard = "on"`: a program's OSC 52 reaches the user's terminal (tmux's set-clipboard). */
  clipboard?: boolean;
  /** keys.toml `titles = true`: the user's terminal's title follows the focused pane (tmux's set-titles). */
  titles?: boolean;
  /** keys.toml `[status]`: the status line's left and right parts (src/ui/status-format.ts). */
  status?: StatusFormat;
}

const CONFIRMABLE = COMMANDS.filter((c) => c.confirms).map((c) => c.name);

const DEFAULT_PREFIX_TABLE: [string, string][] = [
  ["d", "detach"], ["q", "quit"],
  ["%", "split-right"], ["|", "split-right"], ['"', "split-below"], ["-", "split-below"],
  ["c", "new-tab"], ["n", "next-tab"], ["p", "prev-tab"],
  ...Array.from({ length: 9 }, (_, i) => [String(i + 1), `tab-${i + 1}`] as [string, string]),
  ["Left", "focus-left"], ["Right", "focus-right"], ["Up", "focus-up"], ["Down", "focus-down"], ["o", "focus-next"],
  ["x", "close-pane"], ["z", "zoom"],
  ["C-Left", "resize-left"], ["C-Right", "resize-right"], ["C-Up", "resize-up"], ["C-Down", "resize-down"],
  ["H", "resize-left"], ["L", "resize-right"], ["K", "resize-up"], ["J", "resize-down"],
  ["N", "new-workspace"], ["w", "choose-tree"], ["s", "switch-workspace"], [")", "next-workspace"], ["(", "prev-workspace"],
  [",", "rename-tab"], ["$", "rename-workspace"], ["[", "copy-mode"], ["PageUp", "copy-mode"], ["?", "help"], ["a", "dashboard"], ["W", "new-workstream"],
  ["C-Space", "send-prefix"],
  [";", "last-pane"], ["l", "last-tab"], ["&", "close-tab"], ["]", "paste"], [":", "command-prompt"],
  ["S", "sync-panes"], ["r", "reload-config"], ["!", "next-blocked-agent"],
];

export function defaultKeymap(): Keymap {
  return { prefix: "C-Space", prefixTable: new Map(DEFAULT_PREFIX_TABLE), root: new Map(), confirm: new Set(CONFIRMABLE) };
}

// ---- key names -------------------------------------------------------------

const NAMED: Record<string, string> = {
  backspace: "Backspace", bspace: "Backspace", enter: "Enter", return: "Enter", left: "Left", right: "Right",
  up: "Up", down: "Down", home: "Home", end: "End", pageup: "PageUp", pgup: "PageUp", pagedown: "PageDown",
  pgdn: "PageDown", tab: "Tab", backtab: "BackTab", delete: "Delete", del: "Delete", insert: "Insert",
  ins: "Insert", esc: "Esc", escape: "Esc", space: "Space",
};

/** Canonical name of a key event: modifiers C- M- S- (S- only on non-characters), then the key. */
export function keyName(k: KeyEvent): string | null {
  const mods = parseMods(k.modifiers);
  let base: string;
  const code = k.code;
  if (typeof code === "string") base = code;
  else if ("Char" in code) base = code.Char === " " ? "Space" : code.Char;
  else if ("F" in code) base = `F${code.F}`;
  else return null;
  const isChar = typeof code === "object" && "Char" in code && code.Char !== " ";
  let p = "";
  if (mods & CONTROL) p += "C-";
  if (mods & ALT) p += "M-";
  if (mods & SUPER) p += "D-";
  if (mods & SHIFT && !isChar) p += "S-";
  // Ctrl + letter arrives lower-case; Ctrl-Shift-letter is the same key to most terminals.
  if (mods & CONTROL && isChar && base.length === 1) base = base.toLowerCase();
  return p + base;
}

/** Parse a user-written key ("C-Space", "ctrl+left", "M-x", "F5", "%") to its canonical name, or null. */
export function parseKeyName(s: string): string | null {
  let rest = s.trim();
  if (!rest) return null;
  let c = false, m = false, d = false, sh = false;
  for (;;) {
    const mm = /^(c|ctrl|control|m|a|alt|meta|s|shift|d|super|cmd)[-+](.+)$/i.exec(rest);
    if (!mm) break;
    const mod = mm[1]!.toLowerCase();
    if (mod === "c" || mod === "ctrl" || mod === "control") c = true;
    else if (mod === "m" || mod === "a" || mod === "alt" || mod === "meta") m = true;
    else if (mod === "d" || mod === "super" || mod === "cmd") d = true;
    else sh = true;
    rest = mm[2]!;
  }
  let base: string;
  let isChar = false;
  const named = NAMED[rest.toLowerCase()];
  const fk = /^f([0-9]{1,2})$/i.exec(rest);
  if (named) base = named;
  else if (fk && Number(fk[1]) >= 1 && Number(fk[1]) <= 24) base = `F${Number(fk[1])}`;
  else if ([...rest].length === 1) {
    base = rest;
    isChar = true;
    if (sh && base.length === 1 && base >= "a" && base <= "z") base = base.toUpperCase();
    if (c) base = base.toLowerCase();
  } else return null;
  let p = "";
  if (c) p += "C-";
  if (m) p += "M-";
  if (d) p += "D-";
  if (sh && !isChar) p += "S-";
  return p + base;
}

// ---- keys.toml -------------------------------------------------------------

export { keysTomlPath };

export interface LoadedKeymap {
  keymap: Keymap;
  /** Human-readable problems, each naming the file and line. Defaults stay in force for them. */
  warnings: string[];
}

function lineOf(text: string, key: string): number {
  const esc = key.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  // The line that sets this key: "key" =, 'key' =, key =, or a [key] table header.
  const re = new RegExp(`^\\s*(?:"${esc}"|'${esc}'|${esc}|\\[\\s*${esc}\\s*\\])\\s*(?:=|$)`);
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) if (re.test(lines[i]!)) return i + 1;
  for (let i = 0; i < lines.length; i++) if (lines[i]!.includes(key)) return i + 1;
  return 0;
}

/**
 * Apply keys.toml text to the defaults. Format:
 *
 *   prefix = "C-Space"
 *   confirm = false  # or ["quit"]: which keys ask y/n first (default: quit, close-pane)
 *   [keys]          # after the prefix
 *   "v" = "split-right"
 *   "d" = "none"    # unbind
 *   [root]          # without the prefix
 *   "M-Left" = "focus-left"
 */
export function applyKeysToml(text: string, file = "keys.toml", checkLine: LineCheck = checkWords): LoadedKeymap {
  const keymap = defaultKeymap();
  const warnings: string[] = [];
  let doc: Record<string, unknown>;
  try {
    doc = parseKeysToml(text);
  } catch (e) {
    warnings.push(`${tomlProblem(e, file)}; using the default keys`);
    return { keymap, warnings };
  }
  const where = (needle: string) => `${file}:${lineOf(text, needle)}`;
  for (const [k, v] of Object.entries(doc)) {
    if (k === "prefix") {
      const p = typeof v === "string" ? parseKeyName(v) : null;
      if (p) keymap.prefix = p;
      else warnings.push(`${where("prefix")}: prefix ${JSON.stringify(v)} is not a key name; keeping C-Space`);
    } else if (k === "confirm") {
      const names = v === true ? CONFIRMABLE : v === false ? [] : Array.isArray(v) ? v : undefined;
      const bad = names?.find((n) => !CONFIRMABLE.includes(n as string));
      if (!names || bad !== undefined)
        warnings.push(`${where("confirm")}: confirm must be true, false or a list of ${CONFIRMABLE.map((n) => JSON.stringify(n)).join(", ")}${bad !== undefined ? ` (not ${JSON.stringify(bad)})` : ""}; keeping the default`);
      else keymap.confirm = new Set(names as string[]);
    } else if (k === "keys" || k === "root") {
      if (!v || typeof v !== "object" || Array.isArray(v)) {
        warnings.push(`${where(k)}: [${k}] must be a table of "key" = "command"`);
        continue;
      }
      const table = k === "keys" ? keymap.prefixTable : keymap.root;
      for (const [key, cmd] of Object.entries(v as Record<string, unknown>)) {
        const name = parseKeyName(key);
        if (!name) {
          warnings.push(`${where(key)}: ${JSON.stringify(key)} is not a key name (try "C-a", "M-Left", "F5", "%")`);
          continue;
        }
        if (cmd === "none" || cmd === "") {
          table.delete(name);
          continue;
        }
        // A command name, or any ws command line with its arguments ("split --right --size 40%").
        const wrong = typeof cmd !== "string" ? "must be text" : isCommand(cmd) ? undefined : checkLine(cmd);
        const problem = wrong && `is not a command name nor a ws command line: ${wrong}`;
        if (problem !== undefined) {
          warnings.push(`${where(key)}: ${JSON.stringify(cmd)} ${problem} (ws keys --list lists the command names; ws --help the command lines)`);
          continue;
        }
        table.set(name, (cmd as string).trim());
      }
    } else if (k === "clipboard") {
      // tmux's set-clipboard words; "external" is tmux's "on" without programs reading it back.
      const on = v === "on" || v === "external" || v === true ? true : v === "off" || v === false ? false : undefined;
      if (on === undefined) warnings.push(`${where(k)}: clipboard must be "on" or "off"`);
      else keymap.clipboard = on;
    } else if (k === "titles") {
      if (typeof v !== "boolean") warnings.push(`${where(k)}: titles must be true or false`);
      else keymap.titles = v;
    } else if (k === "status") {
      if (!v || typeof v !== "object" || Array.isArray(v)) {
        warnings.push(`${where(k)}: [status] must be a table of left = "…" and right = "…"`);
        continue;
      }
      const status: StatusFormat = {};
      for (const [part, text] of Object.entries(v as Record<string, unknown>)) {
        const problem = typeof text !== "string" ? "must be text" : checkFormat(text);
        if (part !== "left" && part !== "right") warnings.push(`${where(part)}: [status] has left and right, not ${JSON.stringify(part)}`);
        else if (problem) warnings.push(`${where(part)}: status ${part} ${problem}; keeping the default`);
        else status[part] = text as string;
      }
      keymap.status = status;
    } else if (k === "tmux_shim") {
      // Read by the server when it starts (src/tmux-shim/server.ts).
      if (typeof v !== "boolean") warnings.push(`${where(k)}: tmux_shim must be true or false`);
    } else {
      warnings.push(`${where(k)}: unknown setting ${JSON.stringify(k)} (expected prefix, confirm, clipboard, titles, tmux_shim, [keys], [root] or [status])`);
    }
  }
  return { keymap, warnings };
}

/** What is wrong with a bound command line (undefined: nothing). The server checks it against the
 * CLI's command table (src/ui/command-line.ts); without the table, only its words are checked. */
export type LineCheck = (line: string) => string | undefined;
function checkWords(line: string): string | undefined {
  return /^[a-z][a-z-]*(\s|$)/.test(line.trim()) ? undefined : "not a word";
}

/** Read keys.toml if there is one. Called at server start and by ws config reload, not on a hot path. */
export function loadKeymap(env: Record<string, string | undefined> = process.env, checkLine?: LineCheck): LoadedKeymap {
  const path = keysTomlPath(env);
  let text: string;
  try {
    text = readKeysToml(env);
  } catch (e) {
    const missing = e instanceof FileReadError && e.code === "ENOENT";
    return { keymap: defaultKeymap(), warnings: missing ? [] : [`${(e as Error).message}: the default keys are used`] };
  }
  return applyKeysToml(text, path, checkLine);
}

/** The keys bound to a command, as "prefix X" or "X" for root bindings. */
export function bindingsFor(km: Keymap, command: string, prefixLabel = km.prefix): string[] {
  const out: string[] = [];
  for (const [k, c] of km.prefixTable) if (c === command) out.push(`${prefixLabel} ${k}`);
  for (const [k, c] of km.root) if (c === command) out.push(k);
  return out;
}

/** Lines for `ws keys --list` and the help overlay. */
export function describeKeymap(km: Keymap, prefixLabel = km.prefix): string[] {
  const w = Math.max(...COMMANDS.map((c) => c.name.length));
  const keys = COMMANDS.map((c) => bindingsFor(km, c.name, prefixLabel).join(", ") || "(unbound)");
  const kw = Math.max(...keys.map((k) => k.length));
  const asks = (name: string) => (km.confirm.has(name) ? " (asks y/n first)" : "");
  const lines = COMMANDS.map((c, i) => `${c.name.padEnd(w)}  ${keys[i]!.padEnd(kw)}  ${c.description}${asks(c.name)}`);
  // Keys bound to command lines (keys.toml "v" = "split --right --size 40%").
  for (const [table, label] of [[km.prefixTable, `${prefixLabel} `], [km.root, ""]] as const)
    for (const [k, c] of table) if (!isCommand(c)) lines.push(`${"(command line)".padEnd(w)}  ${(label + k).padEnd(kw)}  ws ${c}`);
  return lines;
}
