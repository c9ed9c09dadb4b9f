// The width table (src/model/unicode-widths.generated.ts) is the Unicode data's: checked code point
// by code point against EastAsianWidth.txt, emoji-data.txt and DerivedCoreProperties.txt (the
// files themselves where WS_UCD_DIR names a directory of them, else the committed compact copy
// scripts/unicode-widths.ts wrote beside the table). Then a real program in a pane asks for the
// cursor's position after each Unicode 14/15 emoji and each format character, and the attach
// screen draws that row with everything after them in the right column.
import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { deriveWidths, readCompactCopy, readUcd, widthRuns, type WidthProps } from "../scripts/unicode-widths";
import { DOUBLE_WIDTH, ZERO_WIDTH } from "../src/model/unicode-widths.generated";
import { cellWidth, clusterWidth } from "../src/model/char-width";
import { Emulator } from "../src/model/emulator";
import { useServer, waitFor } from "./harness";
import { RawAttach } from "./raw-attach";
import { OuterTerminal } from "./outer-terminal";

const COPY = join(import.meta.dir, "fixtures", "ucd-widths.txt");
const dataDir = process.env.WS_UCD_DIR;
const props: WidthProps = (dataDir && readUcd(dataDir)) || readCompactCopy(readFileSync(COPY, "utf8"));

/** The Unicode 15 code points that are wide (all 20), and Unicode 14's the issue names. */
const UNICODE_15_WIDE = [0x1f6dc, 0x1fa75, 0x1fa76, 0x1fa77, 0x1fa87, 0x1fa88, 0x1faad, 0x1faae, 0x1faaf, 0x1fabb, 0x1fabc, 0x1fabd, 0x1fabf, 0x1face, 0x1facf, 0x1fada, 0x1fadb, 0x1fae8, 0x1faf7, 0x1faf8];
const UNICODE_14_NAMED = ["🫠", "🥹", "🛝", "🟰", "🪩", "🫸", "🫡", "🫶", "🧌", "🪬"];
/** Format characters wcwidth, xterm and tmux give no cell. */
const FORMAT = [0x200b, 0x200c, 0x200e, 0x200f, 0x2060, 0x2028, 0x2029, 0x1160, 0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069, 0x061c, 0xfeff, 0x180e, 0xe0001];

describe("the width table", () => {
  test(`matches the Unicode data, code point by code point (${dataDir ? "the data files" : "the compact copy"})`, () => {
    const want = widthRuns(deriveWidths(props));
    expect(ZERO_WIDTH).toEqual(want.zero);
    expect(DOUBLE_WIDTH).toEqual(want.wide);
    // And the lookup reads the table back right everywhere.
    const w = deriveWidths(props);
    const wrong: string[] = [];
    for (let cp = 0x300; cp < 0x110000 && wrong.length < 5; cp++) if (cellWidth(cp) !== w[cp]) wrong.push(cp.toString(16));
    expect(wrong).toEqual([]);
  });

  test("the compact copy holds what the table is made of", () => {
    expect(existsSync(COPY)).toBe(true);
    expect(props.wide.length).toBeGreaterThan(100);
    expect(props.ignorable.length).toBeGreaterThan(10);
  });

  test("Unicode 14 and 15 emoji are two cells; format characters none; half-width voiced marks one", () => {
    for (const cp of UNICODE_15_WIDE) expect([cp.toString(16), cellWidth(cp)]).toEqual([cp.toString(16), 2]);
    for (const e of UNICODE_14_NAMED) expect([e, cellWidth(e.codePointAt(0)!)]).toEqual([e, 2]);
    for (const cp of FORMAT) expect([cp.toString(16), cellWidth(cp)]).toEqual([cp.toString(16), 0]);
    // Every default-ignorable code point takes no cell but the soft hyphen (which wcwidth draws)
    // and the wide Hangul fillers (U+115F, U+3164: two cells, as East Asian Wide).
    const isWide = (cp: number) => props.wide.some(([a, b]) => cp >= a && cp <= b);
    for (const [a, b] of props.ignorable) for (let cp = a; cp <= b; cp++) if (cp !== 0xad && !isWide(cp)) expect(cellWidth(cp)).toBe(0);
    expect(cellWidth(0xad)).toBe(1);
    expect([cellWidth(0xff9e), cellWidth(0xff9f), cellWidth(0xff76)]).toEqual([1, 1, 1]);
    expect([cellWidth(0x115f), cellWidth(0x4e00), cellWidth(0x301)]).toEqual([2, 2, 0]);
    expect([clusterWidth("❤️"), clusterWidth("🇯🇵"), clusterWidth("e\u0301"), clusterWidth("\u200b")]).toEqual([2, 2, 1, 0]);
  });
});

/** Row 0 of a 30-column emulator after `bytes`: the cursor column and the text. */
function emulate(bytes: string): { x: number; text: string; cells: string[] } {
  const e = new Emulator({ cols: 30, rows: 3, scrollback: 0 });
  e.parse(new TextEncoder().encode(bytes));
  const r = { x: e.cursorX, text: e.readPane({ source: "visible" }).text, cells: e.lines(0, 1) };
  e.dispose();
  return r;
}

describe("the emulator", () => {
  test("ｶﾞ keeps the voiced mark in its own cell; a format character joins the cell before", () => {
    expect(emulate("ｶﾞ|").x).toBe(3);
    expect(emulate("A\u202eB\u2066C\u200fD\u200bE\u2028F|")).toEqual({ x: 7, text: "A\u202eB\u2066C\u200fD\u200bE\u2028F|", cells: ["A\u202eB\u2066C\u200fD\u200bE\u2028F|"] });
    expect(emulate("🫠|🩷|").x).toBe(6);
    expect(emulate("\u200bA\r\n\u202eB")).toMatchObject({ x: 1, text: "A\nB" });
  });
});

describe("in a pane, on the attach screen", () => {
  const s = useServer();
  const ASKER = join(import.meta.dir, "fixtures", "ask-terminal.ts");

  test("a CPR after each Unicode 14/15 emoji and format character answers the column wcwidth gives", async () => {
    const chars = [...UNICODE_15_WIDE.map((cp) => String.fromCodePoint(cp)), ...UNICODE_14_NAMED, ...FORMAT.map((cp) => String.fromCodePoint(cp))];
    // The asker puts the cursor at row 3, column 5 first: each query writes "a", the character
    // and "b" from there and asks where the cursor is.
    // A format character first on its row has no cell to ride on: it is dropped, "b" takes column 1.
    const queries = [...chars.map((c) => `\x1b[3;5Ha${c}b\x1b[6n`), ...FORMAT.map((cp) => `\x1b[3;1H${String.fromCodePoint(cp)}b\x1b[6n`)];
    const file = join(s.root, "cpr.json");
    const r = await s.request({ v: 1, type: "split", pane: 1, cwd: s.root, command: [process.execPath, ASKER, file, JSON.stringify(queries)], focus: false });
    expect(r.type).not.toBe("error");
    await waitFor("the answers", () => existsSync(file), 30000);
    const got = (JSON.parse(readFileSync(file, "utf8")) as { got: string }).got;
    const cols = [...got.matchAll(/\x1b\[3;(\d+)R/g)].map((m) => Number(m[1]));
    const want = [...chars.map((c) => 5 + 1 + cellWidth(c.codePointAt(0)!) + 1), ...FORMAT.map(() => 2)];
    const named = [...chars, ...FORMAT.map((cp) => String.fromCodePoint(cp))].map((c) => c.codePointAt(0)!.toString(16));
    expect(cols.map((x, i) => `${named[i]}:${x}`)).toEqual(want.map((x, i) => `${named[i]}:${x}`));
  }, 60000);

  test("the attach screen draws a row of new emoji with every character after them where the pane has it", async () => {
    const c = await RawAttach.open(s.sock, { v: 1, type: "attach", cols: 60, rows: 10 });
    const outer = new OuterTerminal(c, 60, 10);
    await c.firstFrame();
    const pane = Number((await s.ok(["tab", "new", "--focus", "--", "sh", "-c", "printf '\\033[H\\033[2J🫠|🩷|🪩|ｶﾞ|end'; exec cat"])).trim());
    await s.waitScreen(pane, "end");
    await waitFor("the row drawn", async () => (await outer.rows()).some((r) => r.includes("end")));
    const row = (await outer.rows()).find((r) => r.includes("end"))!;
    const cells = await outer.cells((await outer.rows()).indexOf(row));
    const at = cells.findIndex((x) => x.ch === "e");
    // 🫠 | 🩷 | 🪩 | ｶ ﾞ | : 2+1+2+1+2+1+1+1+1 = 12 cells before "end".
    expect(at - cells.findIndex((x) => x.ch === "🫠")).toBe(12);
    c.close();
  }, 30000);

  test("bidi controls and invisible characters never reach the user's terminal; the letters around them do, side by side", async () => {
    const c = await RawAttach.open(s.sock, { v: 1, type: "attach", cols: 60, rows: 10 });
    const outer = new OuterTerminal(c, 60, 10);
    await c.firstFrame();
    // A<RLO>B<LRI>C<RLM>D<ZWSP>E<LSEP>F, and the same first on its row (no cell before it).
    const pane = Number((await s.ok(["tab", "new", "--focus", "--", "sh", "-c", "printf '\\033[H\\033[2JA\\342\\200\\256B\\342\\201\\246C\\342\\200\\217D\\342\\200\\213E\\342\\200\\250F|\\r\\n\\342\\200\\256G|'; exec cat"])).trim());
    await s.waitScreen(pane, "G|");
    await waitFor("the row drawn", async () => (await outer.rows()).some((r) => r.includes("G|")));
    expect(await s.screen(pane)).toContain("A\u202eB\u2066C\u200fD\u200bE\u2028F|");
    const rows = await outer.rows();
    expect(rows.some((r) => r.includes("ABCDEF|"))).toBe(true);
    for (const ch of ["\u202e", "\u2066", "\u200f", "\u200b", "\u2028"]) expect(outer.bytes.includes(ch)).toBe(false);
    c.close();
  }, 30000);
});
