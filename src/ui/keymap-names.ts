// The keymap's key names: a key event's canonical name ("C-Space", "M-Left", "F5", "%") and a
// name as keys.toml spells it ("ctrl+left", "C-Space") to that canonical name. Key names are read
// by the one grammar, src/protocol/key-names.ts.
import { type KeyCode, type KeyEvent, parseMods, SHIFT, CONTROL, ALT, SUPER } from "../protocol/events";
import { parseKeyName as parseNamedKey } from "../protocol/key-names";

/** Canonical name of a key event: modifiers C- M- S- (S- only on non-characters), then the key. */
export function keyName(k: KeyEvent): string | null {
  return canonicalName(k.code, parseMods(k.modifiers));
}

function canonicalName(code: KeyCode, mods: number): string | null {
  let base: string;
  if (typeof code === "string") base = code;
  else if ("Char" in code) base = code.Char === " " ? "Space" : code.Char;
  else if ("F" in code) base = `F${code.F}`;
  else return null;
  const isChar = typeof code === "object" && "Char" in code && code.Char !== " ";
  let p = "";
  if (mods & CONTROL) p += "C-";
  if (mods & ALT) p += "M-";
  if (mods & SUPER) p += "D-";
  if (mods & SHIFT && !isChar) p += "S-";
  // Ctrl + letter arrives lower-case; Ctrl-Shift-letter is the same key to most terminals.
  if (mods & CONTROL && isChar && base.length === 1) base = base.toLowerCase();
  return p + base;
}

/** A key as keys.toml (or a tmux.conf) writes it ("C-Space", "ctrl+left", "M-x", "F5", "%") by its
 * canonical name, or null: the one grammar of key names (src/protocol/key-names.ts). */
export function parseKeyName(s: string): string | null {
  const key = parseNamedKey(s.trim(), "keys.toml");
  return key ? canonicalName(key.code, key.mods) : null;
}
