// keys.toml → the keymap: the keys after the prefix and without it, which ask y/n first, and the
// settings (clipboard, titles, [status], tmux_shim). Every problem is a warning naming the file and
// line; the defaults stay in force for it. Reading the file is src/keys-toml.ts's.
import { tomlProblem } from "../toml-problem";
import { FileReadError } from "../safe-file";
import { keysTomlPath, parseKeysToml, readKeysToml } from "../keys-toml";
import { isCommand } from "../commands/commands-table";
import { CONFIRMABLE, defaultKeymap, type Keymap } from "./keymap";
import { parseKeyName } from "./keymap-names";
import { checkFormat, type StatusFormat } from "./status-format";

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
    } else if (k === "tmux_shim" || k === "box" || k === "box_agents") {
      // Read by the server when it starts (src/tmux-shim/server.ts, src/model/box.ts).
      if (typeof v !== "boolean") warnings.push(`${where(k)}: ${k} must be true or false`);
    } else {
      warnings.push(`${where(k)}: unknown setting ${JSON.stringify(k)} (expected prefix, confirm, clipboard, titles, tmux_shim, box, box_agents, [keys], [root] or [status])`);
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
