// Keys by tmux's names (tmux 3.3 key-string.c), for pane_send_keys: a name such as "Escape",
// "C-c", "M-Left" or "S-Tab" becomes a crossterm key, which src/model/key-encoder.ts turns into the
// bytes the pane's program expects in its current modes (keysToBytes). The one table of names: the message's
// description, `describe`, the docs and the CLI's help all read KEY_NAMES.
import { type KeyCode, SHIFT, CONTROL, ALT, SUPER, KEYPAD } from "./events";

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

/** The modifier words keys.toml takes besides tmux's C M S (ws's first keymap took these), each
 * before - or +: ctrl+left, Alt-x, super-k. */
const KEYS_TOML_MODIFIERS: Record<string, number> = { c: CONTROL, ctrl: CONTROL, control: CONTROL, m: ALT, a: ALT, alt: ALT, meta: ALT, s: SHIFT, shift: SHIFT, d: SUPER, super: SUPER, cmd: SUPER };

const BY_LOWER = new Map(Object.entries(NAMED).map(([k, v]) => [k.toLowerCase(), v]));

/** keys.toml's own spellings besides tmux's names (ws's first keymap took these). */
const KEYS_TOML_ALIASES: Record<string, KeyCode> = { backspace: "Backspace", return: "Enter", del: "Delete", ins: "Insert", esc: "Esc", backtab: "BackTab" };

/**
 * The key a key name stands for, or undefined when the string is not one (pane_send_keys then types
 * it as text). The one grammar of key names: modifier prefixes, then tmux's name of a key, or one
 * character. `spelling` "keys.toml" also takes keys.toml's longer modifier words and
 * its aliases (esc, return, del, …) and F13 to F24; "tmux" (pane_send_keys, agents.toml) only tmux's, so text
 * such as "Esc" or "a-b" is still typed as it is, as tmux's send-keys does, and the keypad's keys.
 */
export function parseKeyName(name: string, spelling: "tmux" | "keys.toml" = "tmux"): NamedKey | undefined {
  let mods = 0;
  let rest = name;
  // `^x` is C-x (tmux), but a lone "^" is the character.
  if (rest.length > 1 && rest[0] === "^") {
    mods |= CONTROL;
    rest = rest.slice(1);
  }
  for (;;) {
    const m = spelling === "tmux" ? tmuxModifier(rest) : keysTomlModifier(rest);
    if (!m) break;
    mods |= m.mod;
    rest = rest.slice(m.length);
  }
  const lower = rest.toLowerCase();
  const code = BY_LOWER.get(lower) ?? (spelling === "keys.toml" ? KEYS_TOML_ALIASES[lower] : undefined);
  if (code) return { code, mods, state: 0 };
  // tmux's F1 to F12 are in its names; keys.toml goes on to F24.
  const f = spelling === "keys.toml" ? /^f([0-9]{1,2})$/.exec(lower) : null;
  if (f && Number(f[1]) >= 1 && Number(f[1]) <= 24) return { code: { F: Number(f[1]) }, mods, state: 0 };
  if (spelling === "tmux" && lower.startsWith("kp")) {
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

/** A tmux modifier prefix (C- M- S-, either case) at the start of `rest`, with a key after it. */
function tmuxModifier(rest: string): { mod: number; length: number } | undefined {
  const mod = rest.length > 2 ? KEY_MODIFIERS[rest.slice(0, 2).toUpperCase()] : undefined;
  return mod === undefined ? undefined : { mod, length: 2 };
}

/** A keys.toml modifier word and its - or + at the start of `rest`, with a key after it. */
function keysTomlModifier(rest: string): { mod: number; length: number } | undefined {
  const m = /^([a-z]+)[-+]./i.exec(rest);
  const mod = m ? KEYS_TOML_MODIFIERS[m[1]!.toLowerCase()] : undefined;
  return mod === undefined ? undefined : { mod, length: m![1]!.length + 1 };
}
