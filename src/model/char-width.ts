// How many cells a character takes, from the generated Unicode table (unicode-widths.generated.ts,
// made by scripts/unicode-widths.ts): one answer for the pane's emulator (emulator-unicode.ts) and
// for the text the attach screen draws itself (ui/grid.ts), so the two never disagree.
import { DOUBLE_WIDTH, ZERO_WIDTH } from "./unicode-widths.generated";

/** The Basic Multilingual Plane's widths, one byte each, made on first use. */
let bmp: Uint8Array | undefined;
/** Runs outside it, as [first, last, width] triples in order (binary search). */
let astral: number[] = [];

function build(): Uint8Array {
  const t = new Uint8Array(0x10000).fill(1);
  const runs: [number, number, number][] = [];
  for (const [list, w] of [[ZERO_WIDTH, 0], [DOUBLE_WIDTH, 2]] as const)
    for (let i = 0; i < list.length; i += 2) {
      const a = list[i]!, b = list[i + 1]!;
      if (a < 0x10000) t.fill(w, a, Math.min(b, 0xffff) + 1);
      if (b >= 0x10000) runs.push([Math.max(a, 0x10000), b, w]);
    }
  runs.sort((x, y) => x[0] - y[0]);
  astral = runs.flat();
  return t;
}

/** Cells `cp` takes on its own: 0, 1 or 2. */
export function cellWidth(cp: number): 0 | 1 | 2 {
  if (cp < 0x300) return 1;
  const t = (bmp ??= build());
  if (cp < 0x10000) return t[cp] as 0 | 1 | 2;
  let lo = 0, hi = astral.length / 3 - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (cp < astral[3 * mid]!) hi = mid - 1;
    else if (cp > astral[3 * mid + 1]!) lo = mid + 1;
    else return astral[3 * mid + 2] as 0 | 1 | 2;
  }
  return 1;
}

/**
 * Cells one grapheme cluster takes, as the emulator gives it: its first character's width, two
 * when an emoji presentation selector (U+FE0F) follows it or it is a pair of regional indicators
 * (a flag); 0 for a cluster of characters that draw nothing.
 */
export function clusterWidth(g: string): 0 | 1 | 2 {
  const first = g.codePointAt(0);
  if (first === undefined) return 0;
  let w = cellWidth(first);
  if (g.length > 1) {
    if (g.includes("\ufe0f") && w === 1) w = 2;
    if (first >= 0x1f1e6 && first <= 0x1f1ff && g.length >= 4) w = 2;
    if (w === 0) for (const c of g) if ((w = Math.max(w, cellWidth(c.codePointAt(0)!)) as 0 | 1 | 2) === 2) break;
  }
  return w;
}
