// tmux's preset layouts (layout-set.c) as ws split trees over a tab's panes, in their order:
// even-horizontal, even-vertical, main-vertical, main-horizontal, tiled. Sizes are worked out in
// cells for the area the tab has, so panes come out as even as tmux's.
import type { Direction, Layout, Rect } from "./layout";
import { leaf } from "./layout";

export const LAYOUT_PRESETS = ["even-horizontal", "even-vertical", "main-vertical", "main-horizontal", "tiled"] as const;
export type LayoutPreset = (typeof LAYOUT_PRESETS)[number];

/** A right split spends a column on its separator; a below split none (the lower pane's label row
 * is its border). */
const SEPARATOR = { right: 1, below: 0 } as const;

/** `parts` laid out evenly along `dir` in `total` cells: each split gives its first child its share. */
function even(parts: Layout[], dir: Direction, total: number): Layout {
  if (parts.length === 1) return parts[0]!;
  const k = parts.length;
  const space = Math.max(1, total - SEPARATOR[dir]);
  const first = Math.floor((total - SEPARATOR[dir] * (k - 1)) / k);
  const ratio = Math.min(0.99, Math.max(0.01, first / space));
  return { kind: "split", dir, ratio, a: parts[0]!, b: even(parts.slice(1), dir, total - first - SEPARATOR[dir]) };
}

/** tmux's main-pane-width / main-pane-height defaults. */
export const MAIN_PANE = { width: 80, height: 24 };

export function presetLayout(preset: LayoutPreset, panes: number[], area: Rect, main: { width?: number; height?: number } = {}): Layout {
  const leaves = panes.map(leaf);
  if (leaves.length <= 1) return leaves[0]!;
  switch (preset) {
    case "even-horizontal":
      return even(leaves, "right", area.cols);
    case "even-vertical":
      return even(leaves, "below", area.rows);
    case "main-vertical": {
      const space = area.cols - 1;
      const width = Math.min(main.width ?? MAIN_PANE.width, space - 1);
      return { kind: "split", dir: "right", ratio: Math.min(0.99, Math.max(0.01, width / space)), a: leaves[0]!, b: even(leaves.slice(1), "below", area.rows) };
    }
    case "main-horizontal": {
      // A pane's cell holds its label row too.
      const height = Math.min((main.height ?? MAIN_PANE.height) + 1, area.rows - 2);
      return { kind: "split", dir: "below", ratio: Math.min(0.99, Math.max(0.01, height / area.rows)), a: leaves[0]!, b: even(leaves.slice(1), "right", area.cols) };
    }
    case "tiled": {
      // As tmux: rows and columns grow in turn until the grid holds every pane; rows fill in order.
      let rows = 1;
      let cols = 1;
      while (rows * cols < leaves.length) {
        rows++;
        if (rows * cols < leaves.length) cols++;
      }
      const lines: Layout[] = [];
      for (let i = 0; i < leaves.length; i += cols) lines.push(even(leaves.slice(i, i + cols), "right", area.cols));
      return even(lines, "below", area.rows);
    }
  }
}
