// Facts about the terminal ws is to its panes, read by the daemon and by the tmux shim's answers
// (default-terminal, escape-time), so the two never disagree.

/** The TERM every pane's program gets: ws's emulator is an xterm with 256 colours and more. */
export const PANE_TERM = "xterm-256color";

/** How long a lone ESC waits for the rest of a sequence before it counts as the Esc key. */
export const ESC_TIMEOUT_MS = 25;

/** The most lines of history a pane may keep (WS_SCROLLBACK, keys.toml history-limit). */
export const SCROLLBACK_MAX = 100_000;

/** The longest keys.toml escape-time taken (tmux takes any; past a few seconds Esc is unusable). */
export const ESCAPE_TIME_MAX = 5000;
