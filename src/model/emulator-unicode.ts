// Character widths as modern terminals draw them. xterm's default tables are Unicode 6's, where
// ✅ 🚀 ⚡ take one cell while the user's terminal gives them two: rows then drift and leave stale
// cells behind. The graphemes addon gives Unicode 15 widths and keeps ZWJ sequences, skin tones,
// flags and combining marks in one cell (what Ghostty, kitty, WezTerm and iTerm2 draw); Unicode 11
// (the other addon) is the fallback where the graphemes provider cannot be registered.
import type { Terminal } from "@xterm/headless";
import { Unicode11Addon } from "@xterm/addon-unicode11";
import { UnicodeGraphemesAddon } from "@xterm/addon-unicode-graphemes";

/** The width tables ws asks for, best first. */
export const UNICODE_VERSIONS = ["15-graphemes", "11"] as const;

/** Register the modern width tables on `term` and make the best one active; returns which. */
export function useModernWidths(term: Terminal): string {
  try {
    term.loadAddon(new Unicode11Addon());
    term.loadAddon(new UnicodeGraphemesAddon());
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
