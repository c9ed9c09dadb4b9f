// tmux words typed out of habit (`ws new-window`, `ws attach -t work`): the refusal points at the
// ws command that does it. Called only where a command line is refused (src/cli-table/parse.ts).

const TMUX_HABITS: Record<string, string> = {
  "new-window": "ws tab new [--name NAME] [-- CMD…]",
  neww: "ws tab new [--name NAME] [-- CMD…]",
  "new-session": "ws workspace new NAME (or ws start for a server)",
  "split-window": "ws split [PANE] --right|--below [-- CMD…]",
  splitw: "ws split [PANE] --right|--below [-- CMD…]",
  "send-keys": "ws pane keys PANE KEY… (text as a paste: ws pane send PANE TEXT)",
  send: "ws pane keys PANE KEY… (text as a paste: ws pane send PANE TEXT)",
  "capture-pane": "ws pane read PANE [--lines N]",
  capturep: "ws pane read PANE [--lines N]",
  ls: "ws workspace list",
  "list-sessions": "ws workspace list",
  "list-windows": "ws tab list",
  lsw: "ws tab list",
  "list-panes": "ws pane list",
  lsp: "ws pane list",
  "kill-session": "ws workspace close NAME (ws kill-server ends everything)",
  "kill-window": "ws tab close TAB",
  killw: "ws tab close TAB",
  "kill-pane": "ws pane close PANE",
  killp: "ws pane close PANE",
  "select-pane": "ws pane focus PANE",
  selectp: "ws pane focus PANE",
  "select-window": "ws workspace focus NAME, or prefix 1…9 for a tab",
  "rename-window": "ws tab rename TAB NAME",
  "rename-session": "ws workspace rename NAME NEW",
  "resize-pane": "ws pane resize PANE …",
  "swap-pane": "ws pane swap A B",
  "respawn-pane": "ws pane respawn PANE",
  "display-popup": "ws popup [-- CMD…]",
  popup: "ws popup [-- CMD…]",
  "select-layout": "ws layout select NAME",
  "source-file": "ws config reload (reads keys.toml again)",
  source: "ws config reload (reads keys.toml again)",
  "detach-client": "prefix d (in the interface)",
  detach: "prefix d (in the interface)",
  "attach-session": "ws attach (ws workspace focus NAME picks what it shows)",
  a: "ws attach",
  at: "ws attach",
  "wait-for": "ws wait output|command|exit …",
};

/** " (tmux's X is …)" for a tmux command name, else "". */
export function tmuxCommandHint(word: string): string {
  const to = Object.hasOwn(TMUX_HABITS, word) ? TMUX_HABITS[word] : undefined;
  return to ? ` (tmux's ${word}; in ws: ${to})` : "";
}

/** A hint for a tmux flag given to a ws command: `attach -t NAME`. */
export function tmuxFlagHint(path: string, flag: string): string {
  if (path === "attach" && flag === "-t") return " (ws has one session: ws attach shows it; ws workspace focus NAME picks the workspace, -L NAME a named server)";
  if (path === "kill-server" && flag === "-t") return " (ws workspace close NAME closes one workspace)";
  return "";
}
