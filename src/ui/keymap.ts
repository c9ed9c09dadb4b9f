// Keymap: keys ↔ named actions or command lines, the defaults a tmux user expects, and the lines `ws keys --list`
// and the help overlay show. Key names are ui/keymap-names.ts's; keys.toml is read by
// ui/keymap-toml.ts. UI_ACTIONS is the one table of action names: the key dispatcher,
// `ws keys --list` and `run_command` all read it.

// The action table lives in its own small module so the protocol registry (run_command) can
// use it without loading the keys.toml parser on every CLI call.
import { UI_ACTIONS, isUiAction, type UiAction } from "../messages/ui-actions";
import type { StatusFormat } from "./status-format";
export { UI_ACTIONS, isUiAction, type UiAction };

export interface Keymap {
  /** Canonical key name of the prefix. */
  prefix: string;
  /** Keys after the prefix → an action's name or a command line. */
  prefixTable: Map<string, string>;
  /** Keys without the prefix → an action's name or a command line (empty by default). */
  root: Map<string, string>;
  /** Actions whose keys ask y/n first: by default every action marked `confirms`. */
  confirm: Set<string>;
  /** keys.toml `clipboard = "on"`: a program's OSC 52 reaches the user's terminal (tmux's set-clipboard). */
  clipboard?: boolean;
  /** keys.toml `titles = true`: the user's terminal's title follows the focused pane (tmux's set-titles). */
  titles?: boolean;
  /** keys.toml `mouse = false`, or `set -g mouse off`: ws asks the terminal for no mouse reports,
   * leaving drags to its own selection (tmux's mouse option; on by default in ws). */
  mouse?: boolean;
  /** keys.toml `mode-keys` (tmux's): "vi" or "emacs"; copy mode takes both sets where they don't clash. */
  modeKeys?: "vi" | "emacs";
  /** keys.toml `history-limit`: lines of history new panes keep. */
  historyLimit?: number;
  /** keys.toml `escape-time`: how long (ms) a lone Esc waits for the rest of a sequence, at the attach client. */
  escapeTime?: number;
  /** keys.toml `base-index`: the first tab's number (prefix 0-9, the tab bar); 1 by default. */
  baseIndex?: number;
  /** keys.toml `status = "off"` (tmux's status): no tab bar nor status line; panes take the rows. */
  statusLine?: boolean;
  /** keys.toml `status-style` (tmux's): the bars' colours, as grid colours. */
  statusStyle?: { fg?: number; bg?: number };
  /** keys.toml `renumber-windows = "off"` (tmux's): a tab keeps the number it got. */
  renumberWindows?: boolean;
  /** keys.toml `[status]`: the status line's left and right parts (src/ui/status-format.ts). */
  status?: StatusFormat;
}

export const CONFIRMABLE = UI_ACTIONS.filter((c) => c.confirms).map((c) => c.name);

const DEFAULT_PREFIX_TABLE: [string, string][] = [
  // Quitting the server is on a key no tmux habit presses (tmux leaves Q unbound), and always asks.
  ["d", "detach"], ["Q", "quit"], ["q", "display-panes"],
  ["%", "split-right"], ["|", "split-right"], ['"', "split-below"], ["-", "split-below"],
  ["c", "new-tab"], ["n", "next-tab"], ["p", "prev-tab"],
  ...Array.from({ length: 10 }, (_, i) => [String(i), `tab-${i}`] as [string, string]),
  ["Left", "focus-left"], ["Right", "focus-right"], ["Up", "focus-up"], ["Down", "focus-down"], ["o", "focus-next"],
  ["x", "close-pane"], ["z", "zoom"],
  ["C-Left", "resize-left"], ["C-Right", "resize-right"], ["C-Up", "resize-up"], ["C-Down", "resize-down"],
  ["H", "resize-left"], ["L", "resize-right"], ["K", "resize-up"], ["J", "resize-down"],
  ["N", "new-workspace"], ["w", "choose-tree"], ["s", "switch-workspace"], [")", "next-workspace"], ["(", "prev-workspace"],
  [",", "rename-tab"], ["$", "rename-workspace"], ["[", "copy-mode"], ["PageUp", "copy-mode"], ["?", "help"], ["a", "dashboard"], ["W", "new-workstream"],
  ["C-Space", "send-prefix"],
  [";", "last-pane"], ["l", "last-tab"], ["&", "close-tab"], ["]", "paste"], [":", "command-prompt"],
  ["S", "sync-panes"], ["r", "reload-config"], ["R", "refresh-client"], ["g", "next-blocked-agent"],
  ["{", "swap-pane-up"], ["}", "swap-pane-down"], ["Space", "next-layout"], ["!", "break-pane"],
];

/** Whether a command's key asks y/n first: keys.toml's confirm, and quit always (one key must
 * never end every pane). */
export const asksFirst = (km: Keymap, name: string) => km.confirm.has(name) || name === "quit";

export function defaultKeymap(): Keymap {
  return { prefix: "C-Space", prefixTable: new Map(DEFAULT_PREFIX_TABLE), root: new Map(), confirm: new Set(CONFIRMABLE) };
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
  const w = Math.max(...UI_ACTIONS.map((c) => c.name.length));
  const keys = UI_ACTIONS.map((c) => bindingsFor(km, c.name, prefixLabel).join(", ") || "(unbound)");
  const kw = Math.max(...keys.map((k) => k.length));
  const asks = (name: string) => (asksFirst(km, name) ? " (asks y/n first)" : "");
  const lines = UI_ACTIONS.map((c, i) => `${c.name.padEnd(w)}  ${keys[i]!.padEnd(kw)}  ${c.description}${asks(c.name)}`);
  // Keys bound to command lines (keys.toml "v" = "split --right --size 40%").
  for (const [table, label] of [[km.prefixTable, `${prefixLabel} `], [km.root, ""]] as const)
    for (const [k, c] of table) if (!isUiAction(c)) lines.push(`${"(command line)".padEnd(w)}  ${(label + k).padEnd(kw)}  ws ${c}`);
  return lines;
}
