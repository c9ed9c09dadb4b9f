// The terminal-safe text rules (src/safe-text.ts): the fast loop `hasUnsafe` and the regex
// unsafeChars() that does the replacing must agree on every UTF-16 code unit, and the named classes
// build exactly the sets the docs list (docs/security.md "Terminal-safe output").
import { expect, test } from "bun:test";
import { CHARS, charClass, controlChars, hasUnsafe, safeJson, safeLine, logValue, safeText, unsafeChars } from "../src/safe-text";

const one = (re: RegExp, c: string) => {
  re.lastIndex = 0;
  return re.test(c);
};

test("hasUnsafe and unsafeChars() agree on all 65,536 code units", () => {
  const disagree: number[] = [];
  let unsafe = 0;
  for (let n = 0; n <= 0xffff; n++) {
    const c = String.fromCharCode(n);
    const byRegex = one(unsafeChars(), c);
    if (byRegex) unsafe++;
    if (hasUnsafe(c) !== byRegex || hasUnsafe(`ok ${c} ok`) !== byRegex) disagree.push(n);
  }
  expect(disagree).toEqual([]);
  // 30 C0 (all but tab, newline) + DEL + 32 C1 + 3 marks + 2 separators + 5 embeddings + 4 isolates
  expect(unsafe).toBe(30 + 1 + 32 + 3 + 2 + 5 + 4);
});

test("the classes hold exactly the characters they name", () => {
  const members = (re: RegExp) => {
    const out: number[] = [];
    for (let n = 0; n <= 0xffff; n++) if (one(re, String.fromCharCode(n))) out.push(n);
    return out;
  };
  const range = (a: number, b: number) => Array.from({ length: b - a + 1 }, (_, i) => a + i);
  expect(members(controlChars())).toEqual([...range(0, 0x1f), ...range(0x7f, 0x9f)]);
  expect(members(unsafeChars())).toEqual([
    ...range(0, 8),
    ...range(0x0b, 0x1f),
    ...range(0x7f, 0x9f),
    0x61c,
    0x200e,
    0x200f,
    0x2028,
    0x2029,
    ...range(0x202a, 0x202e),
    ...range(0x2066, 0x2069),
  ]);
  expect(members(charClass(["zeroWidth"]))).toEqual([0x200b, 0x200c, 0x200d]);
  // Every named class is a non-empty set within the BMP.
  for (const name of Object.keys(CHARS) as (keyof typeof CHARS)[]) expect(members(charClass([name])).length).toBeGreaterThan(0);
});

test("unsafe characters are shown visibly; JSON stays exact", () => {
  expect(safeText("a\x1b]52;c;x\x07b\u202e")).toBe("a^[]52;c;x^Gb<U+202E>");
  expect(safeText("\x1b[1mbold\x1b[0m\x9b", { keepSgr: true })).toBe("\x1b[1mbold\x1b[0m<U+009B>");
  const json = safeJson(JSON.stringify({ t: "x\x7f\u2066" }));
  expect(json).toBe('{"t":"x\\u007f\\u2066"}');
  expect(JSON.parse(json).t).toBe("x\x7f\u2066");
  expect(safeText("tab\tand\nnewline")).toBe("tab\tand\nnewline");
});

test("a log line's quote uses JSON's escapes, one line, with nothing a terminal acts on", () => {
  const raw = "a\tb\nc\x1b[2J\x7f\x9b\u202e";
  const line = safeLine(raw);
  expect(line).toBe("a\\u0009b\\u000ac\\u001b[2J\\u007f\\u009b\\u202e");
  expect(JSON.parse(`"${line}"`)).toBe(raw);
  // logValue() is JSON's form of a value, cut short, then the same escapes.
  expect(logValue({ t: "\u2066x" })).toBe('{"t":"\\u2066x"}');
  expect(logValue("x".repeat(50))).toBe(`"${"x".repeat(39)}…`);
});
