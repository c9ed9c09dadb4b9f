import { describe, expect, test } from "bun:test";
import { Terminal } from "@xterm/headless";
import { encodeEvent, modesOf, DEFAULT_MODES, type PaneInputModes } from "../src/model/key-encoder";
import { trackModes } from "../src/model/emulator-modes";
import { InputParser } from "../src/protocol/input-parser";
import type { KeyCode, KeyKind, TermEvent } from "../src/protocol/events";

const key = (code: KeyCode, modifiers = "", kind: KeyKind = "Press", state = ""): TermEvent => ({ Key: { code, modifiers, kind, state } });
const enc = (ev: TermEvent, m: Partial<PaneInputModes> = {}) => encodeEvent(ev, { ...DEFAULT_MODES, ...m });
const write = (t: Terminal, s: string) => new Promise<void>((r) => t.write(s, r));

describe("key encoder", () => {
  test("chars, control, alt", () => {
    expect(enc(key({ Char: "a" }))).toBe("a");
    expect(enc(key({ Char: "A" }, "SHIFT"))).toBe("A");
    expect(enc(key({ Char: "c" }, "CONTROL"))).toBe("\x03");
    expect(enc(key({ Char: " " }, "CONTROL"))).toBe("\x00");
    expect(enc(key({ Char: "x" }, "ALT"))).toBe("\x1bx");
    expect(enc(key({ Char: "a" }, "NONE"))).toBe("a");
    expect(enc(key("Enter"))).toBe("\r");
    expect(enc(key("Backspace"))).toBe("\x7f");
    expect(enc(key("Tab", "SHIFT"))).toBe("\x1b[Z");
    expect(enc(key({ Char: "a" }, "", "Release"))).toBeNull();
  });

  test("cursor keys follow application cursor mode; modifiers use CSI 1;m", () => {
    expect(enc(key("Up"))).toBe("\x1b[A");
    expect(enc(key("Up"), { applicationCursorKeys: true })).toBe("\x1bOA");
    expect(enc(key("Left", "SHIFT | ALT"))).toBe("\x1b[1;4D");
    expect(enc(key("Right", "CONTROL"), { applicationCursorKeys: true })).toBe("\x1b[1;5C");
    expect(enc(key("PageDown"))).toBe("\x1b[6~");
    expect(enc(key("Delete", "CONTROL"))).toBe("\x1b[3;5~");
    expect(enc(key({ F: 1 }))).toBe("\x1bOP");
    expect(enc(key({ F: 5 }))).toBe("\x1b[15~");
    expect(enc(key({ F: 12 }, "SHIFT"))).toBe("\x1b[24;2~");
    expect(enc(key({ Char: "5" }, "", "Press", "KEYPAD"), { applicationKeypad: true })).toBe("\x1bOu");
  });

  test("paste honours bracketed paste mode", () => {
    expect(enc({ Paste: "a\rb" })).toBe("a\rb");
    expect(enc({ Paste: "x\x1b[201~y" }, { bracketedPaste: true })).toBe("\x1b[200~x[201~y\x1b[201~");
    // A bracketed paste carries no control but tab, CR and LF: a tty would consume ^S/^Q and join a marker.
    expect(enc({ Paste: "a\x1b[20\x13\x111~\tb\r\nc\x7f\u009b" }, { bracketedPaste: true })).toBe("\x1b[200~a[201~\tb\r\nc\x1b[201~");
  });

  test("focus only when the program asked", () => {
    expect(enc("FocusGained")).toBeNull();
    expect(enc("FocusLost", { sendFocus: true })).toBe("\x1b[O");
  });

  test("mouse per tracking mode and encoding", () => {
    const down: TermEvent = { Mouse: { kind: { Down: "Left" }, column: 4, row: 2, modifiers: "" } };
    const up: TermEvent = { Mouse: { kind: { Up: "Left" }, column: 4, row: 2, modifiers: "" } };
    const drag: TermEvent = { Mouse: { kind: { Drag: "Left" }, column: 4, row: 2, modifiers: "" } };
    const wheel: TermEvent = { Mouse: { kind: "ScrollDown", column: 0, row: 0, modifiers: "CONTROL" } };
    expect(enc(down)).toBeNull();
    expect(enc(down, { mouseTracking: "vt200", mouseEncoding: "sgr" })).toBe("\x1b[<0;5;3M");
    expect(enc(up, { mouseTracking: "vt200", mouseEncoding: "sgr" })).toBe("\x1b[<0;5;3m");
    expect(enc(up, { mouseTracking: "vt200" })).toBe("\x1b[M#%#");
    expect(enc(drag, { mouseTracking: "vt200", mouseEncoding: "sgr" })).toBeNull();
    expect(enc(drag, { mouseTracking: "drag", mouseEncoding: "sgr" })).toBe("\x1b[<32;5;3M");
    expect(enc(wheel, { mouseTracking: "vt200", mouseEncoding: "sgr" })).toBe("\x1b[<81;1;1M");
    expect(enc(down, { mouseTracking: "x10" })).toBe("\x1b[M %#");
  });

  test("round trip: parser output re-encodes to the original bytes", () => {
    for (const s of ["a", "\x03", "\x1bx", "\x1b[A", "\x1b[1;5C", "\x1b[3~", "\x1bOP", "\x1b[15~", "\x7f", "\r", "\x00"]) {
      const [ev] = new InputParser().feed(s);
      expect(enc(ev!)).toBe(s);
    }
  });

  test("modes tracked from a real xterm", async () => {
    const t = new Terminal({ cols: 20, rows: 5, allowProposedApi: true });
    const extra = trackModes(t);
    await write(t, "\x1b[?1h\x1b[?2004h\x1b[?1002h\x1b[?1006h\x1b[?1004h\x1b[5 q\x1b[?25l");
    const m = modesOf(t, extra);
    expect(m).toEqual({ applicationCursorKeys: true, applicationKeypad: false, bracketedPaste: true, mouseTracking: "drag", mouseEncoding: "sgr", sendFocus: true, kittyFlags: 0, modifyOtherKeys: 0 });
    expect(extra.cursorShape).toBe(5);
    expect(extra.cursorHidden).toBe(true);
    await write(t, "\x1b[?1006l\x1b[?25h");
    expect(extra.mouseEncoding).toBe("default");
    expect(extra.cursorHidden).toBe(false);
  });

  test("kitty keyboard flags: push, pop and set per screen; RIS clears them", async () => {
    const t = new Terminal({ cols: 20, rows: 5, allowProposedApi: true });
    const extra = trackModes(t);
    const flags = () => modesOf(t, extra).kittyFlags;
    expect(flags()).toBe(0);
    await write(t, "\x1b[>1u");
    expect(flags()).toBe(1);
    await write(t, "\x1b[>9u\x1b[=2;3u");
    expect(flags()).toBe(9 & ~2);
    await write(t, "\x1b[=4;2u");
    expect(flags()).toBe(13);
    await write(t, "\x1b[<u");
    expect(flags()).toBe(1);
    // The alternate screen has its own stack: a program that leaves it unpopped leaves the main one as it was.
    await write(t, "\x1b[?1049h\x1b[>8u");
    expect(flags()).toBe(8);
    await write(t, "\x1b[?1049l");
    expect(flags()).toBe(1);
    await write(t, "\x1b[<5u");
    expect(flags()).toBe(0);
    await write(t, "\x1b[>1u\x1bc");
    expect(flags()).toBe(0);
    // CSI u with no prefix is still xterm's restore-cursor, not ours.
    await write(t, "\x1b[>1u\x1b[u");
    expect(flags()).toBe(1);
  });

  test("kitty flag 1 (disambiguate): Esc and modified keys as CSI u, text and plain Enter/Tab/Backspace as before", () => {
    const k = { kittyFlags: 1 };
    expect(enc(key("Esc"), k)).toBe("\x1b[27u");
    expect(enc(key({ Char: "c" }, "CONTROL"), k)).toBe("\x1b[99;5u");
    expect(enc(key({ Char: "x" }, "ALT"), k)).toBe("\x1b[120;3u");
    expect(enc(key({ Char: "A" }, "ALT"), k)).toBe("\x1b[97;4u");
    expect(enc(key({ Char: " " }, "CONTROL"), k)).toBe("\x1b[32;5u");
    expect(enc(key({ Char: "a" }), k)).toBe("a");
    expect(enc(key({ Char: "A" }, "SHIFT"), k)).toBe("A");
    expect(enc(key("Enter"), k)).toBe("\r");
    expect(enc(key("Tab"), k)).toBe("\t");
    expect(enc(key("Backspace"), k)).toBe("\x7f");
    expect(enc(key("Enter", "SHIFT"), k)).toBe("\x1b[13;2u");
    expect(enc(key("Tab", "SHIFT"), k)).toBe("\x1b[9;2u");
    expect(enc(key("BackTab"), k)).toBe("\x1b[9;2u");
    expect(enc(key("Up"), { ...k, applicationCursorKeys: true })).toBe("\x1b[A");
    expect(enc(key("Left", "CONTROL"), k)).toBe("\x1b[1;5D");
    expect(enc(key({ F: 1 }), k)).toBe("\x1b[P");
    expect(enc(key({ F: 3 }), k)).toBe("\x1b[13~");
    expect(enc(key({ F: 2 }, "SHIFT"), k)).toBe("\x1b[1;2Q");
    expect(enc(key({ F: 5 }), k)).toBe("\x1b[15~");
    expect(enc(key("PageUp"), k)).toBe("\x1b[5~");
    expect(enc(key("Enter", "", "Press", "KEYPAD"), k)).toBe("\x1b[57414u");
  });

  test("a pane that asked for nothing: modifiers with no legacy form as tmux's extended keys (CSI u), the rest as before", () => {
    expect(enc(key("Enter", "SHIFT"))).toBe("\x1b[13;2u");
    expect(enc(key("Enter", "CONTROL"))).toBe("\x1b[13;5u");
    expect(enc(key("Enter", "ALT"))).toBe("\x1b\r");
    expect(enc(key("Tab", "CONTROL"))).toBe("\x1b[9;5u");
    expect(enc(key("BackTab", "SHIFT | CONTROL"))).toBe("\x1b[9;6u");
    expect(enc(key("BackTab", "SHIFT"))).toBe("\x1b[Z");
    expect(enc(key("Tab", "SHIFT"))).toBe("\x1b[Z");
    expect(enc(key("Tab", "ALT"))).toBe("\x1b\t");
    expect(enc(key("Esc", "ALT"))).toBe("\x1b\x1b");
    expect(enc(key({ Char: "1" }, "CONTROL"))).toBe("\x1b[49;5u");
    expect(enc(key({ Char: "a" }, "CONTROL"))).toBe("\x01");
    expect(enc(key("Enter", "", "Press", "KEYPAD"), { applicationKeypad: true })).toBe("\x1bOM");
    expect(enc(key({ Char: "-" }, "", "Press", "KEYPAD"), { applicationKeypad: true })).toBe("\x1bOm");
    expect(enc(key({ Char: "-" }, "", "Press", "KEYPAD"))).toBe("-");
  });

  test("modifyOtherKeys 1: keys without a well-known form as CSI 27 ; m ; k ~; level 2: every key with Ctrl or Alt", () => {
    const one = { modifyOtherKeys: 1 };
    expect(enc(key("Enter", "SHIFT"), one)).toBe("\x1b[27;2;13~");
    expect(enc(key("Tab", "CONTROL"), one)).toBe("\x1b[27;5;9~");
    expect(enc(key("Esc", "ALT"), one)).toBe("\x1b\x1b");
    expect(enc(key("BackTab", "SHIFT"), one)).toBe("\x1b[Z");
    expect(enc(key({ Char: "a" }, "CONTROL"), one)).toBe("\x01");
    expect(enc(key({ Char: "x" }, "ALT"), one)).toBe("\x1bx");
    expect(enc(key({ Char: "1" }, "CONTROL"), one)).toBe("\x1b[27;5;49~");
    expect(enc(key({ Char: "A" }, "SHIFT"), one)).toBe("A");
    const two = { modifyOtherKeys: 2 };
    expect(enc(key({ Char: "a" }, "CONTROL"), two)).toBe("\x1b[27;5;97~");
    expect(enc(key({ Char: "x" }, "ALT"), two)).toBe("\x1b[27;3;120~");
    expect(enc(key("Esc", "ALT"), two)).toBe("\x1b[27;3;27~");
    expect(enc(key("BackTab", "SHIFT"), two)).toBe("\x1b[27;2;9~");
    expect(enc(key({ Char: "A" }, "SHIFT"), two)).toBe("A");
    expect(enc(key("Enter"), two)).toBe("\r");
    expect(enc(key("Up", "CONTROL"), two)).toBe("\x1b[1;5A");
    // Kitty flags, when both are set, win.
    expect(enc(key("Enter", "SHIFT"), { modifyOtherKeys: 2, kittyFlags: 1 })).toBe("\x1b[13;2u");
  });

  test("modifyOtherKeys is tracked from a real xterm: CSI > 4 ; n m sets it, CSI > 4 m and RIS reset it", async () => {
    const t = new Terminal({ cols: 20, rows: 5, allowProposedApi: true });
    const extra = trackModes(t);
    await write(t, "\x1b[>4;2m");
    expect(modesOf(t, extra).modifyOtherKeys).toBe(2);
    await write(t, "\x1b[>4;1m\x1b[>1;2m");
    expect(modesOf(t, extra).modifyOtherKeys).toBe(1);
    await write(t, "\x1b[>4m");
    expect(modesOf(t, extra).modifyOtherKeys).toBe(0);
    await write(t, "\x1b[>4;2m\x1bc");
    expect(modesOf(t, extra).modifyOtherKeys).toBe(0);
  });

  test("kitty flag 8 (all keys as escape codes): text and Enter too", () => {
    const k = { kittyFlags: 8 };
    expect(enc(key({ Char: "a" }), k)).toBe("\x1b[97u");
    expect(enc(key({ Char: "A" }, "SHIFT"), k)).toBe("\x1b[97;2u");
    expect(enc(key("Enter"), k)).toBe("\x1b[13u");
    expect(enc(key("Backspace"), k)).toBe("\x1b[127u");
    expect(enc(key({ Char: "5" }, "", "Press", "KEYPAD"), k)).toBe("\x1b[57404u");
    // Flags ws does not encode (2, 4, 16) alone change nothing.
    expect(enc(key("Esc"), { kittyFlags: 2 | 4 | 16 })).toBe("\x1b");
  });
});
