// A resting pane's text for the save (src/model/rested-text.ts), read from what its emulator left
// without making it again: after each step, the same text a plain Emulator fed the same bytes
// gives, and the pane still at rest.
import { expect, test } from "bun:test";
import { Emulator } from "../src/model/emulator";
import { RestingEmulator } from "../src/model/resting-emulator";
import { waitFor } from "./harness";

/** A short rest, so each step's rest comes quickly. */
const REST = 40;
const enc = new TextEncoder();

test("a resting pane's text is the live one's, and reading it leaves the pane at rest", async () => {
  const o = { cols: 40, rows: 10, scrollback: 500 };
  const resting = new RestingEmulator(o, REST);
  const plain = new Emulator(o);
  const steps: [string, string | (() => void)][] = [
    ["a few lines", "one\r\ntwo  \r\n\r\nthree\r\n"],
    ["history into the store", Array.from({ length: 300 }, (_, i) => `line ${i} 漢字 e\u0301 \x1b[31mred\x1b[0m ${"x".repeat(i % 45)}\r\n`).join("")],
    ["a line wrapping across store and screen", `${"long ".repeat(1200)}`],
    ["its end", "END\r\n"],
    ["an early wrap before a wide character", `${"y".repeat(39)}漢字\r\n`],
    ["full rows, trailing spaces", `${"z".repeat(40)}${" ".repeat(40)}\r\n`],
    ["the alternate screen shown", "\x1b[?1049h\x1b[H\x1b[2Jfull screen"],
    ["back", "\x1b[?1049lafter\r\n"],
    ["narrower", () => (resting.resize(25, 10), plain.resize(25, 10))],
    ["more after the resize", Array.from({ length: 40 }, (_, i) => `after ${i} ${"w".repeat(i)}\r\n`).join("")],
    ["history cleared", "\x1b[3J\x1b[H\x1b[2Jclean\r\n"],
  ];
  for (const [what, bytes] of steps) {
    if (typeof bytes === "function") bytes();
    else {
      resting.parse!(enc.encode(bytes));
      plain.parse(enc.encode(bytes));
    }
    await waitFor(`the emulator to rest after ${what}`, () => resting.resting, 5000, 10).catch(() => undefined);
    expect([what, resting.resting]).toEqual([what, true]);
    const text = resting.captureText(false);
    expect([what, resting.resting]).toEqual([what, true]);
    expect([what, text]).toEqual([what, plain.captureText(false)]);
  }
  resting.dispose();
  plain.dispose();
});
