// crossterm's Event in serde JSON form (spec/attach-events.md): the payload of
// EVENT frames. Types plus the bit-flag string helpers both ends need.

export type KeyCode =
  | "Backspace" | "Enter" | "Left" | "Right" | "Up" | "Down" | "Home" | "End" | "PageUp" | "PageDown"
  | "Tab" | "BackTab" | "Delete" | "Insert" | "Null" | "Esc" | "CapsLock" | "ScrollLock" | "NumLock"
  | "PrintScreen" | "Pause" | "Menu" | "KeypadBegin"
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
function parse(s: unknown, names: [number, string][]): number {
  if (typeof s !== "string") return 0;
  let bits = 0;
  for (const part of s.split("|")) {
    const p = part.trim().toUpperCase();
    const hit = names.find(([, n]) => n === p);
    if (hit) bits |= hit[0];
    // "NONE", "" and unknown flags contribute nothing, as a lenient reader should.
  }
  return bits;
}

export const formatMods = (bits: number) => fmt(bits, MOD_NAMES);
export const parseMods = (s: unknown) => parse(s, MOD_NAMES);
export const formatState = (bits: number) => fmt(bits, STATE_NAMES);
export const parseState = (s: unknown) => parse(s, STATE_NAMES);

export function keyEvent(code: KeyCode, mods = 0, kind: KeyKind = "Press", state = 0): TermEvent {
  return { Key: { code, modifiers: formatMods(mods), kind, state: formatState(state) } };
}

/** Narrow an untrusted JSON value to a TermEvent, or null for anything we do not know. */
export function asTermEvent(v: unknown): TermEvent | null {
  if (v === "FocusGained" || v === "FocusLost") return v;
  if (!v || typeof v !== "object") return null;
  const o = v as Record<string, any>;
  if (o.Key && typeof o.Key === "object" && o.Key.code !== undefined) return o as TermEvent;
  if (o.Mouse && typeof o.Mouse === "object" && typeof o.Mouse.column === "number") return o as TermEvent;
  if (typeof o.Paste === "string") return o as TermEvent;
  if (Array.isArray(o.Resize) && o.Resize.length === 2) return o as TermEvent;
  return null;
}
