import { describe, expect, test } from "bun:test";
import { InputParser } from "../src/protocol/input-parser";
import type { KeyCode, KeyKind, TermEvent } from "../src/protocol/events";

const key = (code: KeyCode, modifiers = "", kind: KeyKind = "Press", state = ""): TermEvent => ({ Key: { code, modifiers, kind, state } });
const parse = (s: string): TermEvent[] => new InputParser().feed(s);

describe("input parser", () => {
  test("plain characters, upper case carries SHIFT, UTF-8", () => {
    expect(parse("a")).toEqual([key({ Char: "a" })]);
    expect(parse("A")).toEqual([key({ Char: "A" }, "SHIFT")]);
    expect(parse("é中")).toEqual([key({ Char: "é" }), key({ Char: "中" })]);
  });

  test("control bytes as crossterm gives them", () => {
    expect(parse("\x00")).toEqual([key({ Char: " " }, "CONTROL")]);
    expect(parse("\x01")).toEqual([key({ Char: "a" }, "CONTROL")]);
    expect(parse("\r\t\x7f")).toEqual([key("Enter"), key("Tab"), key("Backspace")]);
    // FS GS RS US: Ctrl+\ ] ^ _, as xterm, kitty and tmux read them (crossterm says Ctrl+4…7).
    expect(parse("\x1c\x1d\x1e\x1f")).toEqual(["\\", "]", "^", "_"].map((c) => key({ Char: c }, "CONTROL")));
    expect(parse("\x08\x0a")).toEqual([key({ Char: "h" }, "CONTROL"), key({ Char: "j" }, "CONTROL")]);
  });

  test("alt via ESC prefix", () => {
    expect(parse("\x1bx")).toEqual([key({ Char: "x" }, "ALT")]);
    expect(parse("\x1b\x01")).toEqual([key({ Char: "a" }, "CONTROL | ALT")]);
  });

  test("cursor and function keys, with xterm modifier params", () => {
    expect(parse("\x1b[A\x1bOB\x1b[H\x1b[F")).toEqual([key("Up"), key("Down"), key("Home"), key("End")]);
    expect(parse("\x1b[1;4D")).toEqual([key("Left", "SHIFT | ALT")]);
    expect(parse("\x1b[1;5C")).toEqual([key("Right", "CONTROL")]);
    expect(parse("\x1bOP\x1b[15~\x1b[24;2~")).toEqual([key({ F: 1 }), key({ F: 5 }), key({ F: 12 }, "SHIFT")]);
    expect(parse("\x1b[3~\x1b[5~\x1b[6~\x1b[2~")).toEqual([key("Delete"), key("PageUp"), key("PageDown"), key("Insert")]);
    expect(parse("\x1b[Z")).toEqual([key("BackTab", "SHIFT")]);
  });

  test("modifyOtherKeys and CSI-u / kitty", () => {
    expect(parse("\x1b[27;5;105~")).toEqual([key({ Char: "i" }, "CONTROL")]);
    expect(parse("\x1b[105;5u")).toEqual([key({ Char: "i" }, "CONTROL")]);
    expect(parse("\x1b[32;5u")).toEqual([key({ Char: " " }, "CONTROL")]);
    expect(parse("\x1b[13;2u")).toEqual([key("Enter", "SHIFT")]);
    expect(parse("\x1b[97;1:3u")).toEqual([key({ Char: "a" }, "", "Release")]);
    expect(parse("\x1b[97:65;2u")).toEqual([key({ Char: "A" }, "SHIFT")]);
    expect(parse("\x1b[57399u")).toEqual([key({ Char: "0" }, "", "Press", "KEYPAD")]);
    expect(parse("\x1b[1;5:2A")).toEqual([key("Up", "CONTROL", "Repeat")]);
  });

  test("SGR and X10 mouse", () => {
    expect(parse("\x1b[<0;11;4M")).toEqual([{ Mouse: { kind: { Down: "Left" }, column: 10, row: 3, modifiers: "" } }]);
    expect(parse("\x1b[<0;11;4m")).toEqual([{ Mouse: { kind: { Up: "Left" }, column: 10, row: 3, modifiers: "" } }]);
    expect(parse("\x1b[<64;11;4M")).toEqual([{ Mouse: { kind: "ScrollUp", column: 10, row: 3, modifiers: "" } }]);
    expect(parse("\x1b[<65;1;1M")).toEqual([{ Mouse: { kind: "ScrollDown", column: 0, row: 0, modifiers: "" } }]);
    expect(parse("\x1b[<32;5;6M")).toEqual([{ Mouse: { kind: { Drag: "Left" }, column: 4, row: 5, modifiers: "" } }]);
    expect(parse("\x1b[<35;5;6M")).toEqual([{ Mouse: { kind: "Moved", column: 4, row: 5, modifiers: "" } }]);
    expect(parse("\x1b[<18;5;6M")).toEqual([{ Mouse: { kind: { Down: "Right" }, column: 4, row: 5, modifiers: "CONTROL" } }]);
    expect(parse("\x1b[M" + String.fromCharCode(32, 43, 36))).toEqual([{ Mouse: { kind: { Down: "Left" }, column: 10, row: 3, modifiers: "" } }]);
  });

  test("bracketed paste, focus", () => {
    expect(parse("\x1b[200~hi\x1b[A\r\x1b[201~x")).toEqual([{ Paste: "hi\x1b[A\r" }, key({ Char: "x" })]);
    expect(parse("\x1b[I\x1b[O")).toEqual(["FocusGained", "FocusLost"]);
  });

  test("sequences split across chunks, at every byte", () => {
    const input = "a\x1b[1;5C\x1b[<0;11;4M\x1b[200~pasted text\x1b[201~é\x1b[105;5u\x00";
    const whole = parse(input);
    expect(whole.length).toBe(7);
    const bytes = new TextEncoder().encode(input);
    for (let step = 1; step < 8; step++) {
      const p = new InputParser();
      const got = [];
      for (let i = 0; i < bytes.length; i += step) got.push(...p.feed(bytes.subarray(i, i + step)));
      expect(got).toEqual(whole);
    }
  });

  test("lone ESC waits for the timeout; ESC then key is Alt", () => {
    const p = new InputParser();
    expect(p.feed("\x1b")).toEqual([]);
    expect(p.pending).toBe(true);
    expect(p.flush()).toEqual([key("Esc")]);
    expect(p.pending).toBe(false);
    expect(p.feed("\x1b")).toEqual([]);
    expect(p.feed("[")).toEqual([]);
    expect(p.flush()).toEqual([key({ Char: "[" }, "ALT")]);
  });

  test("ESC ESC is two Esc keys, in one read or split, and ESC ESC [ A is Esc then Up (as tmux 3.3 reads it)", () => {
    const p = new InputParser();
    expect(p.feed("\x1b\x1b")).toEqual([key("Esc")]);
    expect(p.pending).toBe(true);
    expect(p.flush()).toEqual([key("Esc")]);
    expect(parse("\x1b\x1b[A")).toEqual([key("Esc"), key("Up")]);
    expect(parse("\x1b\x1bx")).toEqual([key("Esc"), key({ Char: "x" }, "ALT")]);
    const q = new InputParser();
    expect([...q.feed("\x1b\x1b\x1b"), ...q.flush()]).toEqual([key("Esc"), key("Esc"), key("Esc")]);
  });

  test("the keypad's SS3 forms (application keypad) are keypad keys", () => {
    expect(parse("\x1bOm\x1bOp\x1bOy\x1bOk\x1bOj\x1bOo\x1bOn\x1bOM")).toEqual([
      key({ Char: "-" }, "", "Press", "KEYPAD"), key({ Char: "0" }, "", "Press", "KEYPAD"), key({ Char: "9" }, "", "Press", "KEYPAD"),
      key({ Char: "+" }, "", "Press", "KEYPAD"), key({ Char: "*" }, "", "Press", "KEYPAD"), key({ Char: "/" }, "", "Press", "KEYPAD"),
      key({ Char: "." }, "", "Press", "KEYPAD"), key("Enter", "", "Press", "KEYPAD"),
    ]);
  });

  test("modified Enter, Tab and Esc in kitty (CSI u) and modifyOtherKeys (CSI 27 ; m ; k ~) forms keep their modifiers", () => {
    expect(parse("\x1b[13;2u\x1b[27;2;13~")).toEqual([key("Enter", "SHIFT"), key("Enter", "SHIFT")]);
    expect(parse("\x1b[13;5u\x1b[9;5u\x1b[27;3u\x1b[27u")).toEqual([key("Enter", "CONTROL"), key("Tab", "CONTROL"), key("Esc", "ALT"), key("Esc")]);
    expect(parse("\x1b[9;2u\x1b[27;2;9~\x1b[Z")).toEqual([key("BackTab", "SHIFT"), key("BackTab", "SHIFT"), key("BackTab", "SHIFT")]);
    expect(parse("\x1b[99;5u\x1b[27;5;99~")).toEqual([key({ Char: "c" }, "CONTROL"), key({ Char: "c" }, "CONTROL")]);
  });

  test("unknown sequences are dropped without eating what follows", () => {
    expect(parse("\x1b[?1;2cq")).toEqual([key({ Char: "q" })]);
    expect(parse("\x1b[99~z")).toEqual([key({ Char: "z" })]);
  });

  test("the terminal's answers to the keyboard query are reported, not typed, whatever surrounds them", () => {
    const replies: unknown[] = [];
    const p = new InputParser((r) => replies.push(r));
    expect(p.feed("a\x1b[?0u\x1b[?62;22cb\x1b[?1")).toEqual([key({ Char: "a" }), key({ Char: "b" })]);
    expect(p.feed(";2c\x1b[?15u")).toEqual([]);
    expect(replies).toEqual(["kitty-flags", "device-attributes", "device-attributes", "kitty-flags"]);
    // A kitty key (no "?") is a key still.
    expect(p.feed("\x1b[13;2u")).toEqual([key("Enter", "SHIFT")]);
  });
});

describe("the terminal's answers to ws's questions about it", () => {
  const replies = (...chunks: string[]) => {
    const got: unknown[] = [];
    const p = new InputParser((r) => got.push(r));
    const events = chunks.flatMap((c) => p.feed(c));
    return { got, events, flushed: p.flush() };
  };

  test("OSC colour answers (BEL or ST) and XTVERSION are replies, never keys, whole or split", () => {
    const all = "\x1b]11;rgb:1111/2222/3333\x07\x1b]4;1;rgb:cdcd/0000/0000\x1b\\\x1bP>|tmux 3.3a\x1b\\x";
    const want = [{ osc: "11;rgb:1111/2222/3333" }, { osc: "4;1;rgb:cdcd/0000/0000" }, { xtversion: "tmux 3.3a" }];
    const whole = replies(all);
    expect(whole.got).toEqual(want);
    expect(whole.events).toEqual([key({ Char: "x" })]);
    for (let i = 1; i < all.length; i++) {
      const split = replies(all.slice(0, i), all.slice(i));
      expect(split.got).toEqual(want);
      expect(split.events).toEqual([key({ Char: "x" })]);
    }
  });

  test("ESC ] and ESC P that are not answers stay keys: M-], M-P, and an unended one once the ESC timeout is up", () => {
    expect(replies("\x1b]").flushed).toEqual([key({ Char: "]" }, "ALT")]);
    expect(replies("\x1b]x").events).toEqual([key({ Char: "]" }, "ALT"), key({ Char: "x" })]);
    expect(replies("\x1bPa").events).toEqual([key({ Char: "P" }, "SHIFT | ALT"), key({ Char: "a" })]);
    const unended = replies("\x1b]1");
    expect(unended.events).toEqual([]);
    expect(unended.flushed).toEqual([key({ Char: "]" }, "ALT"), key({ Char: "1" })]);
    expect(unended.got).toEqual([]);
  });
});
