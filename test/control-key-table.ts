// What a terminal without extended keys sends for a control key (0x00–0x1f, 0x7f), and what a
// program gets for it in each key encoding it can ask for: xterm's bytes (legacy, modifyOtherKeys)
// and kitty's (CSI u). Shared by the encoder's table test and the raw readers in real panes.
import type { PaneInputModes } from "../src/model/key-encoder";

/** The encodings, by name: what the program set, and the bytes it writes to ask for it. */
export const KEY_MODES: Record<string, { modes: Partial<PaneInputModes>; setup: string }> = {
  legacy: { modes: {}, setup: "" },
  mok1: { modes: { modifyOtherKeys: 1 }, setup: "\x1b[>4;1m" },
  mok2: { modes: { modifyOtherKeys: 2 }, setup: "\x1b[>4;2m" },
  kitty1: { modes: { kittyFlags: 1 }, setup: "\x1b[>1u" },
  kitty8: { modes: { kittyFlags: 9 }, setup: "\x1b[>9u" },
};

export const CONTROL_BYTES = [...Array.from({ length: 0x20 }, (_, i) => i), 0x7f];

/** What each byte is as a key: its character with Ctrl, or a named key. */
function keyOf(b: number): { ctrl: string } | { named: "Tab" | "Enter" | "Esc" | "Backspace"; cp: number } {
  if (b === 0x09) return { named: "Tab", cp: 9 };
  if (b === 0x0d) return { named: "Enter", cp: 13 };
  if (b === 0x1b) return { named: "Esc", cp: 27 };
  if (b === 0x7f) return { named: "Backspace", cp: 127 };
  if (b === 0x00) return { ctrl: " " };
  return { ctrl: String.fromCharCode(b >= 0x01 && b <= 0x1a ? b + 0x60 : b + 0x40) }; // ^A is Ctrl+a, FS is Ctrl+\
}

/** The bytes a program in `mode` gets for control byte `b`. */
export function expectedForControlByte(b: number, mode: string): string {
  const raw = String.fromCharCode(b);
  const k = keyOf(b);
  if ("named" in k) return mode === "kitty8" || (mode === "kitty1" && k.named === "Esc") ? `\x1b[${k.cp}u` : raw;
  const cp = k.ctrl.codePointAt(0)!;
  if (mode === "mok2") return `\x1b[27;5;${cp}~`;
  if (mode === "kitty1" || mode === "kitty8") return `\x1b[${cp};5u`;
  return raw; // legacy, and level 1 keeps every key that has a control byte
}
