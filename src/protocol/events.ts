// crossterm's Event in serde JSON form (spec/attach-events.md): the payload of
// EVENT frames. Types plus the bit-flag string helpers both ends need, and the
// validator the server runs on every event a client sends.
import { logValue } from "../safe-text";

/** crossterm's KeyCode variants without data, and the names `Media` and `Modifier` carry (in
 * crossterm's order, which is also kitty's key-number order). */
export const KEY_CODE_UNITS = [
  "Backspace", "Enter", "Left", "Right", "Up", "Down", "Home", "End", "PageUp", "PageDown",
  "Tab", "BackTab", "Delete", "Insert", "Null", "Esc", "CapsLock", "ScrollLock", "NumLock",
  "PrintScreen", "Pause", "Menu", "KeypadBegin",
] as const;
export const MEDIA_KEYS = [
  "Play", "Pause", "PlayPause", "Reverse", "Stop", "FastForward", "Rewind", "TrackNext",
  "TrackPrevious", "Record", "LowerVolume", "RaiseVolume", "MuteVolume",
] as const;
export const MODIFIER_KEYS = [
  "LeftShift", "LeftControl", "LeftAlt", "LeftSuper", "LeftHyper", "LeftMeta",
  "RightShift", "RightControl", "RightAlt", "RightSuper", "RightHyper", "RightMeta",
  "IsoLevel3Shift", "IsoLevel5Shift",
] as const;

export type KeyCode =
  | (typeof KEY_CODE_UNITS)[number]
  | { Char: string } | { F: number } | { Media: string } | { Modifier: string };

export type KeyKind = "Press" | "Repeat" | "Release";

export interface KeyEvent {
  code: KeyCode;
  modifiers: string;
  kind: KeyKind;
  state: string;
}

export type MouseButton = "Left" | "Right" | "Middle";
export type MouseKind =
  | { Down: MouseButton } | { Up: MouseButton } | { Drag: MouseButton }
  | "Moved" | "ScrollDown" | "ScrollUp" | "ScrollLeft" | "ScrollRight";

export interface MouseEvent {
  kind: MouseKind;
  column: number;
  row: number;
  modifiers: string;
}

export type TermEvent =
  | { Key: KeyEvent }
  | { Mouse: MouseEvent }
  | { Paste: string }
  | { Resize: [number, number] }
  | "FocusGained"
  | "FocusLost";

// Bit values are ours; the order is crossterm's declaration order, which is
// the order bitflags prints them in.
export const SHIFT = 1, CONTROL = 2, ALT = 4, SUPER = 8, HYPER = 16, META = 32;
const MOD_NAMES: [number, string][] = [
  [SHIFT, "SHIFT"], [CONTROL, "CONTROL"], [ALT, "ALT"], [SUPER, "SUPER"], [HYPER, "HYPER"], [META, "META"],
];
export const KEYPAD = 1, CAPS_LOCK = 2, NUM_LOCK = 4;
const STATE_NAMES: [number, string][] = [[KEYPAD, "KEYPAD"], [CAPS_LOCK, "CAPS_LOCK"], [NUM_LOCK, "NUM_LOCK"]];

function fmt(bits: number, names: [number, string][]): string {
  return names.filter(([b]) => bits & b).map(([, n]) => n).join(" | ");
}
/** Flag bits of a checked event's flag string (0 for anything checkTermEvent would refuse). */
function parse(s: unknown, names: [number, string][]): number {
  const bits = flagBits(s, names, "");
  return typeof bits === "number" ? bits : 0;
}

/** Every combination's text and the bits of each such text, made once: every typed key is
 * formatted and read back through these, and doing it by hand cost more than the key's routing. */
function flagTables(names: [number, string][]) {
  const all = names.reduce((m, [b]) => m | b, 0);
  const text: string[] = [];
  const bits = new Map<string, number>();
  for (let b = 0; b <= all; b++) {
    text[b] = fmt(b, names);
    bits.set(text[b]!, b);
  }
  return {
    format: (b: number) => text[b & all]!,
    parse: (s: unknown) => (typeof s === "string" ? bits.get(s) : undefined) ?? parse(s, names),
  };
}
const MODS = flagTables(MOD_NAMES);
const STATES = flagTables(STATE_NAMES);

export const formatMods = MODS.format;
export const parseMods = MODS.parse;
export const formatState = STATES.format;
export const parseState = STATES.parse;

export function keyEvent(code: KeyCode, mods = 0, kind: KeyKind = "Press", state = 0): TermEvent {
  return { Key: { code, modifiers: formatMods(mods), kind, state: formatState(state) } };
}

// ---- validation: an EVENT payload from a client is untrusted ----------------------------------

/** crossterm's size and position type: sizes, columns and rows are u16 on the wire. */
export const U16_MAX = 65535;

const KEY_KINDS = ["Press", "Repeat", "Release"] as const;
const MOUSE_BUTTONS = ["Left", "Right", "Middle"] as const;
const MOUSE_UNITS = ["Moved", "ScrollDown", "ScrollUp", "ScrollLeft", "ScrollRight"] as const;

/** What the validator makes of an EVENT payload: a well-formed event, or why it was dropped. */
export type EventCheck =
  | { event: TermEvent }
  | { problem: string; /** A shape we don't know (a newer client's event): ignored, as the spec says. */ unknown?: boolean };

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const isU16 = (v: unknown): v is number => Number.isInteger(v) && (v as number) >= 0 && (v as number) <= U16_MAX;
const oneOf = <T extends string>(list: readonly T[], v: unknown): v is T => typeof v === "string" && (list as readonly string[]).includes(v);
const show = (v: unknown) => logValue(v);

/** The only key of a one-key object (serde's externally tagged enum), else undefined. */
function tagOf(o: Record<string, unknown>): string | undefined {
  const keys = Object.keys(o);
  return keys.length === 1 ? keys[0] : undefined;
}

/** bitflags' text form: names joined by "|", hex bits ("0x5"), "" or "NONE" for none. Unknown names fail. */
function flagBits(v: unknown, names: [number, string][], what: string): number | string {
  if (v === undefined) return 0;
  if (typeof v !== "string") return `${what} is not a string of flags`;
  if (v.length > 200) return `${what} is too long`;
  let bits = 0;
  for (const part of v.split("|")) {
    const p = part.trim();
    if (p === "" || p === "NONE") continue;
    const hit = names.find(([, n]) => n === p);
    if (hit) bits |= hit[0];
    else if (/^0x[0-9a-fA-F]{1,2}$/.test(p)) bits |= Number.parseInt(p.slice(2), 16) & names.reduce((m, [b]) => m | b, 0);
    else return `unknown ${what} flag ${show(p)}`;
  }
  return bits;
}

function checkKeyCode(c: unknown): { code: KeyCode } | string {
  if (oneOf(KEY_CODE_UNITS, c)) return { code: c };
  const tag = isObj(c) ? tagOf(c) : undefined;
  const v = tag === undefined ? undefined : (c as Record<string, unknown>)[tag];
  switch (tag) {
    case "Char": {
      // A Rust char: exactly one Unicode scalar value (a lone surrogate is not one).
      const cp = typeof v === "string" && [...v].length === 1 ? v.codePointAt(0)! : -1;
      return cp >= 0 && !(cp >= 0xd800 && cp <= 0xdfff) ? { code: { Char: v as string } } : `Char is not one character: ${show(v)}`;
    }
    case "F":
      return Number.isInteger(v) && (v as number) >= 0 && (v as number) <= 255 ? { code: { F: v as number } } : `F is not a u8: ${show(v)}`;
    case "Media":
      return oneOf(MEDIA_KEYS, v) ? { code: { Media: v } } : `unknown media key ${show(v)}`;
    case "Modifier":
      return oneOf(MODIFIER_KEYS, v) ? { code: { Modifier: v } } : `unknown modifier key ${show(v)}`;
  }
  return `unknown key code ${show(c)}`;
}

function checkKey(k: unknown): TermEvent | string {
  if (!isObj(k)) return "Key is not an object";
  const code = checkKeyCode(k.code);
  if (typeof code === "string") return code;
  const mods = flagBits(k.modifiers, MOD_NAMES, "modifiers");
  if (typeof mods === "string") return mods;
  // Older crossterm had no kind or state: a missing one is a press without state.
  const kind = k.kind ?? "Press";
  if (!oneOf(KEY_KINDS, kind)) return `unknown key kind ${show(kind)}`;
  const state = flagBits(k.state, STATE_NAMES, "state");
  if (typeof state === "string") return state;
  return keyEvent(code.code, mods, kind, state);
}

function checkMouse(m: unknown): TermEvent | string {
  if (!isObj(m)) return "Mouse is not an object";
  let kind: MouseKind;
  if (oneOf(MOUSE_UNITS, m.kind)) kind = m.kind;
  else if (isObj(m.kind) && (tagOf(m.kind) === "Down" || tagOf(m.kind) === "Up" || tagOf(m.kind) === "Drag")) {
    const tag = tagOf(m.kind) as "Down" | "Up" | "Drag";
    const b = m.kind[tag];
    if (!oneOf(MOUSE_BUTTONS, b)) return `unknown mouse button ${show(b)}`;
    kind = { [tag]: b } as MouseKind;
  } else return `unknown mouse kind ${show(m.kind)}`;
  if (!isU16(m.column) || !isU16(m.row)) return `mouse position ${show([m.column, m.row])} is not two u16`;
  const mods = flagBits(m.modifiers, MOD_NAMES, "modifiers");
  if (typeof mods === "string") return mods;
  return { Mouse: { kind, column: m.column, row: m.row, modifiers: formatMods(mods) } };
}

/**
 * Check an untrusted JSON value against crossterm's Event shapes and integer ranges. The event
 * returned is built afresh from the checked parts (canonical flag strings, nothing extra), so
 * code past this point can trust every field.
 */
export function checkTermEvent(v: unknown): EventCheck {
  if (v === "FocusGained" || v === "FocusLost") return { event: v };
  const tag = isObj(v) ? tagOf(v) : undefined;
  if (tag === undefined) return { problem: `not an event: ${show(v)}`, unknown: typeof v === "string" };
  const body = (v as Record<string, unknown>)[tag];
  let r: TermEvent | string;
  switch (tag) {
    case "Key":
      r = checkKey(body);
      break;
    case "Mouse":
      r = checkMouse(body);
      break;
    case "Paste":
      r = typeof body === "string" ? { Paste: body } : "Paste is not a string";
      break;
    case "Resize":
      r = Array.isArray(body) && body.length === 2 && isU16(body[0]) && isU16(body[1]) ? { Resize: [body[0], body[1]] } : `Resize ${show(body)} is not two u16`;
      break;
    default:
      return { problem: `unknown event ${show(tag)}`, unknown: true };
  }
  return typeof r === "string" ? { problem: r } : { event: r };
}
