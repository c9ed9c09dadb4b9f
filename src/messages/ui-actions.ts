// UI_ACTIONS: the one table of the interface's named actions (detach, split-right, zoom, …). The key
// dispatcher, `ws keys --list`, keys.toml and `run_command` all read it. Users meet them as
// "interface commands" (`ws command NAME`); the code says action, leaving "command" for the
// command lines a shell or ws runs.

export interface UiAction {
  name: string;
  description: string;
  /** Its key asks y/n first (tmux's confirm-before); keys.toml `confirm` can turn that off. */
  confirms?: boolean;
}

export const UI_ACTIONS: UiAction[] = [
  { name: "detach", description: "Detach this client; the server keeps running" },
  { name: "quit", description: "Quit the server and close every pane; the session is saved for the next start", confirms: true },
  { name: "split-right", description: "Split the focused pane, new pane to the right" },
  { name: "split-below", description: "Split the focused pane, new pane below" },
  { name: "new-tab", description: "Open a new tab running your shell" },
  { name: "next-tab", description: "Go to the next tab" },
  { name: "prev-tab", description: "Go to the previous tab" },
  ...Array.from({ length: 9 }, (_, i) => ({ name: `tab-${i + 1}`, description: `Go to tab ${i + 1} (tabs count from keys.toml base-index, 1 by default)` })),
  { name: "focus-left", description: "Focus the pane to the left" },
  { name: "focus-right", description: "Focus the pane to the right" },
  { name: "focus-up", description: "Focus the pane above" },
  { name: "focus-down", description: "Focus the pane below" },
  { name: "focus-next", description: "Focus the next pane in this tab" },
  { name: "close-pane", description: "Close the focused pane", confirms: true },
  { name: "zoom", description: "Zoom the focused pane to the whole tab, or unzoom" },
  { name: "resize-left", description: "Move the focused pane's vertical border left" },
  { name: "resize-right", description: "Move the focused pane's vertical border right" },
  { name: "resize-up", description: "Move the focused pane's horizontal border up" },
  { name: "resize-down", description: "Move the focused pane's horizontal border down" },
  { name: "new-workspace", description: "Create a workspace and switch to it" },
  { name: "switch-workspace", description: "Pick a workspace to switch to" },
  { name: "next-workspace", description: "Go to the next workspace" },
  { name: "prev-workspace", description: "Go to the previous workspace" },
  { name: "rename-tab", description: "Rename the current tab" },
  { name: "rename-workspace", description: "Rename the current workspace" },
  { name: "copy-mode", description: "Scroll back, search and copy (OSC 52)" },
  { name: "help", description: "Show every key binding" },
  { name: "dashboard", description: "Agents (most urgent first), workstreams and ports; Enter goes to one" },
  { name: "new-workstream", description: "Open a workstream: asks TEMPLATE NAME; the repo is the focused pane's checkout" },
  { name: "send-prefix", description: "Send the prefix key (Ctrl-Space) to the pane" },
  { name: "last-pane", description: "Go back to the pane focused before this one in this tab" },
  { name: "last-tab", description: "Go back to the tab shown before this one" },
  { name: "close-tab", description: "Close the current tab and every pane in it", confirms: true },
  { name: "paste", description: "Paste the last copy (copy mode or a mouse selection) into the pane" },
  { name: "command-prompt", description: "Run any ws command line, e.g. split --right (Tab completes)" },
  { name: "choose-tree", description: "Pick a workspace, tab or pane from a tree, with a preview" },
  { name: "sync-panes", description: "Type into every pane of this tab at once, or stop (SYNC on the status line)" },
  { name: "reload-config", description: "Read keys.toml again (as ws config reload)" },
  { name: "refresh-client", description: "Draw the whole screen again (tmux's refresh-client), when your terminal shows cells left behind" },
  { name: "next-blocked-agent", description: "Go to the next agent that waits for you, without the dashboard" },
  { name: "display-panes", description: "Show each pane's number; a digit then focuses that pane (tmux's display-panes)" },
  { name: "next-layout", description: "Arrange this tab's panes in the next of tmux's layouts (even-horizontal … tiled)" },
  { name: "prev-layout", description: "Arrange this tab's panes in the previous of tmux's layouts" },
  { name: "swap-pane-up", description: "Swap the focused pane with the one before it (tmux's prefix {)" },
  { name: "swap-pane-down", description: "Swap the focused pane with the one after it (tmux's prefix })" },
  { name: "break-pane", description: "Move the focused pane out to a tab of its own (tmux's prefix !)" },
  { name: "tab-0", description: "Go to tab 0 (with keys.toml base-index = 0, the first)" },
];

const ACTION_NAMES = new Set(UI_ACTIONS.map((c) => c.name));
export const isUiAction = (name: string) => ACTION_NAMES.has(name);
