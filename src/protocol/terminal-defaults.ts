// Facts about the terminal ws is to its panes, read by the daemon and by the tmux shim's answers
// (default-terminal, escape-time), so the two never disagree.

/** The TERM every pane's program gets: ws's emulator is an xterm with 256 colours and more. */
export const PANE_TERM = "xterm-256color";

/** How long a lone ESC waits for the rest of a sequence before it counts as the Esc key. */
export const ESC_TIMEOUT_MS = 25;
