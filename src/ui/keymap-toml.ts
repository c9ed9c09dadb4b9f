// keys.toml → the keymap: the keys after the prefix and without it, which ask y/n first, and the
// settings (clipboard, titles, [status], tmux_shim). Every problem is a warning naming the file and
// line; the defaults stay in force for it. Reading the file is src/keys-toml.ts's.
import { GRANT_LEVELS, isGrantLevel } from "../protocol/grants";
import { tomlProblem } from "../toml-problem";
import { FileReadError } from "../safe-file";
import { keysTomlPath, parseKeysToml, readKeysToml } from "../keys-toml";
import { readPushConfig } from "../features/push/config";
import { isUiAction } from "../messages/ui-actions";
import { UI_ACTIONS, CONFIRMABLE, defaultKeymap, type Keymap } from "./keymap";
import { closest } from "../protocol/errors";
import { ESCAPE_TIME_MAX, SCROLLBACK_MAX } from "../protocol/terminal-defaults";
import { parseKeyName } from "./keymap-names";
import { checkFormat, parseStatusStyle, type StatusFormat } from "./status-format";

/** The settings keys.toml takes, with tmux's names where tmux has the setting. */
const SETTINGS = ["prefix", "confirm", "clipboard", "titles", "mouse", "base-index", "mode-keys", "history-limit", "escape-time", "renumber-windows", "status", "status-style", "tmux_shim", "box", "box_agents", "grants", "push"];

/** Command lines that answer approvals: bound only after the prefix. */
const ANSWERS_APPROVALS = /^\s*(approve|deny)\b|\bapproval_answer\b/;

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
/** keys.toml as a table; a line that isn't TOML is a warning and the rest is read, so one mistake
 * never resets the prefix or any other setting. */
function parseLeniently(text: string, file: string, warnings: string[]): Record<string, unknown> {
  try {
    return parseKeysToml(text);
  } catch {}
  // Line by line, each under its table's header, placed on its own line number for the message.
  const doc: Record<string, unknown> = {};
  let header: string | undefined;
  let table: string | undefined;
  text.split("\n").forEach((line, i) => {
    const trimmed = line.trim();
    if (!trimmed || trimmed.startsWith("#")) return;
    const h = /^\[\s*([A-Za-z0-9_-]+)\s*\]\s*(#.*)?$/.exec(trimmed);
    if (h) {
      header = trimmed;
      table = h[1]!;
      if (typeof doc[table] !== "object") doc[table] = {};
      return;
    }
    try {
      const one = parseKeysToml(header ? `${header}${"\n".repeat(i)}${line}` : `${"\n".repeat(i)}${line}`);
      if (table) Object.assign(doc[table] as object, one[table] as object);
      else Object.assign(doc, one);
    } catch (e) {
      warnings.push(`${tomlProblem(e, file)}; that line is skipped`);
    }
  });
  return doc;
}

/** An on/off setting as tmux writes it ("on", "off") or as TOML does (true, false). */
const onOff = (v: unknown) => (v === true || v === "on" ? true : v === false || v === "off" ? false : undefined);

export function applyKeysToml(text: string, file = "keys.toml", checkLine: LineCheck = checkWords): LoadedKeymap {
  const keymap = defaultKeymap();
  const warnings: string[] = [];
  const doc = parseLeniently(text, file, warnings);
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
        const wrong = typeof cmd !== "string" ? "must be text" : isUiAction(cmd) ? undefined : checkLine(cmd);
        if (wrong !== undefined) {
          // One word close to a command's name is a typo of it ("zoomm").
          const near = typeof cmd === "string" && /^[a-z0-9-]+$/.test(cmd.trim()) ? closest(cmd.trim(), UI_ACTIONS.map((c) => c.name)) : undefined;
          const hint = near !== undefined ? `did you mean "${near}"? ` : "";
          warnings.push(`${where(key)}: ${JSON.stringify(cmd)} is not a command name nor a ws or tmux command line: ${wrong} (${hint}ws keys --list lists the command names; ws --help the command lines)`);
          continue;
        }
        // A key without the prefix is one a pane's program can get the person to press (its own
        // "Continue? [y/N]"): it may not answer an approval.
        if (k === "root" && ANSWERS_APPROVALS.test(cmd as string)) {
          warnings.push(`${where(key)}: ${JSON.stringify(cmd)}: a key without the prefix can't approve or deny; bind it under [keys] (after the prefix)`);
          continue;
        }
        table.set(name, (cmd as string).trim());
      }
    } else if (k === "clipboard") {
      // tmux's set-clipboard words; "external" is tmux's "on" without programs reading it back.
      const on = v === "on" || v === "external" || v === true ? true : v === "off" || v === false ? false : undefined;
      if (on === undefined) warnings.push(`${where(k)}: clipboard must be "on" or "off"`);
      else keymap.clipboard = on;
    } else if (k === "mouse") {
      const on = onOff(v);
      if (on === undefined) warnings.push(`${where(k)}: mouse must be true or false ("on" or "off")`);
      else keymap.mouse = on;
    } else if (k === "base-index") {
      if (!Number.isInteger(v) || (v as number) < 0 || (v as number) > 9) warnings.push(`${where(k)}: base-index must be a number from 0 to 9 (the first tab's number)`);
      else keymap.baseIndex = v as number;
    } else if (k === "mode-keys") {
      if (v !== "vi" && v !== "emacs") warnings.push(`${where(k)}: mode-keys must be "vi" or "emacs"`);
      else keymap.modeKeys = v;
    } else if (k === "history-limit") {
      if (!Number.isInteger(v) || (v as number) < 0 || (v as number) > SCROLLBACK_MAX) warnings.push(`${where(k)}: history-limit must be a number of lines from 0 to ${SCROLLBACK_MAX}`);
      else keymap.historyLimit = v as number;
    } else if (k === "escape-time") {
      if (!Number.isInteger(v) || (v as number) < 0 || (v as number) > ESCAPE_TIME_MAX) warnings.push(`${where(k)}: escape-time must be milliseconds from 0 to ${ESCAPE_TIME_MAX}`);
      else keymap.escapeTime = v as number;
    } else if (k === "renumber-windows") {
      const on = onOff(v);
      if (on === undefined) warnings.push(`${where(k)}: renumber-windows must be "on" or "off"`);
      else keymap.renumberWindows = on;
    } else if (k === "status" && (typeof v !== "object" || v === null)) {
      const on = onOff(v);
      if (on === undefined) warnings.push(`${where(k)}: status must be "on" or "off" ([status] sets its left and right parts)`);
      else keymap.statusLine = on;
    } else if (k === "status-style") {
      const parsed = typeof v === "string" ? parseStatusStyle(v) : { problem: "must be text" };
      if ("problem" in parsed) warnings.push(`${where(k)}: status-style ${parsed.problem}`);
      else keymap.statusStyle = parsed.style;
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
    } else if (k === "grants") {
      // Read by the server when it starts (server/daemon.ts): the grants of panes the person opens.
      if (!isGrantLevel(v)) warnings.push(`${where(k)}: grants must be one of ${GRANT_LEVELS.map((g) => JSON.stringify(g)).join(", ")}; panes keep control`);
    } else if (k === "push") {
      // Read by the server when it starts (src/features/push/feature.ts).
      for (const p of readPushConfig(v).problems) warnings.push(`${where(k)}: ${p}`);
    } else if (k === "tmux_shim" || k === "box" || k === "box_agents") {
      // Read by the server when it starts (src/tmux-shim/server.ts, src/model/box.ts).
      if (typeof v !== "boolean") warnings.push(`${where(k)}: ${k} must be true or false`);
    } else {
      const near = closest(k, SETTINGS);
      warnings.push(`${where(k)}: unknown setting ${JSON.stringify(k)}${near !== undefined ? ` (did you mean ${JSON.stringify(near)}?)` : ""} (expected ${SETTINGS.join(", ")}, [keys], [root] or [status])`);
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
