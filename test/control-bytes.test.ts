// Every byte a terminal without extended keys sends for a control key (0x00–0x1f, 0x7f), read as
// xterm, kitty and tmux read it and sent on to a program in each key encoding it can ask for:
// legacy, modifyOtherKeys 1 and 2, kitty flags 1 (disambiguate) and 8 (all keys as escapes).
// The expected bytes are xterm's (modifyOtherKeys) and kitty's (CSI u) for that key.
import { describe, expect, test } from "bun:test";
import { encodeEvent, DEFAULT_MODES } from "../src/model/key-encoder";
import { InputParser } from "../src/protocol/input-parser";
import { CONTROL_BYTES, KEY_MODES, expectedForControlByte } from "./control-key-table";

describe("control bytes through every key encoding", () => {
  for (const mode of Object.keys(KEY_MODES)) {
    test(mode, () => {
      const got: string[] = [], want: string[] = [];
      for (const b of CONTROL_BYTES) {
        const p = new InputParser();
        const evs = [...p.feed(new Uint8Array([b])), ...p.flush()];
        expect(evs.length).toBe(1);
        got.push(`${b.toString(16)} → ${JSON.stringify(encodeEvent(evs[0]!, { ...DEFAULT_MODES, ...KEY_MODES[mode]!.modes }))}`);
        want.push(`${b.toString(16)} → ${JSON.stringify(expectedForControlByte(b, mode))}`);
      }
      expect(got).toEqual(want);
    });
  }

  test("Ctrl with the shifted punctuation keeps X11's control bytes: Ctrl+` { | } ~ are NUL ESC FS GS RS", () => {
    const ctrl = (c: string) => encodeEvent({ Key: { code: { Char: c }, modifiers: "CONTROL", kind: "Press", state: "" } }, DEFAULT_MODES);
    expect(["`", "{", "|", "}", "~"].map(ctrl)).toEqual(["\x00", "\x1b", "\x1c", "\x1d", "\x1e"]);
  });
});
