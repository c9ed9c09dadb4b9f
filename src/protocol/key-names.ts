// Keys by tmux's names (tmux 3.3 key-string.c), for pane_send_keys: a name such as "Escape",
// "C-c", "M-Left" or "S-Tab" becomes a crossterm key, which src/model/key-encoder.ts turns into the
// bytes the pane's program expects in its current modes (keysToBytes). The one table of names: the message's
// description, `describe`, the docs and the CLI's help all read KEY_NAMES.
import { type KeyCode, SHIFT, CONTROL, ALT, KEYPAD } from "./events";

export interface NamedKey {
  code: KeyCode;
  mods: number;
  /** KEYPAD for the keypad's keys. */
  state: number;
}

/** tmux's key names (matched ignoring case, as tmux does) → crossterm key codes. */
const NAMED: Record<string, KeyCode> = {
  Enter: "Enter",
  Escape: "Esc",
  Tab: "Tab",
  BTab: "BackTab",
  BSpace: "Backspace",
  Space: { Char: " " },
  Up: "Up",
  Down: "Down",
  Left: "Left",
  Right: "Right",
  Home: "Home",
  End: "End",
  IC: "Insert",
  Insert: "Insert",
  DC: "Delete",
  Delete: "Delete",
  PPage: "PageUp",
  PageUp: "PageUp",
  PgUp: "PageUp",
  NPage: "PageDown",
  PageDown: "PageDown",
  PgDn: "PageDown",
};
for (let n = 1; n <= 12; n++) NAMED[`F${n}`] = { F: n };

/** The keypad's keys: KP0…KP9, KP/ KP* KP- KP+ KP. and KPEnter. */
const KEYPAD_CHARS = "0123456789/*-+.";
const KEYPAD_NAMES = [...[...KEYPAD_CHARS].map((c) => `KP${c}`), "KPEnter"];

/** Every key name accepted, for describe, the docs and help. */
export const KEY_NAMES: readonly string[] = [...Object.keys(NAMED), ...KEYPAD_NAMES];

/** Modifier prefixes, any number and order: C-x (or ^x), M-x, S-x, C-M-x. */
export const KEY_MODIFIERS: Record<string, number> = { "C-": CONTROL, "M-": ALT, "S-": SHIFT };

const BY_LOWER = new Map(Object.entries(NAMED).map(([k, v]) => [k.toLowerCase(), v]));

/** keys.toml's own spellings besides tmux's names (ws's first keymap took these). */
const KEYS_TOML_ALIASES: Record<string, KeyCode> = { backspace: "Backspace", return: "Enter", del: "Delete", ins: "Insert", esc: "Esc", backtab: "BackTab" };

/** The key a named key stands for as keys.toml spells it (ignoring case): tmux's names and
 * keys.toml's aliases, F1 to F24 left to the keymap; undefined for anything else. */
export function keysTomlKeyCode(name: string): KeyCode | undefined {
  const lower = name.toLowerCase();
  return BY_LOWER.get(lower) ?? KEYS_TOML_ALIASES[lower];
}

/** The key a tmux key name stands for, or undefined when the string is not one (it is then typed as text). */
export function parseKeyName(name: string): NamedKey | undefined {
  let mods = 0;
  let rest = name;
  // `^x` is C-x (tmux), but a lone "^" is the character.
  if (rest.length > 1 && rest[0] === "^") {
    mods |= CONTROL;
    rest = rest.slice(1);
  }
  for (;;) {
    const m = rest.length > 2 ? KEY_MODIFIERS[rest.slice(0, 2).toUpperCase()] : undefined;
    if (m === undefined) break;
    mods |= m;
    rest = rest.slice(2);
  }
  const lower = rest.toLowerCase();
  const code = BY_LOWER.get(lower);
  if (code) return { code, mods, state: 0 };
  if (lower.startsWith("kp")) {
    const k = rest.slice(2);
    if (k.toLowerCase() === "enter") return { code: "Enter", mods, state: KEYPAD };
    if (k.length === 1 && KEYPAD_CHARS.includes(k)) return { code: { Char: k }, mods, state: KEYPAD };
  }
  // One character (a code point), with its modifiers; a bare one is a key name only with a modifier,
  // so that plain text stays text.
  if ([...rest].length === 1) {
    if (mods === 0 && name === rest) return { code: { Char: rest }, mods: 0, state: 0 };
    // S-a is A, as a terminal sends it; the shift is in the character.
    if (mods & SHIFT && rest.toLowerCase() !== rest.toUpperCase()) return { code: { Char: rest.toUpperCase() }, mods: mods & ~SHIFT, state: 0 };
    return { code: { Char: rest }, mods, state: 0 };
  }
  return undefined;
}
