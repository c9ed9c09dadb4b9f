// A pane's label row as tmux's `pane-border-status top` draws it, for a tab whose border status
// was set through the tmux shim (Claude Code's agent teams set it, with a coloured, bold format
// per teammate): the border line, and two cells in, the pane's pane-border-format expanded (tmux's
// format language, src/ui/tmux-format.ts) with its `#[…]` styles. ws's own label otherwise.
import { hostname } from "node:os";
import type { Pane } from "../model/pane";
import type { Tab } from "../model/workspace";
import { expand } from "./tmux-format";
import { BLINK, BOLD, DEFAULT_COLOR, DIM, INVERSE, INVISIBLE, ITALIC, OVERLINE, STRIKE, UNDERLINE, pal, rgb, type Grid, type Style } from "./grid";

/** tmux 3.3's default pane-border-format. */
const TMUX_BORDER_FORMAT = '#{?pane_active,#[reverse],}#{pane_index}#[default] "#{pane_title}"';

/** The format a pane's label row shows, or undefined for ws's own label. */
export function borderFormat(pane: Pane, tab: Tab): string | undefined {
  const status = tab.border?.status;
  if (status !== "top" && status !== "bottom") return undefined;
  return pane.borderFormat ?? tab.border?.format ?? TMUX_BORDER_FORMAT;
}

const host = hostname();

/** Draw pane's label row at (x, y), `cols` wide: the line in `line`'s style, the format from x+2. */
export function drawBorderLabel(g: Grid, x: number, y: number, cols: number, format: string, pane: Pane, index: number, active: boolean, line: Style): void {
  g.fill(x, y, cols, 1, "─", line);
  const vars: Record<string, string> = {
    pane_id: `%${pane.id}`,
    pane_index: String(index),
    pane_active: active ? "1" : "0",
    pane_title: pane.name || pane.title || host,
    pane_current_command: pane.program,
    pane_width: String(pane.cols),
    pane_height: String(pane.rows),
    pane_dead: pane.exited ? "1" : "0",
    host,
    host_short: host.split(".")[0]!,
  };
  let at = x + 2;
  const end = x + Math.max(0, cols - 2);
  for (const run of styledRuns(expand(format, (name) => vars[name]), line)) {
    if (at >= end) break;
    at += g.text(at, y, run.text, run.style, end - at);
  }
}

/** The expanded text split at its `#[…]` style changes; `#[default]` goes back to `base`. */
export function styledRuns(text: string, base: Style): { text: string; style: Style }[] {
  const runs: { text: string; style: Style }[] = [];
  let style: Style = { ...base };
  let i = 0;
  while (i < text.length) {
    const open = text.indexOf("#[", i);
    const stop = open < 0 ? text.length : open;
    // Control characters never reach the user's terminal from a format.
    if (stop > i) runs.push({ text: text.slice(i, stop).replace(/[\x00-\x1f\x7f-\x9f]/g, ""), style });
    if (open < 0) break;
    const close = text.indexOf("]", open);
    if (close < 0) break;
    style = applyStyle(style, text.slice(open + 2, close), base);
    i = close + 1;
  }
  return runs.filter((r) => r.text !== "");
}

const ATTRS: Record<string, number> = {
  bright: BOLD, bold: BOLD, dim: DIM, italics: ITALIC, underscore: UNDERLINE, blink: BLINK, reverse: INVERSE,
  hidden: INVISIBLE, strikethrough: STRIKE, overline: OVERLINE,
};
const NAMED = ["black", "red", "green", "yellow", "blue", "magenta", "cyan", "white"];

/** tmux's style_parse, the part formats use: fg=, bg=, attributes and their no- forms, default, none. */
function applyStyle(from: Style, spec: string, base: Style): Style {
  const st: Style = { ...from };
  for (const word of spec.split(/[\s,]+/).filter(Boolean)) {
    const w = word.toLowerCase();
    if (w === "default") Object.assign(st, { fg: base.fg, bg: base.bg, attrs: base.attrs });
    else if (w === "none") st.attrs = 0;
    else if (w.startsWith("fg=") || w.startsWith("bg=")) {
      const c = colour(w.slice(3));
      if (c !== undefined) st[w[0] === "f" ? "fg" : "bg"] = c === "base" ? (w[0] === "f" ? base.fg : base.bg) : c;
    } else if (w.startsWith("no") && ATTRS[w.slice(2)]) st.attrs = (st.attrs ?? 0) & ~ATTRS[w.slice(2)]!;
    else if (ATTRS[w]) st.attrs = (st.attrs ?? 0) | ATTRS[w]!;
  }
  return st;
}

function colour(c: string): number | "base" | undefined {
  if (c === "default" || c === "terminal") return "base";
  const named = NAMED.indexOf(c);
  if (named >= 0) return pal(named);
  if (c.startsWith("bright") && NAMED.includes(c.slice(6))) return pal(8 + NAMED.indexOf(c.slice(6)));
  const n = /^colou?r(\d{1,3})$/.exec(c);
  if (n && Number(n[1]) < 256) return pal(Number(n[1]));
  const hex = /^#([0-9a-f]{6})$/.exec(c);
  if (hex) return rgb(Number.parseInt(hex[1]!, 16));
  return c === "none" ? DEFAULT_COLOR : undefined;
}
