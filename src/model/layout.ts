// A tab's layout: a binary split tree, pure data with pure functions (split, remove, resize,
// rectangles), so it can be tested without a PTY and saved and restored as JSON.

export type Direction = "right" | "below";

export type Layout =
  | { kind: "pane"; pane: number }
  | {
      kind: "split";
      dir: Direction;
      /** The first child's share of the space the split divides (after its separator). */
      ratio: number;
      a: Layout;
      b: Layout;
    };

export interface Rect {
  x: number;
  y: number;
  cols: number;
  rows: number;
}

/** Where a pane sits: its whole cell, and the part its program sees (below a header row). */
export interface PaneRect extends Rect {
  pane: number;
  /** The pane's label row, drawn above its content when the tab shows more than one pane. */
  header?: { x: number; y: number; cols: number };
}

/** A right split spends one column on the vertical separator. Below splits use the lower pane's
 * header row as their border. */
const SEPARATOR = 1;

export function leaf(pane: number): Layout {
  return { kind: "pane", pane };
}

export function panesOf(l: Layout): number[] {
  return l.kind === "pane" ? [l.pane] : [...panesOf(l.a), ...panesOf(l.b)];
}

export function contains(l: Layout, pane: number): boolean {
  return l.kind === "pane" ? l.pane === pane : contains(l.a, pane) || contains(l.b, pane);
}

function splitSpace(total: number, dir: Direction): number {
  return dir === "right" ? Math.max(0, total - SEPARATOR) : total;
}

function clamp(n: number, lo: number, hi: number): number {
  return Math.max(lo, Math.min(hi, n));
}

/** Sizes of a split's two children along its direction. Each side keeps at least `min` cells. */
function childExtents(total: number, dir: Direction, ratio: number, min: number): [number, number] {
  const space = splitSpace(total, dir);
  if (space < 2 * min) {
    const a = Math.max(0, Math.ceil(space / 2));
    return [a, Math.max(0, space - a)];
  }
  const a = clamp(Math.round(space * ratio), min, space - min);
  return [a, space - a];
}

/** Every pane's rectangle in `area`. With `headers`, each pane's first row is its label row. */
export function paneRects(l: Layout, area: Rect, headers: boolean): PaneRect[] {
  const out: PaneRect[] = [];
  const min = headers ? 2 : 1;
  const walk = (node: Layout, r: Rect) => {
    if (node.kind === "pane") {
      if (headers && r.rows >= 2)
        out.push({ pane: node.pane, x: r.x, y: r.y + 1, cols: r.cols, rows: r.rows - 1, header: { x: r.x, y: r.y, cols: r.cols } });
      else out.push({ pane: node.pane, ...r });
      return;
    }
    if (node.dir === "right") {
      const [a, b] = childExtents(r.cols, "right", node.ratio, min);
      walk(node.a, { x: r.x, y: r.y, cols: a, rows: r.rows });
      walk(node.b, { x: r.x + a + SEPARATOR, y: r.y, cols: b, rows: r.rows });
    } else {
      const [a, b] = childExtents(r.rows, "below", node.ratio, min);
      walk(node.a, { x: r.x, y: r.y, cols: r.cols, rows: a });
      walk(node.b, { x: r.x, y: r.y + a, cols: r.cols, rows: b });
    }
  };
  walk(l, area);
  return out;
}

/** The cell (whole rectangle, header included) a node occupies. */
export function nodeRect(root: Layout, target: Layout, area: Rect, headers: boolean): Rect | undefined {
  const min = headers ? 2 : 1;
  const walk = (node: Layout, r: Rect): Rect | undefined => {
    if (node === target) return r;
    if (node.kind === "pane") return undefined;
    if (node.dir === "right") {
      const [a, b] = childExtents(r.cols, "right", node.ratio, min);
      return walk(node.a, { x: r.x, y: r.y, cols: a, rows: r.rows }) ?? walk(node.b, { x: r.x + a + SEPARATOR, y: r.y, cols: b, rows: r.rows });
    }
    const [a, b] = childExtents(r.rows, "below", node.ratio, min);
    return walk(node.a, { x: r.x, y: r.y, cols: r.cols, rows: a }) ?? walk(node.b, { x: r.x, y: r.y + a, cols: r.cols, rows: b });
  };
  return walk(root, area);
}

function findLeaf(l: Layout, pane: number): Layout | undefined {
  if (l.kind === "pane") return l.pane === pane ? l : undefined;
  return findLeaf(l.a, pane) ?? findLeaf(l.b, pane);
}

function replace(l: Layout, target: Layout, by: Layout): Layout {
  if (l === target) return by;
  if (l.kind === "pane") return l;
  return { ...l, a: replace(l.a, target, by), b: replace(l.b, target, by) };
}

/**
 * Split `pane`, putting `newPane` to its right or below. `size` is the new pane's size in the cells
 * its program sees (columns to the right, rows below); without it the space is halved. The area
 * and header flag are those the tab will have after the split (it always shows headers then).
 */
export function splitPane(root: Layout, pane: number, newPane: number, dir: Direction, area: Rect, size?: number): Layout {
  const target = findLeaf(root, pane);
  if (!target) throw new Error(`pane ${pane} is not in this layout`);
  let ratio = 0.5;
  if (size !== undefined && size > 0) {
    const cell = nodeRect(root, target, area, true) ?? area;
    const total = dir === "right" ? cell.cols : cell.rows;
    const space = splitSpace(total, dir);
    const bCells = dir === "right" ? size : size + 1; // below: the new pane's header row too
    if (space > 0) ratio = clamp((space - bCells) / space, 0.01, 0.99);
  }
  return replace(root, target, { kind: "split", dir, ratio, a: target, b: leaf(newPane) });
}

/** The layout without `pane`; its sibling takes its place. Undefined when it was the only pane. */
export function removePane(root: Layout, pane: number): Layout | undefined {
  if (root.kind === "pane") return root.pane === pane ? undefined : root;
  if (root.a.kind === "pane" && root.a.pane === pane) return root.b;
  if (root.b.kind === "pane" && root.b.pane === pane) return root.a;
  const a = removePane(root.a, pane);
  const b = removePane(root.b, pane);
  return { ...root, a: a!, b: b! };
}

/** Swap two panes' places. */
export function swapPanes(root: Layout, p: number, q: number): Layout {
  if (root.kind === "pane") return root.pane === p ? leaf(q) : root.pane === q ? leaf(p) : root;
  return { ...root, a: swapPanes(root.a, p, q), b: swapPanes(root.b, p, q) };
}

/**
 * Grow (positive) or shrink `pane` by `delta` cells along `dir`, moving the nearest enclosing
 * split of that direction, as tmux's resize-pane does.
 */
export function resizePane(root: Layout, pane: number, dir: Direction, delta: number, area: Rect, headers: boolean): Layout {
  // Find the innermost split in `dir` with the pane in one of its children.
  const path: { node: Extract<Layout, { kind: "split" }>; inA: boolean }[] = [];
  const walk = (n: Layout): boolean => {
    if (n.kind === "pane") return n.pane === pane;
    if (walk(n.a)) return path.push({ node: n, inA: true }), true;
    if (walk(n.b)) return path.push({ node: n, inA: false }), true;
    return false;
  };
  if (!walk(root)) return root;
  const hit = path.find((p) => p.node.dir === dir);
  if (!hit) return root;
  const cell = nodeRect(root, hit.node, area, headers) ?? area;
  const space = splitSpace(dir === "right" ? cell.cols : cell.rows, dir);
  if (space <= 0) return root;
  const cur = Math.round(space * hit.node.ratio);
  const next = clamp(cur + (hit.inA ? delta : -delta), 1, space - 1);
  const updated = { ...hit.node, ratio: next / space };
  return replace(root, hit.node, updated);
}

/** The pane whose cell lies next to `from` in a direction, for focus-by-arrow. */
export function neighbour(rects: PaneRect[], from: number, towards: "left" | "right" | "up" | "down"): number | undefined {
  const r = rects.find((x) => x.pane === from);
  if (!r) return undefined;
  const top = r.header ? r.header.y : r.y;
  const cx = r.x + r.cols / 2;
  const cy = (top + r.y + r.rows) / 2;
  let best: { pane: number; d: number } | undefined;
  for (const o of rects) {
    if (o.pane === from) continue;
    const otop = o.header ? o.header.y : o.y;
    const ok =
      towards === "left" ? o.x + o.cols <= r.x : towards === "right" ? o.x >= r.x + r.cols : towards === "up" ? o.y + o.rows <= top : otop >= r.y + r.rows;
    if (!ok) continue;
    const overlap = towards === "left" || towards === "right" ? otop < r.y + r.rows && o.y + o.rows > top : o.x < r.x + r.cols && o.x + o.cols > r.x;
    const ox = o.x + o.cols / 2;
    const oy = (otop + o.y + o.rows) / 2;
    const d = Math.abs(ox - cx) + Math.abs(oy - cy) + (overlap ? 0 : 10000);
    if (!best || d < best.d) best = { pane: o.pane, d };
  }
  return best?.pane;
}
