// Every byte a terminal without extended keys sends for a control key (0x00–0x1f, 0x7f), read as
// xterm, kitty and tmux read it and sent on to a program in each key encoding it can ask for:
// legacy, modifyOtherKeys 1 and 2, kitty flags 1 (disambiguate) and 8 (all keys as escapes).
// The expected bytes are xterm's (modifyOtherKeys) and kitty's (CSI u) for that key.
import { describe, expect, test } from "bun:test";
import { encodeEvent, DEFAULT_MODES, type PaneInputModes } from "../src/model/key-encoder";
import { InputParser } from "../src/protocol/input-parser";

const MODES: Record<string, Partial<PaneInputModes>> = {
  legacy: {}, mok1: { modifyOtherKeys: 1 }, mok2: { modifyOtherKeys: 2 }, kitty1: { kittyFlags: 1 }, kitty8: { kittyFlags: 9 },
};

/** What each byte is as a key: its character with Ctrl, or a named key. */
function keyOf(b: number): { ctrl: string } | { named: "Tab" | "Enter" | "Esc" | "Backspace"; cp: number } {
  if (b === 0x09) return { named: "Tab", cp: 9 };
  if (b === 0x0d) return { named: "Enter", cp: 13 };
  if (b === 0x1b) return { named: "Esc", cp: 27 };
  if (b === 0x7f) return { named: "Backspace", cp: 127 };
  if (b === 0x00) return { ctrl: " " };
  return { ctrl: String.fromCharCode(b >= 0x01 && b <= 0x1a ? b + 0x60 : b + 0x40) }; // ^A is Ctrl+a, FS is Ctrl+\
}

function expected(b: number, mode: string): string {
  const raw = String.fromCharCode(b);
  const k = keyOf(b);
  if ("named" in k) return mode === "kitty8" || (mode === "kitty1" && k.named === "Esc") ? `\x1b[${k.cp}u` : raw;
  const cp = k.ctrl.codePointAt(0)!;
  if (mode === "mok2") return `\x1b[27;5;${cp}~`;
  if (mode === "kitty1" || mode === "kitty8") return `\x1b[${cp};5u`;
  return raw; // legacy, and level 1 keeps every key that has a control byte
}

const BYTES = [...Array.from({ length: 0x20 }, (_, i) => i), 0x7f];

describe("control bytes through every key encoding", () => {
  for (const mode of Object.keys(MODES)) {
    test(mode, () => {
      const got: string[] = [], want: string[] = [];
      for (const b of BYTES) {
        const p = new InputParser();
        const evs = [...p.feed(new Uint8Array([b])), ...p.flush()];
        expect(evs.length).toBe(1);
        got.push(`${b.toString(16)} → ${JSON.stringify(encodeEvent(evs[0]!, { ...DEFAULT_MODES, ...MODES[mode] }))}`);
        want.push(`${b.toString(16)} → ${JSON.stringify(expected(b, mode))}`);
      }
      expect(got).toEqual(want);
    });
  }

  test("Ctrl with the shifted punctuation keeps X11's control bytes: Ctrl+` { | } ~ are NUL ESC FS GS RS", () => {
    const ctrl = (c: string) => encodeEvent({ Key: { code: { Char: c }, modifiers: "CONTROL", kind: "Press", state: "" } }, DEFAULT_MODES);
    expect(["`", "{", "|", "}", "~"].map(ctrl)).toEqual(["\x00", "\x1b", "\x1c", "\x1d", "\x1e"]);
  });
});
