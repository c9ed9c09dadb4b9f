// Character widths as modern terminals draw them. xterm's default tables are Unicode 6's, where
// ✅ 🚀 ⚡ take one cell while the user's terminal gives them two: rows then drift and leave stale
// cells behind. The graphemes addon keeps ZWJ sequences, skin tones, flags and combining marks in
// one cell (what Ghostty, kitty, WezTerm and iTerm2 draw), but its own widths miss the Unicode 14
// and 15 emoji (🫠 🩷 one cell) and give format characters (U+200B, U+200E, the bidi controls) a
// cell where wcwidth, xterm and tmux give none. So ws's provider keeps the addon's clusters and takes
// every width from the table generated from the Unicode data (char-width.ts). Unicode 11 (the
// other addon) is the fallback where a provider cannot be registered.
import type { IUnicodeVersionProvider, Terminal } from "@xterm/headless";
import { Unicode11Addon } from "@xterm/addon-unicode11";
import { UnicodeGraphemesAddon } from "@xterm/addon-unicode-graphemes";
import { cellWidth } from "./char-width";
import { UNICODE_VERSION } from "./unicode-widths.generated";
import { coreOf } from "./xterm-internals";

/** The width tables ws asks for, best first. */
export const UNICODE_VERSIONS = [`${UNICODE_VERSION}-ws`, "15-graphemes", "11"] as const;

// xterm's character properties (UnicodeService.createPropertyValue): the grapheme state above
// bit 3, the width in bits 1-2, "joins the cell before" in bit 0.
const JOINS = 1;
const widthOf = (p: number) => (p >> 1) & 3;
const withWidth = (p: number, w: number) => (p & ~6) | (w << 1);

/** The addon's grapheme provider, taken from an addon activated on a stand-in (it holds no state). */
function graphemesProvider(): IUnicodeVersionProvider | undefined {
  const got: IUnicodeVersionProvider[] = [];
  const standIn = { unicode: { register: (p: IUnicodeVersionProvider) => got.push(p), activeVersion: "" } };
  new UnicodeGraphemesAddon().activate(standIn as unknown as Parameters<UnicodeGraphemesAddon["activate"]>[0]);
  return got.find((p) => p.version === "15-graphemes");
}

function wsProvider(clusters: IUnicodeVersionProvider): IUnicodeVersionProvider {
  return {
    version: UNICODE_VERSIONS[0],
    wcwidth: (cp) => cellWidth(cp),
    charProperties(cp, preceding) {
      // Plain ASCII after a plain character: the addon's fast path.
      if (cp >= 32 && cp < 127 && preceding >> 3 === 0) return clusters.charProperties(cp, preceding);
      // The half-width voiced marks extend a grapheme, but every terminal gives them a cell.
      if (cp === 0xff9e || cp === 0xff9f) return 1 << 1;
      const w = cellWidth(cp);
      const p = clusters.charProperties(cp, preceding);
      if (p & JOINS) return w === 2 && widthOf(p) < 2 ? withWidth(p, 2) : p;
      // A character that draws nothing and starts no cluster (a format character) goes with the
      // cell before, as wcwidth's 0 does, and leaves the state the next character sees as it was.
      if (w === 0) return preceding === 0 ? JOINS : preceding | JOINS;
      return withWidth(p, w);
    },
  };
}

let provider: IUnicodeVersionProvider | undefined;

/**
 * A character that takes no cell, first on its row, has no cell to ride on: it is dropped, as in
 * wcwidth's terminals (tmux), where xterm would give it a cell of width 0 and move the cursor.
 */
function dropZeroWidthAtRowStart(term: Terminal): void {
  const ih = coreOf(term)?._inputHandler;
  if (typeof ih?.print !== "function" || typeof ih._parser?.precedingJoinState !== "number" || typeof ih._activeBuffer?.x !== "number") return;
  const print = ih.print;
  ih.print = function (this: unknown, data, start, end) {
    if (ih._parser!.precedingJoinState === 0 && ih._activeBuffer!.x === 0 && term.unicode.activeVersion === UNICODE_VERSIONS[0])
      while (start < end && data[start]! >= 0x300 && cellWidth(data[start]!) === 0) start++;
    if (start < end) print.call(this, data, start, end);
  };
}

/** Register the modern width tables on `term` and make the best one active; returns which. */
export function useModernWidths(term: Terminal): string {
  try {
    term.loadAddon(new Unicode11Addon());
    const clusters = graphemesProvider();
    if (clusters) term.unicode.register((provider ??= wsProvider(clusters)));
    dropZeroWidthAtRowStart(term);
  } catch {
    // An addon that does not fit this xterm: keep whatever could be registered.
  }
  for (const v of UNICODE_VERSIONS)
    if (term.unicode.versions.includes(v)) {
      term.unicode.activeVersion = v;
      return v;
    }
  return term.unicode.activeVersion;
}
