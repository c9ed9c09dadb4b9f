// tmux's style directives in a pane-border-format (src/ui/pane-border.ts): the runs drawn and
// their styles, as tmux's style_parse reads them; what the format may not carry (control
// characters) is dropped.
import { describe, expect, test } from "bun:test";
import { BOLD, INVERSE, ITALIC, pal, rgb } from "../src/ui/grid";
import { styledRuns } from "../src/ui/pane-border";

const base = { fg: pal(245), attrs: 0 };

describe("pane-border-format styles", () => {
  test("Claude Code's format: a bold coloured title, then back to the line's style", () => {
    expect(styledRuns("#[fg=blue,bold] lead #[default]x", base)).toEqual([
      { text: " lead ", style: { fg: pal(4), attrs: BOLD } },
      { text: "x", style: { fg: pal(245), bg: undefined, attrs: 0 } },
    ]);
  });

  test("colours by name, bright names, colourN, #rrggbb and default; attributes on and off", () => {
    expect(styledRuns("#[fg=brightred bg=colour123]a#[fg=#ff8000,italics,reverse]b#[noreverse,fg=default]c", base)).toEqual([
      { text: "a", style: { fg: pal(9), bg: pal(123), attrs: 0 } },
      { text: "b", style: { fg: rgb(0xff8000), bg: pal(123), attrs: ITALIC | INVERSE } },
      { text: "c", style: { fg: pal(245), bg: pal(123), attrs: ITALIC } },
    ]);
  });

  test("control characters never reach the terminal; an unclosed directive ends the label", () => {
    expect(styledRuns("a\x1b[31mb\x07#[fg=red", base)).toEqual([{ text: "a[31mb", style: base }]);
  });
});
