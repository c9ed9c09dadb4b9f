// How much one request and one server may start (docs/limits.md). Every workspace holds at least
// one tab and every tab at least one pane, so the pane limit bounds workspaces and tabs too.

/** A positive integer from the environment, else the default (the knobs are for tests and unusual machines). */
export function envInt(name: string, dflt: number): number {
  const n = Number(process.env[name]);
  return Number.isSafeInteger(n) && n > 0 ? n : dflt;
}

/** A client (a control connection, an attached client or the terminal the server drives) that
 * takes none of what it is sent for this long is dropped (`WS_SLOW_CLIENT_MS`: tests wait less). */
export const SLOW_CLIENT_MS = envInt("WS_SLOW_CLIENT_MS", 5000);

/** Panes one request may start (a layout_apply tree's leaves): starting each costs a fork and a
 * terminal emulator, and the server does nothing else meanwhile. */
export const MAX_PANES_PER_REQUEST = 64;

/** Panes one server runs at once. */
export const MAX_PANES = envInt("WS_MAX_PANES", 512);

/** Levels of nesting in a layout tree (layout_apply). */
export const MAX_LAYOUT_DEPTH = 32;

/** Variables one pane's `env` may set, and their names and values together in bytes (UTF-8). */
export const MAX_ENV_VARS = 256;
export const MAX_ENV_BYTES = 64 * 1024;
