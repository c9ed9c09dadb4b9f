// keys.toml: where it is and reading it, the one reader. The attach UI's keymap (src/ui/keymap.ts)
// reads its keys and settings from it; the server reads its `tmux_shim` option
// (src/tmux-shim/server.ts) before any keymap module loads.
import { parse as parseToml } from "smol-toml";
import { readTextFile } from "./safe-file";
import { wsDir } from "./xdg-dirs";

/** The most of keys.toml ws reads (a real one is a few KiB). */
const KEYS_TOML_MAX = 1024 * 1024;

export function keysTomlPath(env: Record<string, string | undefined> = process.env): string {
  return wsDir("config", env, "keys.toml");
}

/** keys.toml's text. Throws FileReadError (ENOENT when there is none); never waits on a FIFO in
 * its place (src/safe-file.ts). Read at server start and by ws config reload, not on a hot path. */
export function readKeysToml(env: Record<string, string | undefined> = process.env): string {
  return readTextFile(keysTomlPath(env), KEYS_TOML_MAX);
}

/** keys.toml as a table; throws when it can't be read or isn't TOML. */
export function parseKeysToml(text: string): Record<string, unknown> {
  return parseToml(text) as Record<string, unknown>;
}
