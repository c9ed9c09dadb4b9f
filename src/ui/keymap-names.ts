// The keymap's key names: a key event's canonical name ("C-Space", "M-Left", "F5", "%") and a
// name as keys.toml spells it ("ctrl+left", "C-Space") to that canonical name. The names of
// non-character keys come from the one table, src/protocol/key-names.ts.
import { type KeyEvent, parseMods, SHIFT, CONTROL, ALT, SUPER } from "../protocol/events";
import { keysTomlKeyCode } from "../protocol/key-names";

/** A named key's canonical name: crossterm's (Esc, PageUp, BackTab), Space for the space bar. */
function keyCodeName(name: string): string | undefined {
  const code = keysTomlKeyCode(name);
  if (code === undefined) return undefined;
  return typeof code === "string" ? code : "Char" in code && code.Char === " " ? "Space" : undefined;
}

/** Canonical name of a key event: modifiers C- M- S- (S- only on non-characters), then the key. */
export function keyName(k: KeyEvent): string | null {
  const mods = parseMods(k.modifiers);
  let base: string;
  const code = k.code;
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

/** Parse a user-written key ("C-Space", "ctrl+left", "M-x", "F5", "%") to its canonical name, or null. */
export function parseKeyName(s: string): string | null {
  let rest = s.trim();
  if (!rest) return null;
  let c = false, m = false, d = false, sh = false;
  for (;;) {
    const mm = /^(c|ctrl|control|m|a|alt|meta|s|shift|d|super|cmd)[-+](.+)$/i.exec(rest);
    if (!mm) break;
    const mod = mm[1]!.toLowerCase();
    if (mod === "c" || mod === "ctrl" || mod === "control") c = true;
    else if (mod === "m" || mod === "a" || mod === "alt" || mod === "meta") m = true;
    else if (mod === "d" || mod === "super" || mod === "cmd") d = true;
    else sh = true;
    rest = mm[2]!;
  }
  let base: string;
  let isChar = false;
  const named = keyCodeName(rest);
  const fk = /^f([0-9]{1,2})$/i.exec(rest);
  if (named) base = named;
  else if (fk && Number(fk[1]) >= 1 && Number(fk[1]) <= 24) base = `F${Number(fk[1])}`;
  else if ([...rest].length === 1) {
    base = rest;
    isChar = true;
    if (sh && base.length === 1 && base >= "a" && base <= "z") base = base.toUpperCase();
    if (c) base = base.toLowerCase();
  } else return null;
  let p = "";
  if (c) p += "C-";
  if (m) p += "M-";
  if (d) p += "D-";
  if (sh && !isChar) p += "S-";
  return p + base;
}
