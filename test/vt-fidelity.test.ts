// VT100 behaviour vttest checks that xterm.js alone gets wrong, and the pages
// where ws already matched xterm (origin mode, CHT/HPR/VPR, the British set) kept so.
import { expect, test } from "bun:test";
import { Emulator } from "../src/model/emulator";

function emu(cols = 20, rows = 6): { e: Emulator; put: (s: string) => void; text: () => string } {
  const e = new Emulator({ cols, rows, scrollback: 10 });
  return { e, put: (s) => void e.parse(new TextEncoder().encode(s)), text: () => e.readPane({ source: "visible" }).text };
}

test("DECCOLM (CSI ? 3 h / l) clears the screen, resets the margins and homes the cursor; the size stays ws's", () => {
  const { e, put, text } = emu();
  for (const mode of ["h", "l"]) {
    put("hello\r\nworld\x1b[2;4r\x1b[3;3H");
    put(`\x1b[?3${mode}`);
    expect(text()).toBe("");
    expect([e.cursorX, e.cursorY]).toEqual([0, 0]);
    expect(e.cols).toBe(20);
    // Margins are the whole screen again: a line feed at the bottom row scrolls everything.
    put("top\x1b[6;1Hbottom\n");
    expect(text().split("\n")[0]).toBe("");
    expect(text()).toContain("bottom");
    put("\x1b[2J\x1b[H");
  }
  // Other private modes in the same sequence still apply; one without 3 clears nothing.
  put("keep\x1b[?25l");
  expect(text()).toBe("keep");
  put("\x1b[?25;3h");
  expect(text()).toBe("");
  expect(e.modes.cursorHidden).toBe(false);
});

test("DEC special graphics 0x2b–0x30 are xterm's arrows and block; the rest of the set as before", () => {
  const { put, text } = emu();
  put("\x1b(0+,-./0`aqx\x1b(B+,-./0");
  expect(text()).toBe("→←↑↓/▮◆▒─│+,-./0");
  // Through G1 and shift out / shift in too.
  put("\r\n\x1b)0\x0e+.\x0f+.");
  expect(text().split("\n")[1]).toBe("→↓+.");
});

test("origin mode, CHT/HPR/VPR and the British set work as in xterm", () => {
  const { e, put, text } = emu(20, 6);
  put("\x1b[2;5r\x1b[?6h\x1b[1;1HO\x1b[?6l\x1b[r"); // origin mode: row 1 is the margin's top
  expect(text().split("\n")[1]).toBe("O");
  put("\x1b[H\x1b[2J\x1b[2IX"); // CHT: two tab stops on
  expect(e.cursorX).toBe(17);
  put("\x1b[H\x1b[2J\x1b[3aY\x1b[2eZ"); // HPR 3, VPR 2
  expect(text().split("\n")[0]).toBe("   Y");
  expect(text().split("\n")[2]).toBe("    Z");
  put("\x1b[H\x1b[2J\x1b(A#\x1b(B#"); // British: # is £
  expect(text()).toBe("£#");
});
