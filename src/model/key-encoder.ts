// crossterm Event → the bytes the focused pane's program expects, given the
// modes it has set (what xterm would send for the same key, or kitty when the
// program pushed kitty keyboard flags).

import { pasteBytes } from "./paste";
import { type KeyCode, type MouseKind, type TermEvent, parseMods, parseState, SHIFT, CONTROL, ALT, SUPER, HYPER, META, KEYPAD } from "../protocol/events";
import { modesOf, type PaneInputModes } from "./emulator-modes";
import { parseKeyName } from "../protocol/key-names";
export { modesOf, type PaneInputModes };

export const DEFAULT_MODES: PaneInputModes = {
  applicationCursorKeys: false, applicationKeypad: false, bracketedPaste: false,
  mouseTracking: "none", mouseEncoding: "default", sendFocus: false, kittyFlags: 0, modifyOtherKeys: 0,
};

const ESC = "\x1b";

// xterm modifier parameter: 1 + shift|alt<<1|ctrl<<2|meta<<3.
function modParam(m: number): number {
  return 1 + (m & SHIFT ? 1 : 0) + (m & ALT ? 2 : 0) + (m & CONTROL ? 4 : 0) + (m & (SUPER | META) ? 8 : 0);
}

const CURSOR: Partial<Record<string, string>> = { Up: "A", Down: "B", Right: "C", Left: "D", Home: "H", End: "F", KeypadBegin: "E" };
const TILDE: Partial<Record<string, number>> = { Insert: 2, Delete: 3, PageUp: 5, PageDown: 6 };
const F_TILDE: Record<number, number> = {
  5: 15, 6: 17, 7: 18, 8: 19, 9: 20, 10: 21, 11: 23, 12: 24, 13: 25, 14: 26, 15: 28, 16: 29, 17: 31, 18: 32, 19: 33, 20: 34,
};
const KEYPAD_APP: Record<string, string> = {
  "0": "p", "1": "q", "2": "r", "3": "s", "4": "t", "5": "u", "6": "v", "7": "w", "8": "x", "9": "y",
  ".": "n", "+": "k", "-": "m", "*": "j", "/": "o", ",": "l", "=": "X",
};

/** The C0 byte a Ctrl+character has in the legacy encoding: X11's table (Ctrl+@…~ is the
 * character & 0x1f, Ctrl+2…8 the VT220 digits) plus tmux's Ctrl+- / and ?. */
function ctrlChar(ch: string): string | null {
  const c = ch.toLowerCase();
  if (c >= "a" && c <= "z") return String.fromCharCode(c.charCodeAt(0) - 0x60);
  switch (ch) {
    case " ": case "@": case "2": case "`": return "\x00";
    case "[": case "3": case "{": return "\x1b";
    case "\\": case "4": case "|": return "\x1c";
    case "]": case "5": case "}": return "\x1d";
    case "^": case "6": case "~": return "\x1e";
    case "_": case "7": case "/": case "-": return "\x1f";
    case "8": case "?": return "\x7f";
  }
  return null;
}

const KITTY_DISAMBIGUATE = 1;
const KITTY_ALL_KEYS = 8;
/** kitty's key numbers for keys that are not characters (the rest: the key's code point). */
const KITTY_CODES: Partial<Record<string, number>> = { Esc: 27, Enter: 13, Tab: 9, BackTab: 9, Backspace: 127 };
/** The keypad's keys: kitty numbers them 57399 (KP_0)… */
const KITTY_KEYPAD: Record<string, number> = {
  "0": 57399, "1": 57400, "2": 57401, "3": 57402, "4": 57403, "5": 57404, "6": 57405, "7": 57406, "8": 57407, "9": 57408,
  ".": 57409, "/": 57410, "*": 57411, "-": 57412, "+": 57413, "=": 57415,
};
const KITTY_KP_ENTER = 57414;

/** The kitty modifier parameter: 1 + shift|alt<<1|ctrl<<2|super<<3|hyper<<4|meta<<5. */
function kittyMods(m: number): number {
  return 1 + (m & SHIFT ? 1 : 0) + (m & ALT ? 2 : 0) + (m & CONTROL ? 4 : 0) + (m & SUPER ? 8 : 0) + (m & HYPER ? 16 : 0) + (m & META ? 32 : 0);
}

/** A key in the kitty keyboard protocol (flags 1 and 8), or undefined where it is sent as xterm would. */
function encodeKitty(code: KeyCode, mods: number, state: number, flags: number): string | undefined {
  const all = (flags & KITTY_ALL_KEYS) !== 0;
  const csiU = (n: number, m: number) => `${ESC}[${n}${kittyMods(m) > 1 ? `;${kittyMods(m)}` : ""}u`;
  const notText = CONTROL | ALT | SUPER | HYPER | META;
  if (typeof code === "object") {
    if ("Char" in code) {
      let ch = code.Char;
      let m = mods;
      // A letter typed with shift is reported as its key (lower case) with shift.
      if (ch.length === 1 && ch >= "A" && ch <= "Z") {
        ch = ch.toLowerCase();
        m |= SHIFT;
      }
      const n = state & KEYPAD && KITTY_KEYPAD[ch] ? KITTY_KEYPAD[ch]! : ch.codePointAt(0)!;
      // Text stays text unless every key is to be an escape code or a modifier makes it a key.
      return all || m & notText ? csiU(n, m) : undefined;
    }
    if ("F" in code) {
      const n = code.F;
      if (n >= 1 && n <= 4) {
        if (n === 3) return `${ESC}[13${kittyMods(mods) > 1 ? `;${kittyMods(mods)}` : ""}~`; // CSI R is a cursor report
        return `${ESC}[${kittyMods(mods) > 1 ? `1;${kittyMods(mods)}` : ""}${"PQRS"[n - 1]}`;
      }
      return undefined; // F5…: the same CSI n ~ as xterm's
    }
    return undefined;
  }
  const cur = CURSOR[code];
  if (cur) return `${ESC}[${kittyMods(mods) > 1 ? `1;${kittyMods(mods)}` : ""}${cur}`; // CSI form whatever DECCKM says
  if (code === "Enter" && state & KEYPAD) return csiU(KITTY_KP_ENTER, mods);
  const n = KITTY_CODES[code];
  if (n === undefined) return undefined;
  const m = code === "BackTab" ? mods | SHIFT : mods;
  // Enter, Tab and Backspace stay as they were unless modified (a shell after a crash still works).
  if (code === "Esc" || all || m & (notText | SHIFT)) return csiU(n, m);
  return undefined;
}

/** Enter, Tab, Backspace and Esc: the keys a modifier changes only in an extended form. */
const C0_KEYS: Partial<Record<string, number>> = { Enter: 13, Tab: 9, BackTab: 9, Backspace: 127, Esc: 27 };

/**
 * xterm's modifyOtherKeys (`CSI > 4 ; level m`): a modified key as `CSI 27 ; mod ; code ~`, or
 * undefined where it keeps its usual form. Level 1 keeps the keys that have a well-known form
 * (C-a is ^A, M-x is ESC x, S-Tab is CSI Z); level 2 sends every key with Ctrl or Alt this way.
 * Shift alone on a character is in the character (S-a is A) at either level.
 */
function encodeModifyOtherKeys(code: KeyCode, mods: number, level: number): string | undefined {
  let m = mods & (SHIFT | ALT | CONTROL | SUPER | META);
  const form = (cp: number) => `${ESC}[27;${modParam(m)};${cp}~`;
  if (typeof code === "object") {
    if (!("Char" in code) || !(m & (ALT | CONTROL | SUPER | META))) return undefined;
    const cp = code.Char.codePointAt(0)!;
    if (level >= 2 || (m & CONTROL && ctrlChar(code.Char) === null)) return form(cp);
    return undefined;
  }
  const n = C0_KEYS[code];
  if (n === undefined) return undefined;
  if (code === "BackTab") m |= SHIFT;
  if (!m) return undefined;
  if (level < 2 && (m === ALT || (code === "BackTab" && m === SHIFT))) return undefined;
  return form(n);
}

/** tmux's extended form (`extended-keys always`), `CSI code ; mod u`: what a pane that asked for
 * nothing gets for a key whose modifier has no legacy form (S-Enter, C-Enter, C-Tab, C-1). */
const extendedKey = (cp: number, m: number) => `${ESC}[${cp};${modParam(m)}u`;

export function encodeKey(code: KeyCode, mods: number, state: number, modes: PaneInputModes): string | null {
  if (modes.kittyFlags & (KITTY_DISAMBIGUATE | KITTY_ALL_KEYS)) {
    const k = encodeKitty(code, mods, state, modes.kittyFlags);
    if (k !== undefined) return k;
  } else if (modes.modifyOtherKeys) {
    const k = encodeModifyOtherKeys(code, mods, modes.modifyOtherKeys);
    if (k !== undefined) return k;
  }
  const alt = mods & ALT ? ESC : "";
  const m = mods & (SHIFT | ALT | CONTROL | SUPER | META);
  if (typeof code === "object") {
    if ("Char" in code) {
      const ch = code.Char;
      if (state & KEYPAD && modes.applicationKeypad && KEYPAD_APP[ch] && !m) return ESC + "O" + KEYPAD_APP[ch];
      if (mods & CONTROL) {
        const c = ctrlChar(ch);
        if (c !== null) return alt + c;
        return extendedKey(ch.codePointAt(0)!, m);
      }
      return alt + ch;
    }
    if ("F" in code) {
      const n = code.F;
      if (n >= 1 && n <= 4) {
        const f = "PQRS"[n - 1];
        return m ? `${ESC}[1;${modParam(m)}${f}` : `${ESC}O${f}`;
      }
      const t = F_TILDE[n];
      if (!t) return null;
      return m ? `${ESC}[${t};${modParam(m)}~` : `${ESC}[${t}~`;
    }
    return null; // Media, Modifier: nothing to send
  }
  const cur = CURSOR[code];
  if (cur) {
    if (m) return `${ESC}[1;${modParam(m)}${cur}`;
    return (modes.applicationCursorKeys ? `${ESC}O` : `${ESC}[`) + cur;
  }
  const t = TILDE[code];
  if (t) return m ? `${ESC}[${t};${modParam(m)}~` : `${ESC}[${t}~`;
  switch (code) {
    case "Enter":
      if (state & KEYPAD && modes.applicationKeypad && !m) return `${ESC}OM`;
      return m & (SHIFT | CONTROL) ? extendedKey(13, m) : alt + "\r";
    case "Tab":
      if (m & CONTROL) return extendedKey(9, m);
      return mods & SHIFT ? alt + `${ESC}[Z` : alt + "\t";
    case "BackTab": return m & CONTROL ? extendedKey(9, m | SHIFT) : alt + `${ESC}[Z`;
    case "Backspace": return alt + (mods & CONTROL ? "\x08" : "\x7f");
    case "Esc": return alt + ESC;
    case "Null": return "\x00";
  }
  return null;
}

/** Mouse event (already translated to pane coordinates) → report bytes, or null when the mode does not want it. */
export function encodeMouse(ev: { kind: MouseKind; column: number; row: number; modifiers: string }, modes: PaneInputModes): string | null {
  const mode = modes.mouseTracking;
  if (mode === "none") return null;
  const k = ev.kind;
  let btn: number;
  let release = false;
  const BTN: Record<string, number> = { Left: 0, Middle: 1, Right: 2 };
  if (typeof k === "string") {
    if (k === "Moved") {
      if (mode !== "any") return null;
      btn = 35;
    } else {
      if (mode === "x10") return null;
      btn = ({ ScrollUp: 64, ScrollDown: 65, ScrollLeft: 66, ScrollRight: 67 } as Record<string, number>)[k] ?? -1;
      if (btn < 0) return null;
    }
  } else if ("Down" in k) btn = BTN[k.Down] ?? 0;
  else if ("Up" in k) {
    if (mode === "x10") return null;
    btn = BTN[k.Up] ?? 0;
    release = true;
  } else if ("Drag" in k) {
    if (mode !== "drag" && mode !== "any") return null;
    btn = (BTN[k.Drag] ?? 0) + 32;
  } else return null;

  if (mode !== "x10") {
    const mods = parseMods(ev.modifiers);
    if (mods & SHIFT) btn += 4;
    if (mods & ALT) btn += 8;
    if (mods & CONTROL) btn += 16;
  }
  const x = ev.column + 1, y = ev.row + 1;
  switch (modes.mouseEncoding) {
    case "sgr":
      return `${ESC}[<${btn};${x};${y}${release ? "m" : "M"}`;
    case "urxvt":
      return `${ESC}[${(release ? 3 : btn) + 32};${x};${y}M`;
    case "utf8":
      return `${ESC}[M${String.fromCharCode((release ? 3 | (btn & ~3) : btn) + 32)}${String.fromCodePoint(Math.min(x + 32, 2047))}${String.fromCodePoint(Math.min(y + 32, 2047))}`;
    default: {
      if (x > 223 || y > 223) return null; // not representable in X10 bytes
      const b = release ? 3 | (btn & ~3) : btn;
      return `${ESC}[M${String.fromCharCode(b + 32, x + 32, y + 32)}`;
    }
  }
}

/** Whether printable ASCII typed without a modifier (a capital's shift aside) reaches a program in
 * these modes as itself: true unless it asked for every key as an escape code (kitty's flag 8). */
export function typesAsText(modes: PaneInputModes): boolean {
  return (modes.kittyFlags & KITTY_ALL_KEYS) === 0;
}

/** Any event except mouse/resize → bytes for the pane, or null to send nothing. */
export function encodeEvent(ev: TermEvent, modes: PaneInputModes): string | null {
  if (ev === "FocusGained") return modes.sendFocus ? `${ESC}[I` : null;
  if (ev === "FocusLost") return modes.sendFocus ? `${ESC}[O` : null;
  if (typeof ev !== "object" || !ev) return null;
  if ("Key" in ev) {
    if (ev.Key.kind === "Release") return null;
    return encodeKey(ev.Key.code, parseMods(ev.Key.modifiers), parseState(ev.Key.state), modes);
  }
  if ("Paste" in ev) {
    // Never let pasted text end the bracket early (src/model/paste.ts).
    return pasteBytes(ev.Paste, modes.bracketedPaste);
  }
  if ("Mouse" in ev) return encodeMouse(ev.Mouse, modes);
  return null;
}

/** The bytes for `keys` in the program's current modes: each a key name, or else text typed as it is. */
export function keysToBytes(keys: readonly string[], modes: PaneInputModes, literal = false): string {
  let out = "";
  for (const k of keys) {
    const key = literal ? undefined : parseKeyName(k);
    out += (key && encodeKey(key.code, key.mods, key.state, modes)) ?? k;
  }
  return out;
}
